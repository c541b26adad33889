//! `<codex_internal_context source="…">`: hidden steering an extension puts in front of the
//! model (the goal extension uses source `goal`). The source names the owner and becomes the
//! content kind `<source>.internal_context`.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::error::FragmentError;
use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

/// The start marker is the open tag without its attribute; the body begins with
/// ` source="NAME">`.
pub const INTERNAL_MODEL_CONTEXT: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "<source>.internal_context",
    start_marker: "<codex_internal_context",
    end_marker: "</codex_internal_context>",
    placement: MessagePlacement::Mergeable,
};

/// Content kinds of internal context are the source followed by this suffix.
pub const INTERNAL_CONTEXT_KIND_SUFFIX: &str = ".internal_context";
/// Tags of the goal steering that predates this fragment; old rollouts still carry them.
pub const LEGACY_GOAL_CONTEXT_MARKERS: (&str, &str) = ("<goal_context>", "</goal_context>");
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the steering text; a longer one keeps its beginning.
pub const MAX_BODY_TOKENS: usize = 9_800;

const SOURCE_ATTRIBUTE_OPEN: &str = " source=\"";
const SOURCE_ATTRIBUTE_CLOSE: &str = "\">";

fn is_valid_source(source: &str) -> bool {
    let mut chars = source.chars();
    chars.next().is_some_and(|first| first.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The owner of a piece of internal context: `[a-z][a-z0-9_]*`, so it can sit in the
/// attribute unescaped and be read back unambiguously.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InternalContextSource(String);

impl InternalContextSource {
    pub fn new(source: impl Into<String>) -> Result<Self, FragmentError> {
        let source = source.into();
        if is_valid_source(&source) {
            Ok(Self(source))
        } else {
            Err(FragmentError::InvalidInternalContextSource { name: source })
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `<codex_internal_context source="NAME">…</codex_internal_context>` with a valid NAME, or the
/// legacy `<goal_context>…</goal_context>`; case-sensitive, surrounding whitespace ignored.
pub fn matches_internal_model_context(text: &str) -> bool {
    let trimmed = text.trim();
    let (goal_start, goal_end) = LEGACY_GOAL_CONTEXT_MARKERS;
    if trimmed.starts_with(goal_start) && trimmed.ends_with(goal_end) {
        return true;
    }
    let Some((source, rest)) = trimmed
        .strip_prefix(INTERNAL_MODEL_CONTEXT.start_marker)
        .and_then(|rest| rest.strip_prefix(SOURCE_ATTRIBUTE_OPEN))
        .and_then(|rest| rest.split_once(SOURCE_ATTRIBUTE_CLOSE))
    else {
        return false;
    };
    is_valid_source(source) && rest.ends_with(INTERNAL_MODEL_CONTEXT.end_marker)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalModelContext {
    source: InternalContextSource,
    body: String,
}

impl InternalModelContext {
    pub fn new(source: InternalContextSource, text: &str, templates: &TemplateSet) -> Self {
        let text = cap_tokens(text, MAX_BODY_TOKENS, Keep::Head, templates);
        let body = format!(
            "{SOURCE_ATTRIBUTE_OPEN}{}{SOURCE_ATTRIBUTE_CLOSE}\n{text}\n",
            source.as_str()
        );
        Self {
            body: cap_rendered_body(&INTERNAL_MODEL_CONTEXT, body, MAX_TOKENS, templates),
            source,
        }
    }
}

impl ContextualUserFragment for InternalModelContext {
    fn role(&self) -> &'static str {
        INTERNAL_MODEL_CONTEXT.role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(format!(
            "{}{INTERNAL_CONTEXT_KIND_SUFFIX}",
            self.source.as_str()
        ))
    }

    fn markers(&self) -> (&'static str, &'static str) {
        INTERNAL_MODEL_CONTEXT.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        INTERNAL_MODEL_CONTEXT.markers()
    }

    fn matches_text(text: &str) -> bool {
        matches_internal_model_context(text)
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
