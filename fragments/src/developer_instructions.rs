//! The configured `developer_instructions`, verbatim and unmarked, at the head of the initial
//! developer bundle.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const DEVELOPER_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "generic.developer_instructions",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Content kind of the configured `developer_instructions`.
pub const DEVELOPER_INSTRUCTIONS_KIND: &str = DEVELOPER_INSTRUCTIONS.content_kind;
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeveloperInstructions {
    body: String,
}

impl DeveloperInstructions {
    pub fn new(text: impl Into<String>, templates: &TemplateSet) -> Self {
        Self {
            body: cap_rendered_body(&DEVELOPER_INSTRUCTIONS, text.into(), MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(DeveloperInstructions, DEVELOPER_INSTRUCTIONS);
