use pretty_assertions::assert_eq;

use super::*;

fn kind(kind: &str) -> ContentItemKind {
    ContentItemKind::new(kind)
}

fn message_with(
    content: Vec<ContentItem>,
    metadata: Option<InternalChatMessageMetadataPassthrough>,
) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: Some("msg_1".to_string()),
        role: "user".to_string(),
        content,
        phase: None,
        internal_chat_message_metadata_passthrough: metadata,
    }
}

#[test]
fn accessors_expose_both_parts() {
    let mut annotated = AnnotatedContent::input_text("hello", kind("user.text"));
    assert_eq!(annotated.content(), &ContentItem::input_text("hello"));
    assert_eq!(annotated.kind(), &kind("user.text"));
    *annotated.content_mut() = ContentItem::input_text("changed");
    assert_eq!(
        annotated.into_parts(),
        (ContentItem::input_text("changed"), kind("user.text"))
    );
}

#[test]
fn rendered_fragment_parts() {
    let fragment = RenderedFragment::new(
        "developer",
        AnnotatedContent::input_text("x", kind("generic.x")),
    );
    assert_eq!(fragment.role(), "developer");
    assert_eq!(
        fragment.annotated_content(),
        &AnnotatedContent::input_text("x", kind("generic.x"))
    );
    assert_eq!(
        fragment.into_parts(),
        (
            "developer",
            AnnotatedContent::input_text("x", kind("generic.x"))
        )
    );
}

#[test]
fn to_annotated_content_zips_kinds_and_takes_them_out() {
    let mut item = message_with(
        vec![ContentItem::input_text("a"), ContentItem::input_text("b")],
        Some(InternalChatMessageMetadataPassthrough {
            turn_id: Some("turn-1".to_string()),
            content_item_kinds: Some(vec![kind("user.text"), kind("agents_md.instructions")]),
            ..Default::default()
        }),
    );
    let annotated = to_annotated_content(&mut item).unwrap();
    assert_eq!(
        annotated,
        vec![
            AnnotatedContent::input_text("a", kind("user.text")),
            AnnotatedContent::input_text("b", kind("agents_md.instructions")),
        ]
    );
    assert_eq!(
        item,
        message_with(
            Vec::new(),
            Some(InternalChatMessageMetadataPassthrough {
                turn_id: Some("turn-1".to_string()),
                ..Default::default()
            })
        )
    );
}

#[test]
fn missing_kinds_are_padded_with_unknown() {
    let mut legacy = message_with(
        vec![ContentItem::input_text("a"), ContentItem::input_text("b")],
        None,
    );
    assert_eq!(
        to_annotated_content(&mut legacy).unwrap(),
        vec![
            AnnotatedContent::input_text("a", kind("unknown")),
            AnnotatedContent::input_text("b", kind("unknown")),
        ]
    );

    let mut short = message_with(
        vec![ContentItem::input_text("a"), ContentItem::input_text("b")],
        Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(vec![kind("user.text")]),
            ..Default::default()
        }),
    );
    assert_eq!(
        to_annotated_content(&mut short).unwrap(),
        vec![
            AnnotatedContent::input_text("a", kind("user.text")),
            AnnotatedContent::input_text("b", kind("unknown")),
        ]
    );
}

#[test]
fn surplus_kinds_are_dropped() {
    let mut item = message_with(
        vec![ContentItem::input_text("a")],
        Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(vec![kind("user.text"), kind("extra")]),
            ..Default::default()
        }),
    );
    assert_eq!(
        to_annotated_content(&mut item).unwrap(),
        vec![AnnotatedContent::input_text("a", kind("user.text"))]
    );
}

#[test]
fn set_annotated_content_creates_metadata_when_absent() {
    let mut item = message_with(vec![ContentItem::input_text("old")], None);
    set_annotated_content(
        &mut item,
        vec![
            AnnotatedContent::input_text("new", kind("user.text")),
            AnnotatedContent::input_text("<x>y</x>", kind("generic.x")),
        ],
    )
    .unwrap();
    assert_eq!(
        item,
        message_with(
            vec![
                ContentItem::input_text("new"),
                ContentItem::input_text("<x>y</x>")
            ],
            Some(InternalChatMessageMetadataPassthrough {
                content_item_kinds: Some(vec![kind("user.text"), kind("generic.x")]),
                ..Default::default()
            })
        )
    );
}

#[test]
fn take_then_set_round_trips_and_keeps_other_metadata() {
    let original = message_with(
        vec![ContentItem::input_text("a")],
        Some(InternalChatMessageMetadataPassthrough {
            turn_id: Some("turn-7".to_string()),
            create_time: Some(1.5),
            content_item_kinds: Some(vec![kind("user.text")]),
        }),
    );
    let mut item = original.clone();
    let annotated = to_annotated_content(&mut item).unwrap();
    set_annotated_content(&mut item, annotated).unwrap();
    assert_eq!(item, original);
}

#[test]
fn non_messages_are_rejected_and_left_untouched() {
    let mut item = ResponseItem::Compaction {
        id: None,
        encrypted_content: "opaque".to_string(),
        internal_chat_message_metadata_passthrough: None,
    };
    let before = item.clone();
    assert_eq!(
        to_annotated_content(&mut item),
        Err(NotAMessageError {
            item_type: "compaction"
        })
    );
    assert_eq!(
        set_annotated_content(&mut item, Vec::new()),
        Err(NotAMessageError {
            item_type: "compaction"
        })
    );
    assert_eq!(item, before);
}
