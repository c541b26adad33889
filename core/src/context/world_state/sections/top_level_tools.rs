//! `top_level_tools`: on a release that records it, the tools a Responses Lite model is offered
//! up front (its `additional_tools` catalog), each namespace and each tool in a namespace keyed
//! by name (`functions`, `functions.exec`, …) with the SHA-1 of its spec as compact JSON with
//! sorted keys (a namespace without its `tools`). The catalog itself travels in the request's
//! `additional_tools` item, so the section sends nothing.

use codex_prompts::TemplateSet;
use codex_release::TopLevelToolsRecord;
use serde_json::Map;
use serde_json::Value;
use sha1::Digest;
use sha1::Sha1;

use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSectionContribution;
use crate::request::LiteToolCatalog;
use crate::request::lite_catalog_tools;
use crate::turn_context::TurnContext;
use codex_tools::ToolSpec;

/// Section ID.
pub const TOP_LEVEL_TOOLS_SECTION_ID: &str = "top_level_tools";
/// Where a namespace's tools are in its spec.
const NAMESPACE_TOOLS_FIELD: &str = "tools";

/// The section for `turn`, when its release records it and the model is Responses Lite.
pub fn top_level_tools_contribution(
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<Option<WorldStateSectionContribution>, WorldStateError> {
    match turn.profile().top_level_tools {
        TopLevelToolsRecord::Absent => return Ok(None),
        TopLevelToolsRecord::RecordedForLite if !turn.model.use_responses_lite => return Ok(None),
        TopLevelToolsRecord::RecordedForLite => {}
    }
    let tools = lite_catalog_tools(&turn.builtin_tools(templates)?, LiteToolCatalog::Namespaced);
    let snapshot = Value::Object(tool_fingerprints(&tools).map_err(WorldStateError::ToolCatalog)?);
    let own = snapshot.clone();
    Ok(Some(
        WorldStateSectionContribution::new(TOP_LEVEL_TOOLS_SECTION_ID, snapshot, |_| None)
            .with_rederive(move |recorded| rederive(&own, recorded)),
    ))
}

/// Name → fingerprint of every named tool of `tools` and, for a namespace, of each of its
/// tools.
fn tool_fingerprints(tools: &[ToolSpec]) -> Result<Map<String, Value>, serde_json::Error> {
    let mut fingerprints = Map::new();
    for tool in tools {
        // Tools without a name (`web_search`) are not recorded.
        let Some(name) = tool.name().map(str::to_string) else {
            continue;
        };
        let mut spec = serde_json::to_value(tool)?;
        if let Some(Value::Array(inner)) = spec
            .as_object_mut()
            .and_then(|object| object.remove(NAMESPACE_TOOLS_FIELD))
        {
            for inner in inner {
                let inner_name = inner
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                fingerprints.insert(
                    format!("{name}.{inner_name}"),
                    Value::String(spec_fingerprint(&inner)?),
                );
            }
        }
        fingerprints.insert(name, Value::String(spec_fingerprint(&spec)?));
    }
    fingerprints.sort_keys();
    Ok(fingerprints)
}

/// SHA-1 (lowercase hex) of `spec` as compact JSON with every object's keys sorted.
fn spec_fingerprint(spec: &Value) -> Result<String, serde_json::Error> {
    let mut hasher = Sha1::new();
    hasher.update(serde_json::to_string(&sorted(spec))?.as_bytes());
    Ok(format!("{:x}", hasher.finalize()))
}

fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), sorted(&object[key])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => value.clone(),
    }
}

/// The recorded fingerprints of tools this section also lists are of the recording renderer's
/// descriptions; they take this section's own, so that only added and removed tools remain.
fn rederive(own: &Value, recorded: &Value) -> Option<Value> {
    let (Value::Object(own), Value::Object(recorded)) = (own, recorded) else {
        return None;
    };
    Some(Value::Object(
        recorded
            .iter()
            .map(|(name, fingerprint)| (name.clone(), own.get(name).unwrap_or(fingerprint).clone()))
            .collect(),
    ))
}

#[cfg(test)]
#[path = "top_level_tools_tests.rs"]
mod tests;
