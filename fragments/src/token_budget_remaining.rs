//! How many tokens are left in the context window: the text the `get_context_remaining` tool
//! returns, recorded as an unmarked developer fragment.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const TOKEN_BUDGET_REMAINING: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "token_budget.remaining_tokens",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenBudgetRemaining {
    body: String,
}

impl TokenBudgetRemaining {
    /// `None` when the window's size or usage is not known.
    pub fn new(tokens_left: Option<i64>, templates: &TemplateSet) -> Self {
        let body = match tokens_left {
            Some(tokens) => templates.render(
                TemplateId::FragmentTokensRemaining,
                &[("tokens", &tokens.to_string())],
            ),
            None => templates
                .text(TemplateId::FragmentTokensRemainingUnknown)
                .to_string(),
        };
        Self {
            body: cap_rendered_body(&TOKEN_BUDGET_REMAINING, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(TokenBudgetRemaining, TOKEN_BUDGET_REMAINING);
