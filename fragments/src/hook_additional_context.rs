//! Text a hook returned as `additionalContext`, recorded verbatim as a developer message.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const HOOK_ADDITIONAL_CONTEXT: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "hooks.additional_context",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens; longer text keeps both ends.
pub const MAX_TOKENS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookAdditionalContext {
    body: String,
}

impl HookAdditionalContext {
    pub fn new(text: &str, templates: &TemplateSet) -> Self {
        let body = cap_tokens(text, MAX_TOKENS, Keep::HeadAndTail, templates).into_owned();
        Self {
            body: cap_rendered_body(&HOOK_ADDITIONAL_CONTEXT, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(HookAdditionalContext, HOOK_ADDITIONAL_CONTEXT);
