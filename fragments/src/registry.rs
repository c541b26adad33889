//! The registry of every fragment type a Codex session can put into history: this crate's
//! fragment types, the world-state sections' fragments ([`sections`](crate::sections)),
//! extension and protocol fragments, and historical types that only old rollouts contain.
//!
//! Each entry points at its type's [`FragmentSpec`] (role, content kind, markers, placement)
//! rather than repeating it, and adds how text is recognised, whether upstream hides it as
//! injected context, where it comes from and its size cap. Everything that tells injected
//! context apart from what people wrote is derived from this table: the contextual-user
//! recogniser list ([`contextual_user_fragment_types`]), the contextual-developer prefixes
//! ([`contextual_developer_prefixes`]), the per-item verdicts
//! ([`is_user_turn_boundary`](crate::is_user_turn_boundary) and its neighbours) that sessions,
//! history and rollouts use, and the classifier used by `inspect` and `compare` ([`classify`]).
//! Adding a fragment type means adding one row here.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::matches_marked_text;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;

use crate::legacy_warnings::LegacyWarning;

mod table;

use table::FRAGMENT_TYPES;

/// Prefix of the content kinds of text people wrote; such items are never fragments.
pub const USER_CONTENT_KIND_PREFIX: &str = "user.";
/// Content kind of text the user typed (under [`USER_CONTENT_KIND_PREFIX`]).
pub const USER_TEXT_KIND: &str = "user.text";

/// A message the user typed, annotated as [`USER_TEXT_KIND`] so it is never mistaken for
/// injected context, however much it looks like a fragment.
pub fn user_text_message(text: impl Into<String>) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: USER_ROLE.to_string(),
        content: vec![ContentItem::input_text(text)],
        phase: None,
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(vec![ContentItemKind::new(USER_TEXT_KIND)]),
            ..InternalChatMessageMetadataPassthrough::default()
        }),
    }
}

/// How text of a fragment type is recognised.
#[derive(Debug, Clone, Copy)]
pub enum Recognition {
    /// Wrapped in the spec's markers: ASCII case-insensitive, surrounding whitespace ignored
    /// ([`matches_marked_text`]).
    Markers,
    /// Starts with this text after leading whitespace, ASCII case-insensitive.
    Prefix(&'static str),
    /// The trimmed text starts with `prefix` and ends with `suffix`, case-sensitive (an empty
    /// suffix accepts any ending).
    ExactPrefixSuffix {
        prefix: &'static str,
        suffix: &'static str,
    },
    /// A rule of the type's own (the same function its `matches_text` uses).
    Custom(fn(&str) -> bool),
    /// Unmarked: only a recorded content kind identifies it.
    ContentKindOnly,
}

/// Whether upstream hides the type as injected context, and through which list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextualList {
    /// Listed among the contextual user-fragment matchers: a user message containing it is
    /// not something the user typed.
    User,
    /// Its start is one of the contextual developer prefixes.
    Developer,
    /// Neither: the text stays visible as ordinary conversation.
    NotListed,
}

/// What produces the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FragmentOrigin {
    /// A fragment type of this crate (one of its modules).
    Fragment,
    /// The world-state section with this ID.
    WorldStateSection(&'static str),
    /// An extension's world-state contribution with this section ID.
    Extension(&'static str),
    /// The protocol layer (rendered outside the fragment trait).
    Protocol,
    /// Upstream no longer produces it; only old rollouts contain it.
    Historical,
}

/// The largest rendering of the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeCap {
    /// At most this many o200k tokens, markers included.
    Tokens(usize),
    /// Bounded by its world-state section.
    OwnedBySection,
    /// Never rendered by this project.
    NotRendered,
}

