//! Extra policy for the guardian reviewer when the action under review is node_repl code.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const GUARDIAN_NODE_REPL_POLICY: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "guardian.node_repl_policy",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 4_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianNodeReplPolicy {
    body: String,
}

impl GuardianNodeReplPolicy {
    pub fn new(templates: &TemplateSet) -> Self {
        let body = templates
            .text(TemplateId::FragmentGuardianNodeReplPolicy)
            .to_string();
        Self {
            body: cap_rendered_body(&GUARDIAN_NODE_REPL_POLICY, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(GuardianNodeReplPolicy, GUARDIAN_NODE_REPL_POLICY);
