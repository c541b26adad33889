//! Application-supplied additional context, as `<KEY>VALUE</KEY>` in a developer message.
//! Unmarked: the tag names vary with the key, so only the content kind identifies it.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::additional_context_user::AdditionalContextKey;
use super::additional_context_user::MAX_VALUE_TOKENS;
use super::size_cap::Keep;
use super::size_cap::cap_tokens;

pub const ADDITIONAL_CONTEXT_DEVELOPER: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "additional_content.<key>",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens (value, tags and key).
pub use super::additional_context_user::MAX_TOKENS;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalContextDeveloper {
    key: AdditionalContextKey,
    body: String,
}

impl AdditionalContextDeveloper {
    pub fn new(key: AdditionalContextKey, value: &str, templates: &TemplateSet) -> Self {
        let value = cap_tokens(value, MAX_VALUE_TOKENS, Keep::HeadAndTail, templates);
        let body = format!("<{key}>{value}</{key}>", key = key.as_str());
        Self { key, body }
    }
}

impl ContextualUserFragment for AdditionalContextDeveloper {
    fn role(&self) -> &'static str {
        ADDITIONAL_CONTEXT_DEVELOPER.role
    }

    fn content_kind(&self) -> ContentItemKind {
        self.key.content_kind()
    }

    fn markers(&self) -> (&'static str, &'static str) {
        ADDITIONAL_CONTEXT_DEVELOPER.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ADDITIONAL_CONTEXT_DEVELOPER.markers()
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
