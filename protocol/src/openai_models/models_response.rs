//! The `/models` response document and the legacy `base_instructions` wire field.

use serde::Deserialize;
use serde::Serialize;

use super::ModelInfo;

/// `{"models": [...]}`: what `/models` returns and what models.json holds.
///
/// Models are read and written through [`legacy_models`], which maps the legacy per-model
/// `base_instructions` key to and from `model_messages.instructions_template`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelsResponse {
    #[serde(with = "legacy_models")]
    pub models: Vec<ModelInfo>,
}

/// Why a catalog document could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelsResponseError {
    #[error(
        "model `{slug}` is missing both `base_instructions` and `model_messages.instructions_template`"
    )]
    MissingInstructions { slug: String },
    #[error("catalog entry is not a JSON object")]
    NotAnObject,
    #[error("invalid catalog entry: {0}")]
    InvalidModel(#[source] serde_json::Error),
}

/// Serde adapter for a list of catalog entries in the wire form (usable with
/// `#[serde(with = "codex_protocol::openai_models::legacy_models")]`).
///
/// Reading: a top-level `base_instructions` string becomes the instructions template when the
/// entry has none; an entry with neither is an error naming its slug. Writing: every entry gets a
/// trailing `base_instructions` rendered with the default personality, for older clients.
pub mod legacy_models {
    use serde::Deserialize;
    use serde::Deserializer;
    use serde::Serializer;
    use serde::ser::SerializeSeq;

    use super::ModelInfo;
    use super::ModelsResponseError;

    /// Key of the legacy per-model instructions copy.
    const BASE_INSTRUCTIONS_KEY: &str = "base_instructions";

    pub fn deserialize<'de, D>(deserializer: D) -> Result<Vec<ModelInfo>, D::Error>
    where
        D: Deserializer<'de>,
    {
        Vec::<serde_json::Value>::deserialize(deserializer)?
            .into_iter()
            .map(model_from_wire)
            .collect::<Result<_, _>>()
            .map_err(serde::de::Error::custom)
    }

    pub fn serialize<S>(models: &[ModelInfo], serializer: S) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
    {
        let mut seq = serializer.serialize_seq(Some(models.len()))?;
        for model in models {
            seq.serialize_element(&model_to_wire(model).map_err(serde::ser::Error::custom)?)?;
        }
        seq.end()
    }

    /// Reads one wire entry, promoting a legacy `base_instructions` into the template.
    pub fn model_from_wire(value: serde_json::Value) -> Result<ModelInfo, ModelsResponseError> {
        let serde_json::Value::Object(mut object) = value else {
            return Err(ModelsResponseError::NotAnObject);
        };
        let legacy_instructions = match object.remove(BASE_INSTRUCTIONS_KEY) {
            Some(serde_json::Value::String(text)) => Some(text),
            Some(_) | None => None,
        };
        let mut model: ModelInfo = serde_json::from_value(serde_json::Value::Object(object))
            .map_err(ModelsResponseError::InvalidModel)?;
        if model.instructions_template().is_none() {
            let Some(text) = legacy_instructions else {
                return Err(ModelsResponseError::MissingInstructions { slug: model.slug });
            };
            model
                .model_messages
                .get_or_insert_with(Default::default)
                .instructions_template = Some(text);
        }
        Ok(model)
    }

    /// Writes one entry with the legacy `base_instructions` copy as its last key.
    pub fn model_to_wire(model: &ModelInfo) -> Result<serde_json::Value, serde_json::Error> {
        let mut value = serde_json::to_value(model)?;
        if let serde_json::Value::Object(object) = &mut value {
            object.insert(
                BASE_INSTRUCTIONS_KEY.to_string(),
                serde_json::Value::String(model.get_model_instructions(None)),
            );
        }
        Ok(value)
    }
}
