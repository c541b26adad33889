use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

/// Parses `literal` as `ResponseItem`, writes it back and checks the bytes (key order included)
/// equal the literal's compact form.
fn assert_item_round_trips(literal: &str) -> ResponseItem {
    let item: ResponseItem = serde_json::from_str(literal).unwrap();
    let expected: serde_json::Value = serde_json::from_str(literal).unwrap();
    assert_eq!(
        serde_json::to_string(&item).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
    item
}

#[test]
fn message_with_id_and_metadata_round_trips_in_wire_order() {
    let item = assert_item_round_trips(
        r#"{"type":"message","id":"msg_1","role":"developer","content":[{"type":"input_text","text":"hi"}],
            "internal_chat_message_metadata_passthrough":{"turn_id":"t1","create_time":1796022124.6691008}}"#,
    );
    assert_eq!(
        item,
        ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: Some("msg_1".to_string()),
            role: "developer".to_string(),
            content: vec![ContentItem::input_text("hi")],
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    turn_id: Some("t1".to_string()),
                    create_time: Some(1_796_022_124.669_100_8),
                    content_item_kinds: None,
                }
            ),
        }
    );
    assert_eq!(item.turn_id(), Some("t1"));
    assert_eq!(item.id(), Some("msg_1"));
    assert_eq!(item.item_type(), "message");
}

#[test]
fn message_with_every_optional_field_round_trips() {
    assert_item_round_trips(
        r#"{"type":"message","encrypted_content":"enc","status":"completed","id":"msg_2","role":"assistant",
            "content":[{"type":"output_text","text":"done","annotations":[],"logprobs":[{"token":"d","logprob":-0.5}]}],
            "phase":"final_answer",
            "internal_chat_message_metadata_passthrough":{"turn_id":"t","content_item_kinds":["agent_text"]}}"#,
    );
}

#[test]
fn constructed_message_omits_every_none_field() {
    let item = ResponseItem::message("user", vec![ContentItem::input_text("hello")]);
    assert_eq!(
        serde_json::to_string(&item).unwrap(),
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}"#
    );
    assert!(item.is_user_message());
    assert_eq!(item.turn_id(), None);
}

#[test]
fn content_items_round_trip() {
    let literal = json!([
        {"type": "input_text", "text": "a"},
        {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "high"},
        {"type": "input_image", "file_id": "file_1"},
        {"type": "input_audio", "audio_url": "data:audio/wav;base64,AAAA"},
        {"type": "output_text", "text": "b"},
        {"type": "future_part", "payload": {"x": [1, 2]}}
    ]);
    let items: Vec<ContentItem> = serde_json::from_value(literal.clone()).unwrap();
    assert_eq!(
        items,
        vec![
            ContentItem::input_text("a"),
            ContentItem::InputImage {
                image: ImageReference::Inline {
                    image_url: "data:image/png;base64,AAAA".to_string()
                },
                detail: Some(ImageDetail::High),
            },
            ContentItem::InputImage {
                image: ImageReference::File {
                    file_id: "file_1".to_string()
                },
                detail: None,
            },
            ContentItem::InputAudio {
                audio_url: "data:audio/wav;base64,AAAA".to_string()
            },
            ContentItem::output_text("b"),
            ContentItem::Other(json!({"type": "future_part", "payload": {"x": [1, 2]}})),
        ]
    );
    assert_eq!(serde_json::to_value(&items).unwrap(), literal);
}

#[test]
fn malformed_known_content_item_is_an_error() {
    let result = serde_json::from_value::<ContentItem>(json!({"type": "input_text"}));
    assert!(result.is_err());
}

#[test]
fn reasoning_keeps_raw_reasoning_text_and_null_encrypted_content() {
    assert_item_round_trips(
        r#"{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}],
            "content":[{"type":"reasoning_text","text":"raw"}],"encrypted_content":null}"#,
    );
}

#[test]
fn reasoning_drops_text_only_content_on_output() {
    let item: ResponseItem = serde_json::from_value(json!({
        "type": "reasoning", "summary": [], "content": [{"type": "text", "text": "t"}]
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_string(&item).unwrap(),
        r#"{"type":"reasoning","summary":[],"encrypted_content":null}"#
    );
}

#[test]
fn function_call_and_outputs_round_trip() {
    assert_item_round_trips(
        r#"{"type":"function_call","id":"fc_1","name":"spawn_agent","namespace":"multi_agent_v1",
            "arguments":"{\"fork_context\":true}","call_id":"call-1",
            "internal_chat_message_metadata_passthrough":{"turn_id":"t"}}"#,
    );
    let text_output = assert_item_round_trips(
        r#"{"type":"function_call_output","id":"fco_1","call_id":"call-1","output":"{\"ok\":true}"}"#,
    );
    let ResponseItem::FunctionCallOutput { output, .. } = text_output else {
        panic!("expected function_call_output");
    };
    assert_eq!(
        output,
        FunctionCallOutputPayload::from_text("{\"ok\":true}")
    );

    let items_output = assert_item_round_trips(
        r#"{"type":"function_call_output","call_id":"call-2","output":[
            {"type":"input_text","text":"line"},{"type":"input_image","image_url":"u","detail":"original"},
            {"type":"encrypted_content","encrypted_content":"e"}]}"#,
    );
    let ResponseItem::FunctionCallOutput { output, .. } = items_output else {
        panic!("expected function_call_output");
    };
    assert_eq!(output.text(), Some("line".to_string()));
}

