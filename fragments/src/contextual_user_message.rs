//! Telling context the harness injected apart from what the user (or a configuration author)
//! wrote, item by item: used to find user-turn boundaries, to keep injected context out of
//! compacted history and to trim context updates on rollback.
//!
//! Every verdict is derived from the [fragment registry](crate::all_fragment_types): a type
//! hides its items when its row lists it as contextual, by the role, content kind and text rule
//! of that row. A content item is judged by its recorded kind when the message carries a
//! complete `content_item_kinds` list, because a kind cannot be forged by typing: a user who
//! pastes `<environment_context>…` produces a [`USER_TEXT_KIND`](crate::USER_TEXT_KIND) item,
//! which is never context. Items without a usable kind (legacy and upstream rollouts) fall back
//! to the text rule.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::USER_ROLE;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::ResponseItem;

use crate::USER_CONTENT_KIND_PREFIX;
use crate::all_fragment_types;
use crate::compaction_summary::COMPACTION_SUMMARY;
use crate::compaction_summary::UPSTREAM_SUMMARY_PREFIX;

/// Whether `text`, sent under `role`, looks like injected context (text rule only).
pub fn is_contextual_text(role: &str, text: &str) -> bool {
    all_fragment_types()
        .iter()
        .any(|info| info.role() == role && info.hides_text(text))
}

/// What a recorded content kind says about its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KindVerdict {
    /// No usable kind: decide by text.
    Undecided,
    Contextual,
    NotContextual,
}

fn kind_verdict(role: &str, kind: Option<&ContentItemKind>) -> KindVerdict {
    let Some(kind) = kind.map(ContentItemKind::as_str) else {
        return KindVerdict::Undecided;
    };
    if kind.is_empty() || kind == ContentItemKind::UNKNOWN {
        return KindVerdict::Undecided;
    }
    if kind.starts_with(USER_CONTENT_KIND_PREFIX) {
        return KindVerdict::NotContextual;
    }
    let listed = all_fragment_types()
        .iter()
        .any(|info| info.role() == role && info.hides_kind(kind));
    if listed {
        KindVerdict::Contextual
    } else {
        KindVerdict::NotContextual
    }
}

/// Whether one content item of a `role` message is injected context: its recorded kind decides
/// when there is one, its text otherwise. Only `input_text` items can be context.
pub fn is_contextual_content(
    role: &str,
    content: &ContentItem,
    kind: Option<&ContentItemKind>,
) -> bool {
    let ContentItem::InputText { text } = content else {
        return false;
    };
    match kind_verdict(role, kind) {
        KindVerdict::Contextual => true,
        KindVerdict::NotContextual => false,
        KindVerdict::Undecided => is_contextual_text(role, text),
    }
}

/// Each content item of a message with its recorded kind. Kinds are used only when the list is
/// complete (one per content item); a partial list cannot be aligned safely.
fn annotated_items<'a>(
    content: &'a [ContentItem],
    kinds: Option<&'a [ContentItemKind]>,
) -> impl Iterator<Item = (&'a ContentItem, Option<&'a ContentItemKind>)> {
    let kinds = kinds.filter(|kinds| kinds.len() == content.len());
    content
        .iter()
        .enumerate()
        .map(move |(index, item)| (item, kinds.and_then(|kinds| kinds.get(index))))
}

/// Per content item of a `role` message: whether it is injected context. `None` for items that
/// are not messages of that role.
fn contextual_flags<'a>(
    item: &'a ResponseItem,
    wanted_role: &'a str,
) -> Option<impl Iterator<Item = bool> + 'a> {
    let ResponseItem::Message { role, content, .. } = item else {
        return None;
    };
    if role != wanted_role {
        return None;
    }
    Some(
        annotated_items(content, item.content_item_kinds())
            .map(move |(content, kind)| is_contextual_content(wanted_role, content, kind)),
    )
}

/// A `user` message holding injected context: one injected part makes the whole message
/// contextual, as upstream decides.
pub fn is_contextual_user_message(item: &ResponseItem) -> bool {
    contextual_flags(item, USER_ROLE).is_some_and(|mut flags| flags.any(|flag| flag))
}

/// A `developer` message with at least one injected-context part.
pub fn is_contextual_developer_message(item: &ResponseItem) -> bool {
    contextual_flags(item, DEVELOPER_ROLE).is_some_and(|mut flags| flags.any(|flag| flag))
}

/// A `developer` message with at least one part that is not injected context (for example
/// configured developer instructions bundled with the initial context).
pub fn has_non_contextual_developer_content(item: &ResponseItem) -> bool {
    contextual_flags(item, DEVELOPER_ROLE).is_some_and(|mut flags| flags.any(|flag| !flag))
}

/// A context update the harness recorded before a turn: a contextual developer or user message.
pub fn is_context_update(item: &ResponseItem) -> bool {
    is_contextual_developer_message(item) || is_contextual_user_message(item)
}

/// A `user` message the user wrote, which starts a user turn.
pub fn is_user_turn_boundary(item: &ResponseItem) -> bool {
    item.is_user_message() && !is_contextual_user_message(item)
}

/// A compaction summary message: recorded with the summary kind, or (without kinds) a user
/// message whose first text starts with `own_prefix` or upstream's prefix, then a newline.
pub fn is_compaction_summary(item: &ResponseItem, own_prefix: &str) -> bool {
    let ResponseItem::Message { role, content, .. } = item else {
        return false;
    };
    if role != USER_ROLE {
        return false;
    }
    let mut items = annotated_items(content, item.content_item_kinds());
    let Some((first, kind)) = items.next() else {
        return false;
    };
    let kind = kind
        .map(ContentItemKind::as_str)
        .filter(|kind| !kind.is_empty() && *kind != ContentItemKind::UNKNOWN);
    if let Some(kind) = kind {
        return kind == COMPACTION_SUMMARY.content_kind;
    }
    let ContentItem::InputText { text } = first else {
        return false;
    };
    [own_prefix, UPSTREAM_SUMMARY_PREFIX]
        .iter()
        .filter(|prefix| !prefix.is_empty())
        .any(|prefix| {
            text.strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('\n'))
        })
}

#[cfg(test)]
#[path = "contextual_user_message_tests.rs"]
mod tests;
