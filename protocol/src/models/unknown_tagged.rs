//! Shared fallback for tagged enums that keep unknown variants as raw JSON.

use serde::Deserialize;
use serde::Deserializer;
use serde::de::Error as _;

/// Accepts only a JSON object whose `type` is a string naming none of `known_tags`.
///
/// Used as the `deserialize_with` of an `#[serde(untagged)] Other(Value)` variant: serde falls
/// back to that variant both for unknown tags and for known tags whose body is malformed, and only
/// the former should succeed.
pub(crate) fn unknown_tagged_object<'de, D>(
    deserializer: D,
    known_tags: &[&str],
) -> Result<serde_json::Value, D::Error>
where
    D: Deserializer<'de>,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    let Some(tag) = value.get("type") else {
        return Err(D::Error::missing_field("type"));
    };
    let Some(tag) = tag.as_str() else {
        return Err(D::Error::custom("field `type` must be a string"));
    };
    if known_tags.contains(&tag) {
        return Err(D::Error::custom(format!(
            "malformed `{tag}` object: it does not match the expected fields"
        )));
    }
    Ok(value)
}