/// The content kinds a type is recorded with, read from its spec: `<…>` stands for a
/// per-instance part (`additional_content.<key>`, `<source>.internal_context`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKindPattern {
    Exact(&'static str),
    /// The kind is this prefix followed by a non-empty instance part.
    Prefix(&'static str),
    /// The kind is a non-empty instance part followed by this suffix.
    Suffix(&'static str),
    /// No kind is known for the type (it predates content kinds).
    Unassigned,
}

impl ContentKindPattern {
    pub fn matches(self, kind: &str) -> bool {
        match self {
            Self::Exact(expected) => kind == expected,
            Self::Prefix(prefix) => kind.len() > prefix.len() && kind.starts_with(prefix),
            Self::Suffix(suffix) => kind.len() > suffix.len() && kind.ends_with(suffix),
            Self::Unassigned => false,
        }
    }
}

/// One fragment type.
#[derive(Debug, Clone, Copy)]
pub struct FragmentTypeInfo {
    /// Stable name (the module name for [`FragmentOrigin::Fragment`] types).
    pub name: &'static str,
    pub spec: FragmentSpec,
    pub recognition: Recognition,
    pub contextual: ContextualList,
    pub origin: FragmentOrigin,
    pub cap: SizeCap,
}

impl FragmentTypeInfo {
    /// A type of this project's `fragments` module; marked types are recognised by their
    /// markers, unmarked ones by their kind only.
    const fn fragment(name: &'static str, spec: FragmentSpec, max_tokens: usize) -> Self {
        let recognition = if spec.start_marker.is_empty() || spec.end_marker.is_empty() {
            Recognition::ContentKindOnly
        } else {
            Recognition::Markers
        };
        Self {
            name,
            spec,
            recognition,
            contextual: ContextualList::NotListed,
            origin: FragmentOrigin::Fragment,
            cap: SizeCap::Tokens(max_tokens),
        }
    }

    const fn section(name: &'static str, spec: FragmentSpec, section_id: &'static str) -> Self {
        Self {
            origin: FragmentOrigin::WorldStateSection(section_id),
            cap: SizeCap::OwnedBySection,
            ..Self::fragment(name, spec, 0)
        }
    }

    const fn historical(name: &'static str, spec: FragmentSpec) -> Self {
        Self {
            origin: FragmentOrigin::Historical,
            cap: SizeCap::NotRendered,
            ..Self::fragment(name, spec, 0)
        }
    }

    /// A historical unmarked warning, recognised by how its text began and ended.
    const fn legacy_warning(name: &'static str, warning: LegacyWarning) -> Self {
        Self::historical(name, warning.spec).recognised_by(Recognition::ExactPrefixSuffix {
            prefix: warning.prefix,
            suffix: warning.suffix,
        })
    }

    const fn listed(self, contextual: ContextualList) -> Self {
        Self { contextual, ..self }
    }

    const fn recognised_by(self, recognition: Recognition) -> Self {
        Self {
            recognition,
            ..self
        }
    }

    const fn produced_by(self, origin: FragmentOrigin) -> Self {
        Self { origin, ..self }
    }

    pub fn role(&self) -> &'static str {
        self.spec.role
    }

    pub fn content_kind(&self) -> ContentKindPattern {
        let kind = self.spec.content_kind;
        if kind.is_empty() {
            return ContentKindPattern::Unassigned;
        }
        if kind.starts_with('<')
            && let Some((_, suffix)) = kind.split_once('>')
        {
            return ContentKindPattern::Suffix(suffix);
        }
        if kind.ends_with('>')
            && let Some((prefix, _)) = kind.split_once('<')
        {
            return ContentKindPattern::Prefix(prefix);
        }
        ContentKindPattern::Exact(kind)
    }

    /// Whether `text` is a rendering of this type (role not checked).
    pub fn matches_text(&self, text: &str) -> bool {
        match self.recognition {
            Recognition::Markers => {
                matches_marked_text(self.spec.start_marker, self.spec.end_marker, text)
            }
            Recognition::Prefix(prefix) => starts_with_ignore_ascii_case(text, prefix),
            Recognition::ExactPrefixSuffix { prefix, suffix } => {
                let trimmed = text.trim();
                trimmed.starts_with(prefix) && trimmed.ends_with(suffix)
            }
            Recognition::Custom(rule) => rule(text),
            Recognition::ContentKindOnly => false,
        }
    }

    /// Whether upstream hides `text` as injected context because of this type: a
    /// [`ContextualList::User`] type by its text rule, a [`ContextualList::Developer`] type by
    /// its prefix (role not checked).
    pub fn hides_text(&self, text: &str) -> bool {
        match self.contextual {
            ContextualList::User => self.matches_text(text),
            ContextualList::Developer => self
                .contextual_developer_prefix()
                .is_some_and(|prefix| starts_with_ignore_ascii_case(text, prefix)),
            ContextualList::NotListed => false,
        }
    }

    /// Whether an item recorded with content kind `kind` is injected context of this type
    /// (role not checked).
    pub fn hides_kind(&self, kind: &str) -> bool {
        match self.contextual {
            ContextualList::User | ContextualList::Developer => self.content_kind().matches(kind),
            ContextualList::NotListed => false,
        }
    }

    /// The prefix upstream hides developer text by, for [`ContextualList::Developer`] types.
    pub fn contextual_developer_prefix(&self) -> Option<&'static str> {
        match self.contextual {
            ContextualList::Developer => match self.recognition {
                Recognition::Prefix(prefix) | Recognition::ExactPrefixSuffix { prefix, .. } => {
                    Some(prefix)
                }
                Recognition::Markers => Some(self.spec.start_marker.trim_end()),
                Recognition::Custom(_) | Recognition::ContentKindOnly => None,
            },
            ContextualList::User | ContextualList::NotListed => None,
        }
    }
}

