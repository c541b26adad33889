//! The user message that closes a compacted history: the summary prefix, a newline and the
//! summary the model wrote. Unmarked; recognised by its content kind, or by a known prefix.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const COMPACTION_SUMMARY: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "compaction.summary",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Upstream's summary prefix. Recognition only: summaries in upstream rollouts start with it
/// followed by a newline; this project writes its own prefix (`compaction/summary_prefix.md`).
pub const UPSTREAM_SUMMARY_PREFIX: &str = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:";
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the summary; a longer one keeps both ends.
pub const MAX_SUMMARY_TOKENS: usize = 9_500;

/// Whether `text` begins with upstream's summary prefix or this project's embedded one, each
/// followed by a newline (leading whitespace ignored).
pub fn matches_compaction_summary(text: &str) -> bool {
    let embedded = TemplateSet::embedded();
    let text = text.trim_start();
    [
        UPSTREAM_SUMMARY_PREFIX,
        embedded.text(TemplateId::CompactionSummaryPrefix),
    ]
    .iter()
    .any(|prefix| {
        text.strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('\n'))
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionSummary {
    body: String,
}

impl CompactionSummary {
    pub fn new(summary: &str, templates: &TemplateSet) -> Self {
        let prefix = templates.text(TemplateId::CompactionSummaryPrefix);
        let summary = cap_tokens(summary, MAX_SUMMARY_TOKENS, Keep::HeadAndTail, templates);
        let body = format!("{prefix}\n{summary}");
        Self {
            body: cap_rendered_body(&COMPACTION_SUMMARY, body, MAX_TOKENS, templates),
        }
    }
}

impl ContextualUserFragment for CompactionSummary {
    fn role(&self) -> &'static str {
        COMPACTION_SUMMARY.role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(COMPACTION_SUMMARY.content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        COMPACTION_SUMMARY.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        COMPACTION_SUMMARY.markers()
    }

    fn matches_text(text: &str) -> bool {
        matches_compaction_summary(text)
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
