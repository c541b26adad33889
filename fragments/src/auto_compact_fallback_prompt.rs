//! The configured prompt recorded when automatic compaction falls back to asking the model to
//! wrap up, verbatim.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const AUTO_COMPACT_FALLBACK_PROMPT: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "compaction.auto_fallback_prompt",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoCompactFallbackPrompt {
    body: String,
}

impl AutoCompactFallbackPrompt {
    pub fn new(prompt: &str, templates: &TemplateSet) -> Self {
        Self {
            body: cap_rendered_body(
                &AUTO_COMPACT_FALLBACK_PROMPT,
                prompt.to_string(),
                MAX_TOKENS,
                templates,
            ),
        }
    }
}

spec_fragment!(AutoCompactFallbackPrompt, AUTO_COMPACT_FALLBACK_PROMPT);
