//! Tool output payloads shared by `function_call_output` and `custom_tool_call_output`.

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FunctionCallOutputBody {
    Text(String),
    ContentItems(Vec<FunctionCallOutputContentItem>),
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
