//! Developer notice recorded as soon as a network allow or deny rule is saved to the exec
//! policy, so the model knows the host's new status without retrying.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const NETWORK_RULE_SAVED: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "network_proxy.rule_saved",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 1_000;
/// Cap of the host name.
pub const MAX_HOST_TOKENS: usize = 256;

/// Which list the rule was saved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkRuleAction {
    Allow,
    Deny,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkRuleSaved {
    body: String,
}

impl NetworkRuleSaved {
    pub fn new(action: NetworkRuleAction, host: &str, templates: &TemplateSet) -> Self {
        let template = match action {
            NetworkRuleAction::Allow => TemplateId::FragmentNetworkRuleAllowed,
            NetworkRuleAction::Deny => TemplateId::FragmentNetworkRuleDenied,
        };
        let host = cap_tokens(host, MAX_HOST_TOKENS, Keep::Head, templates);
        let body = templates.render(template, &[("host", &host)]);
        Self {
            body: cap_rendered_body(&NETWORK_RULE_SAVED, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(NetworkRuleSaved, NETWORK_RULE_SAVED);