#[test]
fn custom_tool_call_pair_round_trips() {
    assert_item_round_trips(
        r#"{"type":"custom_tool_call","status":"completed","call_id":"c","name":"apply_patch","input":"*** Begin Patch"}"#,
    );
    assert_item_round_trips(
        r#"{"type":"custom_tool_call_output","call_id":"c","name":"apply_patch","output":"Done"}"#,
    );
}

#[test]
fn local_shell_call_writes_null_inner_fields() {
    assert_item_round_trips(
        r#"{"type":"local_shell_call","call_id":null,"status":"in_progress",
            "action":{"type":"exec","command":["ls"],"timeout_ms":null,"working_directory":null,"env":null,"user":null}}"#,
    );
}

#[test]
fn web_search_call_round_trips_all_actions() {
    assert_item_round_trips(
        r#"{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"q","queries":["q","r"]}}"#,
    );
    assert_item_round_trips(
        r#"{"type":"web_search_call","action":{"type":"open_page","url":"https://example.com"}}"#,
    );
    assert_item_round_trips(
        r#"{"type":"web_search_call","action":{"type":"find_in_page","url":"u","pattern":"p"}}"#,
    );
    assert_item_round_trips(r#"{"type":"web_search_call","action":{"type":"screenshot","x":1}}"#);
}

#[test]
fn compaction_accepts_legacy_alias_and_writes_current_tag() {
    assert_item_round_trips(r#"{"type":"compaction","id":"cmp_1","encrypted_content":"blob"}"#);
    let legacy: ResponseItem =
        serde_json::from_str(r#"{"type":"compaction_summary","encrypted_content":"blob"}"#)
            .unwrap();
    assert_eq!(
        serde_json::to_string(&legacy).unwrap(),
        r#"{"type":"compaction","encrypted_content":"blob"}"#
    );
}

#[test]
fn additional_tools_keep_raw_tool_json() {
    let item = assert_item_round_trips(
        r#"{"type":"additional_tools","role":"developer","tools":[{"type":"function","name":"x","parameters":{"type":"object"}}]}"#,
    );
    assert_eq!(item.metadata(), None);
}

#[test]
fn unknown_item_type_is_kept_verbatim() {
    let item = assert_item_round_trips(
        r#"{"type":"image_generation_call","id":"ig_1","status":"completed","result":"AAAA","z":[1,{"b":2}]}"#,
    );
    assert_eq!(item.item_type(), "other");
    assert_eq!(item.id(), None);
}

#[test]
fn malformed_known_item_or_missing_tag_is_an_error() {
    assert!(serde_json::from_value::<ResponseItem>(json!({"type": "message", "role": 1})).is_err());
    assert!(serde_json::from_value::<ResponseItem>(json!({"role": "user"})).is_err());
    assert!(serde_json::from_value::<ResponseItem>(json!("message")).is_err());
}

#[test]
fn content_item_kinds_round_trip_open_values() {
    let item = assert_item_round_trips(
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}],
            "internal_chat_message_metadata_passthrough":{"content_item_kinds":["future_content_kind"]}}"#,
    );
    assert_eq!(
        item.content_item_kinds(),
        Some(&[ContentItemKind::new("future_content_kind")][..])
    );
}

#[test]
fn malformed_content_item_kinds_degrade_to_absent() {
    for malformed in [
        json!("user_text"),
        json!({"kind": "user_text"}),
        json!(["user_text", 123]),
    ] {
        let item: ResponseItem = serde_json::from_value(json!({
            "type": "message",
            "role": "user",
            "content": [],
            "internal_chat_message_metadata_passthrough": {
                "turn_id": "t",
                "content_item_kinds": malformed,
                "executed_tool_calls": [1]
            }
        }))
        .unwrap();
        assert_eq!(
            item.metadata(),
            Some(&InternalChatMessageMetadataPassthrough {
                turn_id: Some("t".to_string()),
                create_time: None,
                content_item_kinds: None,
            })
        );
    }
}

#[test]
fn set_turn_id_if_missing_only_fills_gaps() {
    let mut item = ResponseItem::message("user", Vec::new());
    item.set_turn_id_if_missing("");
    assert_eq!(item.metadata(), None);
    item.set_turn_id_if_missing("t1");
    item.set_turn_id_if_missing("t2");
    assert_eq!(item.turn_id(), Some("t1"));

    let mut tools = ResponseItem::AdditionalTools {
        id: None,
        role: "developer".to_string(),
        tools: Vec::new(),
    };
    tools.set_turn_id_if_missing("t1");
    assert_eq!(tools.turn_id(), None);
}

#[test]
fn base_instructions_provenance_shapes() {
    let model = BaseInstructions {
        text: "You are Codex.".to_string(),
        provenance: Some(BaseInstructionsProvenance::Model {
            model: "gpt-5.5".to_string(),
        }),
    };
    assert_eq!(
        serde_json::to_string(&model).unwrap(),
        r#"{"text":"You are Codex.","provenance":{"type":"model","model":"gpt-5.5"}}"#
    );
    let custom: BaseInstructions =
        serde_json::from_str(r#"{"text":"t","provenance":{"type":"custom"}}"#).unwrap();
    assert_eq!(custom.provenance, Some(BaseInstructionsProvenance::Custom));
    let legacy: BaseInstructions = serde_json::from_str(r#"{"text":"t"}"#).unwrap();
    assert_eq!(serde_json::to_string(&legacy).unwrap(), r#"{"text":"t"}"#);
}
