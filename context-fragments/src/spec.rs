//! The description every fragment kind shares (role, content kind, markers, placement) and the
//! fragment built from such a description and a body.

use codex_protocol::models::ContentItemKind;

use crate::fragment::ContextualUserFragment;
use crate::fragment::matches_marked_text;

/// What sections render: one boxed fragment, ready to be fingerprinted or turned into a
/// message content item.
pub type SectionFragment = Box<dyn ContextualUserFragment>;

/// Role of fragments addressed to the model as harness instructions.
pub const DEVELOPER_ROLE: &str = "developer";
/// Role of fragments that ride in the contextual user message (AGENTS.md, environment).
pub const USER_ROLE: &str = "user";

/// Whether a fragment may share a message with same-role neighbours in diff output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessagePlacement {
    /// May be appended as another content item of the previous same-role message.
    Mergeable,
    /// Always recorded as a message of its own.
    Separate,
}

/// Everything about one kind of fragment except its body: role, content kind, markers and
/// placement. Each fragment type and world-state section declares one constant per fragment
/// kind it emits and uses it both to render and to recognise that fragment in history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentSpec {
    pub role: &'static str,
    pub content_kind: &'static str,
    pub start_marker: &'static str,
    pub end_marker: &'static str,
    pub placement: MessagePlacement,
}

impl FragmentSpec {
    /// The fragment with this spec and `body` (which must carry any newline it wants next to
    /// the markers).
    pub fn fragment(&self, body: String) -> SectionFragment {
        Box::new(WorldStateFragment {
            role: self.role,
            content_kind: ContentItemKind::new(self.content_kind),
            markers: (self.start_marker, self.end_marker),
            body,
            placement: self.placement,
        })
    }

    /// Whether a history content item with `role` and `text` is a rendering of this spec:
    /// same role, and wrapped in the markers (ASCII case-insensitive, surrounding whitespace
    /// ignored). Unmarked specs never match.
    pub fn recognises(&self, role: &str, text: &str) -> bool {
        role == self.role && matches_marked_text(self.start_marker, self.end_marker, text)
    }

    /// The (start, end) marker pair, as [`ContextualUserFragment::markers`] returns it.
    pub fn markers(&self) -> (&'static str, &'static str) {
        (self.start_marker, self.end_marker)
    }
}

/// A fragment built from a [`FragmentSpec`] (by a world-state section) or from markers known
/// only at run time (by an extension). Its markers are chosen per instance, so the type-level
/// markers are empty and recognition goes through the sections' own matchers instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldStateFragment {
    role: &'static str,
    content_kind: ContentItemKind,
    markers: (&'static str, &'static str),
    body: String,
    placement: MessagePlacement,
}

impl WorldStateFragment {
    /// A fragment whose kind is only known at run time (extension sections).
    pub fn new(
        role: &'static str,
        content_kind: ContentItemKind,
        markers: (&'static str, &'static str),
        body: String,
        placement: MessagePlacement,
    ) -> Self {
        Self {
            role,
            content_kind,
            markers,
            body,
            placement,
        }
    }
}

impl ContextualUserFragment for WorldStateFragment {
    fn role(&self) -> &'static str {
        self.role
    }

    fn content_kind(&self) -> ContentItemKind {
        self.content_kind.clone()
    }

    fn markers(&self) -> (&'static str, &'static str) {
        self.markers
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("", "")
    }

    fn body(&self) -> String {
        self.body.clone()
    }

    fn requires_separate_message(&self) -> bool {
        match self.placement {
            MessagePlacement::Mergeable => false,
            MessagePlacement::Separate => true,
        }
    }
}

/// Implements [`ContextualUserFragment`] for a fragment struct with a rendered `body: String`
/// field, taking role, content kind, markers and placement from a [`FragmentSpec`] constant:
/// `spec_fragment!(MyFragment, MY_FRAGMENT_SPEC);`.
#[macro_export]
macro_rules! spec_fragment {
    ($fragment:ty, $spec:expr) => {
        impl $crate::ContextualUserFragment for $fragment {
            fn role(&self) -> &'static str {
                $spec.role
            }

            fn content_kind(&self) -> $crate::__private::ContentItemKind {
                $crate::__private::ContentItemKind::new($spec.content_kind)
            }

            fn markers(&self) -> (&'static str, &'static str) {
                $spec.markers()
            }

            fn type_markers() -> (&'static str, &'static str) {
                $spec.markers()
            }

            fn body(&self) -> String {
                self.body.clone()
            }

            fn requires_separate_message(&self) -> bool {
                match $spec.placement {
                    $crate::MessagePlacement::Mergeable => false,
                    $crate::MessagePlacement::Separate => true,
                }
            }
        }
    };
}
