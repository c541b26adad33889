//! `<rollout_budget>`: the weighted tokens left in the token budget shared across a session's
//! agents. The newlines sit inside the markers, not in the body.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const ROLLOUT_BUDGET: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "rollout_budget.remaining_tokens",
    start_marker: "<rollout_budget>\n",
    end_marker: "\n</rollout_budget>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolloutBudget {
    body: String,
}

impl RolloutBudget {
    pub fn new(remaining_tokens: i64, templates: &TemplateSet) -> Self {
        let body = templates.render(
            TemplateId::FragmentRolloutBudget,
            &[("tokens", &remaining_tokens.to_string())],
        );
        Self {
            body: cap_rendered_body(&ROLLOUT_BUDGET, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(RolloutBudget, ROLLOUT_BUDGET);
