use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

const fn spec(role: &'static str, kind: &'static str, placement: MessagePlacement) -> FragmentSpec {
    FragmentSpec {
        role,
        content_kind: kind,
        start_marker: "<x>",
        end_marker: "</x>",
        placement,
    }
}

const DEV: FragmentSpec = spec(DEVELOPER_ROLE, "test.dev", MessagePlacement::Mergeable);
const DEV_SEPARATE: FragmentSpec = spec(DEVELOPER_ROLE, "test.sep", MessagePlacement::Separate);
const USER: FragmentSpec = spec(USER_ROLE, "test.user", MessagePlacement::Mergeable);

fn message(role: &str, parts: &[(&str, &str)]) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: role.to_string(),
        content: parts
            .iter()
            .map(|(text, _)| ContentItem::input_text(format!("<x>{text}</x>")))
            .collect(),
        phase: None,
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(
                parts
                    .iter()
                    .map(|(_, kind)| ContentItemKind::new(*kind))
                    .collect(),
            ),
            ..InternalChatMessageMetadataPassthrough::default()
        }),
    }
}

#[test]
fn no_fragments_no_messages() {
    assert_eq!(
        merge_contextual_fragments(Vec::new()),
        Vec::<ResponseItem>::new()
    );
}

#[test]
fn consecutive_mergeable_fragments_of_one_role_share_a_message() {
    let merged = merge_contextual_fragments(vec![
        DEV.fragment("a".to_string()),
        DEV.fragment("b".to_string()),
        USER.fragment("c".to_string()),
        USER.fragment("d".to_string()),
        DEV.fragment("e".to_string()),
    ]);
    assert_eq!(
        merged,
        vec![
            message(DEVELOPER_ROLE, &[("a", "test.dev"), ("b", "test.dev")]),
            message(USER_ROLE, &[("c", "test.user"), ("d", "test.user")]),
            message(DEVELOPER_ROLE, &[("e", "test.dev")]),
        ]
    );
}

#[test]
fn separate_fragments_stand_alone_and_end_the_run() {
    let merged = merge_contextual_fragments(vec![
        DEV.fragment("a".to_string()),
        DEV_SEPARATE.fragment("s".to_string()),
        DEV.fragment("b".to_string()),
        DEV_SEPARATE.fragment("t".to_string()),
        DEV_SEPARATE.fragment("u".to_string()),
    ]);
    assert_eq!(
        merged,
        vec![
            message(DEVELOPER_ROLE, &[("a", "test.dev")]),
            message(DEVELOPER_ROLE, &[("s", "test.sep")]),
            message(DEVELOPER_ROLE, &[("b", "test.dev")]),
            message(DEVELOPER_ROLE, &[("t", "test.sep")]),
            message(DEVELOPER_ROLE, &[("u", "test.sep")]),
        ]
    );
}
