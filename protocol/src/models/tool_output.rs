//! Tool output payloads shared by `function_call_output` and `custom_tool_call_output`.

use std::fmt;

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;
use serde::de;
use serde::de::SeqAccess;
use serde::de::Visitor;
use serde::de::value::SeqAccessDeserializer;

use super::content::ImageDetail;
use super::content::ImageReference;

/// A tool's result. On the wire only the body is written: a plain string or an array of content
/// items. `success` is harness-side bookkeeping and never leaves the process.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCallOutputPayload {
    pub body: FunctionCallOutputBody,
    pub success: Option<bool>,
}

impl FunctionCallOutputPayload {
    pub fn from_text(text: impl Into<String>) -> Self {
        Self {
            body: FunctionCallOutputBody::Text(text.into()),
            success: None,
        }
    }

    /// The body as text: the string itself, or the `input_text` parts joined with newlines.
    pub fn text(&self) -> Option<String> {
        match &self.body {
            FunctionCallOutputBody::Text(text) => Some(text.clone()),
            FunctionCallOutputBody::ContentItems(items) => {
                let texts: Vec<&str> = items
                    .iter()
                    .filter_map(|item| match item {
                        FunctionCallOutputContentItem::InputText { text } => Some(text.as_str()),
                        FunctionCallOutputContentItem::InputImage { .. }
                        | FunctionCallOutputContentItem::InputAudio { .. }
                        | FunctionCallOutputContentItem::EncryptedContent { .. }
                        | FunctionCallOutputContentItem::Other(_) => None,
                    })
                    .collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FunctionCallOutputBody {
    Text(String),
    ContentItems(Vec<FunctionCallOutputContentItem>),
}

/// Read by the value's own type, not as an untagged enum: an untagged enum buffers the value
/// before trying each variant, one more copy of what can be a tool output of many megabytes.
impl<'de> Deserialize<'de> for FunctionCallOutputBody {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BodyVisitor;

        impl<'de> Visitor<'de> for BodyVisitor {
            type Value = FunctionCallOutputBody;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string or an array of content items")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(FunctionCallOutputBody::Text(text.to_owned()))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
                Ok(FunctionCallOutputBody::Text(text))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, items: A) -> Result<Self::Value, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(items))
                    .map(FunctionCallOutputBody::ContentItems)
            }
        }

        deserializer.deserialize_any(BodyVisitor)
    }
}

impl Serialize for FunctionCallOutputPayload {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.body.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for FunctionCallOutputPayload {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self {
            body: FunctionCallOutputBody::deserialize(deserializer)?,
            success: None,
        })
    }
}

/// Content parts a tool may return, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FunctionCallOutputContentItem {
    InputText {
        text: String,
    },
    InputImage {
        #[serde(flatten)]
        image: ImageReference,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<ImageDetail>,
    },
    InputAudio {
        audio_url: String,
    },
    EncryptedContent {
        encrypted_content: String,
    },
    /// Unmodelled part, kept verbatim.
    #[serde(untagged, deserialize_with = "unknown_output_content_item")]
    Other(serde_json::Value),
}

fn unknown_output_content_item<'de, D>(deserializer: D) -> Result<serde_json::Value, D::Error>
where
    D: Deserializer<'de>,
{
    super::unknown_tagged::unknown_tagged_object(
        deserializer,
        &[
            "input_text",
            "input_image",
            "input_audio",
            "encrypted_content",
        ],
    )
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn a_body_reads_as_text_or_content_items_and_writes_back_the_same() {
        for (value, expected) in [
            (
                json!("exit 0"),
                FunctionCallOutputBody::Text("exit 0".to_string()),
            ),
            (
                json!([{"type": "input_text", "text": "exit 0"}]),
                FunctionCallOutputBody::ContentItems(vec![
                    FunctionCallOutputContentItem::InputText {
                        text: "exit 0".to_string(),
                    },
                ]),
            ),
        ] {
            let body: FunctionCallOutputBody =
                serde_json::from_value(value.clone()).expect("a body");
            assert_eq!(body, expected);
            assert_eq!(serde_json::to_value(&body).expect("JSON"), value);
            // Read from text, as a rollout line is.
            let text = serde_json::to_string(&value).expect("text");
            let again: FunctionCallOutputBody = serde_json::from_str(&text).expect("a body");
            assert_eq!(again, expected);
        }
        let error = serde_json::from_value::<FunctionCallOutputBody>(json!(7))
            .expect_err("a number is no body")
            .to_string();
        assert_eq!(
            error,
            "invalid type: integer `7`, expected a string or an array of content items"
        );
    }
}
