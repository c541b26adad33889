//! The model's base instructions as a developer message of their own: how Responses Lite
//! requests carry what would otherwise be the `instructions` field.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const BASE_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "model.base_instructions",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Separate,
};

/// Cap of the rendered fragment, in o200k tokens. Catalogue instructions are around 5 000.
pub const MAX_TOKENS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseInstructionsFragment {
    body: String,
}

impl BaseInstructionsFragment {
    pub fn new(text: impl Into<String>, templates: &TemplateSet) -> Self {
        Self {
            body: cap_rendered_body(&BASE_INSTRUCTIONS, text.into(), MAX_TOKENS, templates),
        }
    }

    /// The resolved base instructions as they are. The Responses Lite splice moves the
    /// `instructions` field into this message, so both must carry the same bytes, and the field
    /// itself is not capped.
    pub fn verbatim(text: impl Into<String>) -> Self {
        Self { body: text.into() }
    }
}

spec_fragment!(BaseInstructionsFragment, BASE_INSTRUCTIONS);
