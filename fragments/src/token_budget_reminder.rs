//! The configured reminder recorded when the remaining context crosses a threshold. The text
//! is the user's configuration, with `{n_remaining}` replaced by the remaining token count.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const TOKEN_BUDGET_REMINDER: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "token_budget.reminder",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Placeholder of the configured reminder text (upstream's configuration syntax).
pub const REMAINING_TOKENS_PLACEHOLDER: &str = "{n_remaining}";
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 2_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenBudgetReminder {
    body: String,
}

impl TokenBudgetReminder {
    pub fn new(message_template: &str, remaining_tokens: i64, templates: &TemplateSet) -> Self {
        let body =
            message_template.replace(REMAINING_TOKENS_PLACEHOLDER, &remaining_tokens.to_string());
        Self {
            body: cap_rendered_body(&TOKEN_BUDGET_REMINDER, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(TokenBudgetReminder, TOKEN_BUDGET_REMINDER);
