//! Ids and metadata stamped onto items when they are recorded.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod request_support;

use codex_core::stamp_recorded_item;
use codex_protocol::ContentItem;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use pretty_assertions::assert_eq;
use request_support::seeded;
use serde_json::Value;
use serde_json::json;

const TURN: &str = "01a22b42-b080-79f2-8d96-536b3fede0a2";

fn stamped(item: ResponseItem) -> Value {
    let ids = seeded(1);
    let mut item = item;
    stamp_recorded_item(&mut item, &ids, TURN);
    serde_json::to_value(item).expect("serialize")
}

fn function_call(id: Option<&str>) -> ResponseItem {
    ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: id.map(str::to_string),
        name: "exec_command".to_string(),
        namespace: None,
        arguments: "{\"cmd\":\"ls\"}".to_string(),
        encrypted_function_args: None,
        call_id: "call-1".to_string(),
        internal_chat_message_metadata_passthrough: None,
    }
}

#[test]
fn harness_messages_get_msg_ids_turn_and_create_time() {
    for role in ["user", "developer"] {
        let item = stamped(ResponseItem::message(
            role,
            vec![ContentItem::input_text("hi")],
        ));
        assert_eq!(
            item,
            json!({
                "type": "message",
                "id": "msg_01a22b42-ae40-715c-8289-ec2d0a9167ec",
                "role": role,
                "content": [{"type": "input_text", "text": "hi"}],
                "internal_chat_message_metadata_passthrough": {
                    "turn_id": TURN,
                    "create_time": 1_796_022_120.001,
                },
            })
        );
    }
}

#[test]
fn assistant_output_keeps_the_server_id_or_none() {
    let without_id = stamped(ResponseItem::message(
        "assistant",
        vec![ContentItem::output_text("done")],
    ));
    assert_eq!(
        without_id,
        json!({
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "done"}],
            "internal_chat_message_metadata_passthrough": {"turn_id": TURN},
        })
    );
    let mut with_id = ResponseItem::message("assistant", vec![ContentItem::output_text("done")]);
    if let ResponseItem::Message { id, .. } = &mut with_id {
        *id = Some("msg_server".to_string());
    }
    assert_eq!(stamped(with_id)["id"], json!("msg_server"));
}

#[test]
fn tool_calls_get_fc_ids_and_outputs_get_fco_ids() {
    assert_eq!(
        stamped(function_call(None)),
        json!({
            "type": "function_call",
            "id": "fc_01a22b42-ae40-715c-8289-ec2d0a9167ec",
            "name": "exec_command",
            "arguments": "{\"cmd\":\"ls\"}",
            "call_id": "call-1",
            "internal_chat_message_metadata_passthrough": {"turn_id": TURN},
        })
    );
    assert_eq!(
        stamped(function_call(Some("fc_server")))["id"],
        json!("fc_server")
    );

    let output = stamped(ResponseItem::FunctionCallOutput {
        id: None,
        call_id: Some("call-1".to_string()),
        name: None,
        namespace: None,
        output: FunctionCallOutputPayload::from_text("ok"),
        internal_chat_message_metadata_passthrough: None,
    });
    assert_eq!(
        output,
        json!({
            "type": "function_call_output",
            "id": "fco_01a22b42-ae40-715c-8289-ec2d0a9167ec",
            "call_id": "call-1",
            "output": "ok",
            "internal_chat_message_metadata_passthrough": {
                "turn_id": TURN,
                "create_time": 1_796_022_120.001,
            },
        })
    );
}

#[test]
fn stamping_twice_changes_nothing() {
    let ids = seeded(9);
    let mut item = ResponseItem::message("user", vec![ContentItem::input_text("hi")]);
    stamp_recorded_item(&mut item, &ids, TURN);
    let once = item.clone();
    stamp_recorded_item(&mut item, &ids, "another-turn");
    assert_eq!(item, once);
}

#[test]
fn raw_items_of_unknown_types_are_left_alone() {
    let raw = json!({"type": "future_item", "payload": 1});
    let item: ResponseItem = serde_json::from_value(raw.clone()).expect("parse");
    assert_eq!(stamped(item), raw);
}
