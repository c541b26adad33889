use codex_protocol::models::ContentItem;
use codex_protocol::models::ContentItemKind;
use codex_protocol::models::InternalChatMessageMetadataPassthrough;
use codex_protocol::models::ResponseItem;

/// Only messages have a content array with index-aligned kinds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a `{item_type}` item has no message content to annotate")]
pub struct NotAMessageError {
    pub item_type: &'static str,
}

/// One content item together with its harness-owned classification.
#[derive(Debug, Clone, PartialEq)]
pub struct AnnotatedContent {
    content: ContentItem,
    kind: ContentItemKind,
}

impl AnnotatedContent {
    pub fn new(content: ContentItem, kind: ContentItemKind) -> Self {
        Self { content, kind }
    }

    /// An `input_text` item of the given kind.
    pub fn input_text(text: impl Into<String>, kind: ContentItemKind) -> Self {
        Self::new(ContentItem::input_text(text), kind)
    }

    pub fn content(&self) -> &ContentItem {
        &self.content
    }

    pub fn content_mut(&mut self) -> &mut ContentItem {
        &mut self.content
    }

    pub fn kind(&self) -> &ContentItemKind {
        &self.kind
    }

    pub fn into_parts(self) -> (ContentItem, ContentItemKind) {
        (self.content, self.kind)
    }
}

/// A fragment rendered for one message: its role and its single annotated content item.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedFragment {
    role: &'static str,
    content: AnnotatedContent,
}

impl RenderedFragment {
    pub fn new(role: &'static str, content: AnnotatedContent) -> Self {
        Self { role, content }
    }

    pub fn role(&self) -> &'static str {
        self.role
    }

    pub fn annotated_content(&self) -> &AnnotatedContent {
        &self.content
    }

    pub fn into_parts(self) -> (&'static str, AnnotatedContent) {
        (self.role, self.content)
    }
}

/// A message with no id or phase, one content item, and its kind recorded in
/// `internal_chat_message_metadata_passthrough.content_item_kinds`.
impl From<RenderedFragment> for ResponseItem {
    fn from(fragment: RenderedFragment) -> Self {
        let (content, kind) = fragment.content.into_parts();
        ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: fragment.role.to_string(),
            content: vec![content],
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    content_item_kinds: Some(vec![kind]),
                    ..Default::default()
                },
            ),
        }
    }
}

/// Takes a message's content out, each item paired with its recorded kind.
///
/// The message is left with an empty content array and no kinds; put the (possibly edited)
/// items back with [`set_annotated_content`]. Items without a recorded kind (legacy or
/// persisted items, or a kinds list shorter than the content) are paired with
/// [`ContentItemKind::UNKNOWN`]; surplus kinds are dropped.
pub fn to_annotated_content(
    item: &mut ResponseItem,
) -> Result<Vec<AnnotatedContent>, NotAMessageError> {
    let ResponseItem::Message {
        content,
        internal_chat_message_metadata_passthrough: metadata,
        ..
    } = item
    else {
        return Err(NotAMessageError {
            item_type: item.item_type(),
        });
    };
    let kinds = metadata
        .as_mut()
        .and_then(|metadata| metadata.content_item_kinds.take())
        .unwrap_or_default();
    let mut kinds = kinds.into_iter();
    Ok(std::mem::take(content)
        .into_iter()
        .map(|content| {
            let kind = kinds
                .next()
                .unwrap_or_else(|| ContentItemKind::new(ContentItemKind::UNKNOWN));
            AnnotatedContent::new(content, kind)
        })
        .collect())
}

/// Replaces a message's content and its index-aligned kinds, creating the metadata object if the
/// message had none. Other metadata fields are kept.
pub fn set_annotated_content(
    item: &mut ResponseItem,
    annotated: Vec<AnnotatedContent>,
) -> Result<(), NotAMessageError> {
    let ResponseItem::Message {
        content,
        internal_chat_message_metadata_passthrough: metadata,
        ..
    } = item
    else {
        return Err(NotAMessageError {
            item_type: item.item_type(),
        });
    };
    let (items, kinds): (Vec<ContentItem>, Vec<ContentItemKind>) = annotated
        .into_iter()
        .map(AnnotatedContent::into_parts)
        .unzip();
    *content = items;
    metadata
        .get_or_insert_with(Default::default)
        .content_item_kinds = Some(kinds);
    Ok(())
}

#[cfg(test)]
#[path = "annotated_content_tests.rs"]
mod tests;
