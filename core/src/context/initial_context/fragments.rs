//! Fragments that initial-context assembly adds itself, outside any world-state section.

use codex_context_fragments::ContextualUserFragment;
use codex_protocol::models::ContentItemKind;

use crate::context::world_state::DEVELOPER_ROLE;

/// Content kind of the configured `developer_instructions`.
pub const DEVELOPER_INSTRUCTIONS_KIND: &str = "generic.developer_instructions";
/// Content kind of a guardian reviewer's policy message.
pub const GUARDIAN_POLICY_KIND: &str = "guardian.policy";

/// The configured `developer_instructions`, verbatim and unmarked, at the head of the developer
/// bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeveloperInstructions {
    text: String,
}

impl DeveloperInstructions {
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into() }
    }
}

impl ContextualUserFragment for DeveloperInstructions {
    fn role(&self) -> &'static str {
        DEVELOPER_ROLE
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(DEVELOPER_INSTRUCTIONS_KIND)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        Self::type_markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("", "")
    }

    fn body(&self) -> String {
        self.text.clone()
    }
}

/// A guardian reviewer's developer instructions: its review policy, sent as a message of its
/// own after the contextual user message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianPolicy {
    text: String,
}

impl GuardianPolicy {
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into() }
    }
}

impl ContextualUserFragment for GuardianPolicy {
    fn role(&self) -> &'static str {
        DEVELOPER_ROLE
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(GUARDIAN_POLICY_KIND)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        Self::type_markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("", "")
    }

    fn body(&self) -> String {
        self.text.clone()
    }

    fn requires_separate_message(&self) -> bool {
        true
    }
}
