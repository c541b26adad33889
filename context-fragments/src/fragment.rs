use codex_protocol::models::ContentItemKind;
use codex_protocol::models::ResponseItem;

use crate::annotated_content::AnnotatedContent;
use crate::annotated_content::RenderedFragment;

/// A piece of harness-authored context that is shown to the model as (part of) a message.
///
/// Implementations must guarantee:
/// - determinism: `role`, `content_kind`, `markers` and `body` depend only on the value, so the
///   same value always renders the same bytes (world-state fingerprints and diffs rely on it);
/// - `role` is one of the message roles the model understands (`"user"`, `"developer"` or
///   `"assistant"`);
/// - `content_kind` is a stable `<feature>.<name>` string (`generic` as the feature for
///   fragments shared across features), never `user.*`, which is reserved for text the user
///   typed;
/// - `body` carries every newline or space the rendering needs next to the markers, because
///   [`render`](Self::render) concatenates without a separator;
/// - a fragment with non-empty `type_markers` renders text that its own
///   [`matches_text`](Self::matches_text) recognises, so it can be told apart from real user
///   text when history is read back;
/// - `markers` equals `type_markers` unless the instance is deliberately rendered unmarked or
///   with markers only known at runtime.
///
/// The trait is object safe; everything that needs `Self: Sized` is marked so.
pub trait ContextualUserFragment: Send + Sync {
    /// The message role this fragment is sent under.
    fn role(&self) -> &'static str;

    /// Harness-owned `<feature>.<name>` classification recorded beside the content item.
    fn content_kind(&self) -> ContentItemKind;

    /// Start and end markers used when rendering this instance.
    fn markers(&self) -> (&'static str, &'static str);

    /// Start and end markers used to recognise this fragment type in history text.
    fn type_markers() -> (&'static str, &'static str)
    where
        Self: Sized;

    /// The exact text placed between the markers.
    fn body(&self) -> String;

    /// Whether this fragment must be recorded as its own message rather than joined with its
    /// neighbours.
    fn requires_separate_message(&self) -> bool {
        false
    }

    /// Whether `text` looks like a rendering of this fragment type, judged only by
    /// [`type_markers`](Self::type_markers) (see [`matches_marked_text`]).
    fn matches_text(text: &str) -> bool
    where
        Self: Sized,
    {
        let (start, end) = Self::type_markers();
        matches_marked_text(start, end, text)
    }

    /// Start marker, body and end marker joined with no separator; the body alone when both
    /// markers are empty.
    fn render(&self) -> String {
        let (start, end) = self.markers();
        let body = self.body();
        if start.is_empty() && end.is_empty() {
            return body;
        }
        let mut rendered = String::with_capacity(start.len() + body.len() + end.len());
        rendered.push_str(start);
        rendered.push_str(&body);
        rendered.push_str(end);
        rendered
    }

    /// The rendered text as one annotated `input_text` item under this fragment's role.
    fn render_fragment(&self) -> RenderedFragment {
        RenderedFragment::new(
            self.role(),
            AnnotatedContent::input_text(self.render(), self.content_kind()),
        )
    }

    /// A one-item message carrying the rendered text and its content kind.
    fn into_response_item(self) -> ResponseItem
    where
        Self: Sized,
    {
        ResponseItem::from(self.render_fragment())
    }

    /// [`into_response_item`](Self::into_response_item) for boxed trait objects.
    fn into_boxed_response_item(self: Box<Self>) -> ResponseItem {
        ResponseItem::from(self.render_fragment())
    }
}

/// Whether `text` is wrapped in `start` … `end`.
///
/// Both markers must be non-empty: an unmarked fragment never claims arbitrary text. Leading
/// whitespace is ignored before comparing the start marker and trailing whitespace before
/// comparing the end marker; both comparisons fold ASCII case only. Nothing between the
/// markers is inspected. Text that is too short, or whose marker-sized slice would split a
/// multi-byte character, does not match.
pub fn matches_marked_text(start: &str, end: &str, text: &str) -> bool {
    if start.is_empty() || end.is_empty() {
        return false;
    }
    let starts_with_marker = text
        .trim_start()
        .get(..start.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(start));
    let trimmed_end = text.trim_end();
    let ends_with_marker = trimmed_end
        .len()
        .checked_sub(end.len())
        .and_then(|offset| trimmed_end.get(offset..))
        .is_some_and(|tail| tail.eq_ignore_ascii_case(end));
    starts_with_marker && ends_with_marker
}

#[cfg(test)]
#[path = "fragment_tests.rs"]
mod tests;
