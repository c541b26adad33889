//! The user message a compaction request ends with: the instruction to summarise the
//! conversation so far (`compaction/prompt.md`). Sent only in the summary request, never
//! recorded in history. Unmarked; recognised by its content kind, by this project's text, or by
//! how upstream's prompt opens.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::size_cap::cap_rendered_body;

pub const COMPACTION_PROMPT: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "compaction.prompt",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Separate,
};

/// How upstream's compaction prompt opens (`SUMMARIZATION_PROMPT` in `codex-rs/prompts`).
/// Recognition only: captured compaction requests start their last message with it.
pub const UPSTREAM_PROMPT_OPENING: &str = "You are performing a CONTEXT CHECKPOINT COMPACTION.";
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 2_000;

/// Whether `text` is this project's embedded prompt or opens as upstream's does (leading
/// whitespace ignored).
pub fn matches_compaction_prompt(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with(UPSTREAM_PROMPT_OPENING)
        || text.trim_end()
            == TemplateSet::embedded()
                .text(TemplateId::CompactionPrompt)
                .trim()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionPrompt {
    body: String,
}

impl CompactionPrompt {
    pub fn new(templates: &TemplateSet) -> Self {
        let body = templates.text(TemplateId::CompactionPrompt).to_string();
        Self {
            body: cap_rendered_body(&COMPACTION_PROMPT, body, MAX_TOKENS, templates),
        }
    }
}

impl ContextualUserFragment for CompactionPrompt {
    fn role(&self) -> &'static str {
        COMPACTION_PROMPT.role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(COMPACTION_PROMPT.content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        COMPACTION_PROMPT.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        COMPACTION_PROMPT.markers()
    }

    fn matches_text(text: &str) -> bool {
        matches_compaction_prompt(text)
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
