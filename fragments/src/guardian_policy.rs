//! A guardian reviewer's developer instructions (its review policy), verbatim, always sent as a
//! developer message of its own after the contextual user message.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const GUARDIAN_POLICY: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "guardian.policy",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Separate,
};

/// Content kind of a guardian reviewer's policy message.
pub const GUARDIAN_POLICY_KIND: &str = GUARDIAN_POLICY.content_kind;
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianPolicy {
    body: String,
}

impl GuardianPolicy {
    pub fn new(text: impl Into<String>, templates: &TemplateSet) -> Self {
        Self {
            body: cap_rendered_body(&GUARDIAN_POLICY, text.into(), MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(GuardianPolicy, GUARDIAN_POLICY);
