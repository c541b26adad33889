//! The session's base instructions and where they came from.

use serde::Deserialize;
use serde::Serialize;

/// Base instructions recorded for a thread (`SessionMeta.base_instructions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "base_instructions")]
pub struct BaseInstructions {
    pub text: String,
    /// Absent on rollouts written before provenance was tracked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<BaseInstructionsProvenance>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BaseInstructionsProvenance {
    /// Explicitly configured text; it must survive model changes unchanged.
    Custom,
    /// Rendered from the named model's instructions template.
    Model { model: String },
}
