//! Untrusted additional context supplied with a turn, as `<external_KEY>VALUE</external_KEY>`
//! in the contextual user message. Only keys whose value changed are sent again.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::error::FragmentError;
use super::size_cap::Keep;
use super::size_cap::cap_tokens;

/// The markers are only the fixed ends of the tags: the rendering is
/// `<external_` + `KEY>VALUE</external_KEY` + `>`.
pub const ADDITIONAL_CONTEXT_USER: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "additional_content.<key>",
    start_marker: "<external_",
    end_marker: ">",
    placement: MessagePlacement::Mergeable,
};

/// Content kinds of additional context are this prefix followed by the key.
pub const ADDITIONAL_CONTENT_KIND_PREFIX: &str = "additional_content.";
/// Cap of one value; a longer value keeps both ends.
pub const MAX_VALUE_TOKENS: usize = 1_000;
/// Longest accepted key. Keys become tag names, so they stay short.
pub const MAX_KEY_BYTES: usize = 64;
/// Cap of the rendered fragment, in o200k tokens (value, tags and key).
pub const MAX_TOKENS: usize = MAX_VALUE_TOKENS + 2 * MAX_KEY_BYTES + 16;

/// A key usable in a tag name and a content kind: ASCII letters, digits, `_`, `-`, `.`, `:`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AdditionalContextKey(String);

impl AdditionalContextKey {
    pub fn new(key: impl Into<String>) -> Result<Self, FragmentError> {
        let key = key.into();
        let valid = !key.is_empty()
            && key.len() <= MAX_KEY_BYTES
            && key
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"_-.:".contains(&byte));
        if valid {
            Ok(Self(key))
        } else {
            Err(FragmentError::InvalidAdditionalContextKey {
                key,
                max_bytes: MAX_KEY_BYTES,
            })
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(format!("{ADDITIONAL_CONTENT_KIND_PREFIX}{}", self.0))
    }
}

/// `<external_KEY>…</external_KEY>` (case-sensitive, surrounding whitespace ignored): the key
/// runs to the first `>` and the closing tag must name the same key.
pub fn matches_external_context(text: &str) -> bool {
    let trimmed = text.trim();
    let Some((key, value_and_close)) = trimmed
        .strip_prefix(ADDITIONAL_CONTEXT_USER.start_marker)
        .and_then(|rest| rest.split_once(ADDITIONAL_CONTEXT_USER.end_marker))
    else {
        return false;
    };
    value_and_close
        .strip_suffix(ADDITIONAL_CONTEXT_USER.end_marker)
        .and_then(|head| head.strip_suffix(key))
        .is_some_and(|head| head.ends_with("</external_"))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalContextUser {
    key: AdditionalContextKey,
    body: String,
}

impl AdditionalContextUser {
    pub fn new(key: AdditionalContextKey, value: &str, templates: &TemplateSet) -> Self {
        let value = cap_tokens(value, MAX_VALUE_TOKENS, Keep::HeadAndTail, templates);
        let body = format!("{key}>{value}</external_{key}", key = key.as_str());
        Self { key, body }
    }
}

impl ContextualUserFragment for AdditionalContextUser {
    fn role(&self) -> &'static str {
        ADDITIONAL_CONTEXT_USER.role
    }

    fn content_kind(&self) -> ContentItemKind {
        self.key.content_kind()
    }

    fn markers(&self) -> (&'static str, &'static str) {
        ADDITIONAL_CONTEXT_USER.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ADDITIONAL_CONTEXT_USER.markers()
    }

    fn matches_text(text: &str) -> bool {
        matches_external_context(text)
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