fn starts_with_ignore_ascii_case(text: &str, prefix: &str) -> bool {
    text.trim_start()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// Every fragment type, in registry order.
pub fn all_fragment_types() -> &'static [FragmentTypeInfo] {
    FRAGMENT_TYPES
}

/// The type registered under `name`.
pub fn fragment_type(name: &str) -> Option<&'static FragmentTypeInfo> {
    FRAGMENT_TYPES.iter().find(|info| info.name == name)
}

/// The fragment type of one content item of a `role` message, or `None` when it is ordinary
/// conversation.
///
/// A recorded content kind decides first, because it cannot be forged by typing: a `user.*`
/// kind is never a fragment, and a known kind names its type (an exact kind before a
/// per-instance pattern). An empty, `unknown` or unregistered kind falls back to the text,
/// matched against the types of `role` in registry order. Text alone cannot tell apart types
/// that share markers (the three `<realtime_conversation>` blocks): the first one is returned.
pub fn classify(role: &str, text: &str, kind: Option<&str>) -> Option<&'static FragmentTypeInfo> {
    let recorded_kind = kind.filter(|kind| !kind.is_empty() && *kind != ContentItemKind::UNKNOWN);
    if let Some(kind) = recorded_kind {
        if kind.starts_with(USER_CONTENT_KIND_PREFIX) {
            return None;
        }
        let same_role = || FRAGMENT_TYPES.iter().filter(|info| info.role() == role);
        let by_kind = same_role()
            .find(|info| matches!(info.content_kind(), ContentKindPattern::Exact(exact) if exact == kind))
            .or_else(|| same_role().find(|info| info.content_kind().matches(kind)));
        if by_kind.is_some() {
            return by_kind;
        }
    }
    FRAGMENT_TYPES
        .iter()
        .find(|info| info.role() == role && info.matches_text(text))
}

/// The message roles fragments are sent under, without duplicates, in registry order.
pub fn fragment_roles() -> Vec<&'static str> {
    let mut roles: Vec<&'static str> = Vec::new();
    for role in FRAGMENT_TYPES.iter().map(FragmentTypeInfo::role) {
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    roles
}

/// The types upstream hides in user messages, in its recogniser order.
pub fn contextual_user_fragment_types() -> impl Iterator<Item = &'static FragmentTypeInfo> {
    FRAGMENT_TYPES
        .iter()
        .filter(|info| info.contextual == ContextualList::User)
}

/// The prefixes upstream hides developer text by, without duplicates, in registry order.
pub fn contextual_developer_prefixes() -> Vec<&'static str> {
    let mut prefixes: Vec<&'static str> = Vec::new();
    for prefix in FRAGMENT_TYPES
        .iter()
        .filter_map(FragmentTypeInfo::contextual_developer_prefix)
    {
        if !prefixes.contains(&prefix) {
            prefixes.push(prefix);
        }
    }
    prefixes
}
