//! Personality texts of a catalog entry.

use codex_protocol::Personality;
use codex_protocol::openai_models::ModelInfo;

/// The personality text a model has for a choice: no preference → its default text, `none` →
/// empty, `friendly` / `pragmatic` → that text. `None` when the model has no personality
/// variables or lacks the requested text.
pub fn personality_message(model: &ModelInfo, personality: Option<Personality>) -> Option<&str> {
    model
        .model_messages
        .as_ref()?
        .instructions_variables
        .as_ref()?
        .personality_message(personality)
}
