//! The warning once given when requests were rerouted to another model after an account flag.
//! No longer produced; kept so that the warning is recognised as injected context in old
//! sessions. It renders nothing.

use codex_context_fragments::ContextualUserFragment;
use codex_protocol::ContentItemKind;

use crate::context::world_state::FragmentSpec;
use crate::context::world_state::MessagePlacement;
use crate::context::world_state::USER_ROLE;

pub const LEGACY_MODEL_MISMATCH_WARNING: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "model_switch.legacy_mismatch_warning",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// How the warning text began (case-sensitive, after trimming).
pub const PREFIX: &str =
    "Warning: Your account was flagged for potentially high-risk cyber activity";
/// How the warning text ended (case-sensitive, after trimming); empty when any ending counts.
pub const SUFFIX: &str = "";

/// Whether `text` is this warning.
pub fn matches_warning(text: &str) -> bool {
    let trimmed = text.trim();
    trimmed.starts_with(PREFIX) && trimmed.ends_with(SUFFIX)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LegacyModelMismatchWarning;

impl ContextualUserFragment for LegacyModelMismatchWarning {
    fn role(&self) -> &'static str {
        LEGACY_MODEL_MISMATCH_WARNING.role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(LEGACY_MODEL_MISMATCH_WARNING.content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        LEGACY_MODEL_MISMATCH_WARNING.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        LEGACY_MODEL_MISMATCH_WARNING.markers()
    }

    fn matches_text(text: &str) -> bool {
        matches_warning(text)
    }

    fn body(&self) -> String {
        String::new()
    }
}
