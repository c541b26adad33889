//! Message content parts (`ContentItem`) and the small enums they use.

use serde::Deserialize;
use serde::Serialize;

/// One part of a message's `content` array, tagged by `type`. Read tag first and written by
/// `response_item_de`, which keeps parts of unknown types as raw JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", remote = "Self")]
pub enum ContentItem {
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
    OutputText {
        text: String,
        /// Kept verbatim (including empty arrays) so replayed assistant output matches what the
        /// API returned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Vec<serde_json::Value>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        logprobs: Option<Vec<serde_json::Value>>,
    },
    /// A content part of a type this crate does not model, kept as raw JSON so it is written
    /// back unchanged.
    #[serde(skip)]
    Other(serde_json::Value),
}

impl ContentItem {
    pub fn input_text(text: impl Into<String>) -> Self {
        Self::InputText { text: text.into() }
    }

    pub fn output_text(text: impl Into<String>) -> Self {
        Self::OutputText {
            text: text.into(),
            annotations: None,
            logprobs: None,
        }
    }

    /// Text of `input_text` / `output_text` parts; `None` for every other part.
    pub fn text(&self) -> Option<&str> {
        match self {
            Self::InputText { text } | Self::OutputText { text, .. } => Some(text),
            Self::InputImage { .. } | Self::InputAudio { .. } | Self::Other(_) => None,
        }
    }
}

/// Where an input image comes from: an inline/remote URL or an uploaded file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ImageReference {
    Inline { image_url: String },
    File { file_id: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageDetail {
    Auto,
    Low,
    #[default]
    High,
    Original,
}

/// Which part of an assistant turn a message belongs to. Absent means "unknown phase".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessagePhase {
    Commentary,
    PartialAnswer,
    FinalAnswer,
}
