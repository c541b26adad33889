//! Developer message recorded when the user approves an action that automatic review had
//! denied: it authorises exactly that action, whose JSON follows.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const GUARDIAN_APPROVED_ACTION: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "guardian.approved_action",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the action's JSON; a longer one keeps its beginning.
pub const MAX_ACTION_TOKENS: usize = 9_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianApprovedAction {
    body: String,
}

impl GuardianApprovedAction {
    pub fn new(approved_action_json: &str, templates: &TemplateSet) -> Self {
        let action = cap_tokens(
            approved_action_json,
            MAX_ACTION_TOKENS,
            Keep::Head,
            templates,
        );
        let body = templates.render(
            TemplateId::FragmentGuardianApprovedAction,
            &[("action", &action)],
        );
        Self {
            body: cap_rendered_body(&GUARDIAN_APPROVED_ACTION, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(GuardianApprovedAction, GUARDIAN_APPROVED_ACTION);
