use codex_protocol::ContentItem;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn message(id: &str, role: &str, text: &str) -> ResponseItem {
    let mut item = ResponseItem::message(role, vec![ContentItem::input_text(text)]);
    if let ResponseItem::Message { id: slot, .. } = &mut item {
        *slot = Some(id.to_string());
    }
    item
}

fn function_call() -> ResponseItem {
    serde_json::from_value(json!({
        "type": "function_call", "id": "fc_1", "name": "exec_command",
        "arguments": "{}", "call_id": "call_1"
    }))
    .expect("function call")
}

fn function_call_output() -> ResponseItem {
    serde_json::from_value(json!({
        "type": "function_call_output", "id": "fco_1", "call_id": "call_1", "output": "hi"
    }))
    .expect("function call output")
}

#[test]
fn a_tool_round_trip_is_numbered_as_the_release_numbers_it() {
    let mut sequence = HistorySequence::default();
    let harness = ItemOrigin::Harness {
        truncation_limit: 10_000,
    };
    let mut revisions = 0;
    let mut revision = || {
        revisions += 1;
        format!("r{revisions}")
    };
    let context = sequence.next(
        &message("m1", "developer", "<permissions instructions>"),
        harness,
        "t",
        &mut revision,
    );
    let user = sequence.next(
        &message("m2", "user", "say hi"),
        ItemOrigin::User,
        "t",
        &mut revision,
    );
    sequence.sampled();
    let call = sequence.next(&function_call(), ItemOrigin::Model, "t", &mut revision);
    let output = sequence.next(&function_call_output(), harness, "t", &mut revision);
    sequence.sampled();
    let answer = sequence.next(
        &message("m3", "assistant", "Done."),
        ItemOrigin::Model,
        "t",
        &mut revision,
    );
    assert_eq!(
        json!([context, user, call, output, answer]),
        json!([
            {"history_sequence": 1, "sampled_through_sequence": 0, "client_authored": false,
             "model_search_state": "unused"},
            {"history_sequence": 2, "sampled_through_sequence": 0,
             "retained_source": {"id": {"message_id": "m2", "turn_id": "t", "role": "user"},
                                 "revision": "retained_r1", "complete": true},
             "client_authored": false, "user_input_order": 0,
             "mcp_attribution": {"status": "none"}, "model_search_state": "unused"},
            {"history_sequence": 3, "sampled_through_sequence": 2, "client_authored": false,
             "user_input_order": 1, "model_search_state": "unused"},
            {"history_sequence": 4, "sampled_through_sequence": 2, "client_authored": false,
             "fallback_token_limit_override": 12000, "model_search_state": "unused"},
            {"history_sequence": 5, "sampled_through_sequence": 4,
             "retained_source": {"id": {"message_id": "m3", "turn_id": "t", "role": "assistant"},
                                 "revision": "retained_r2", "complete": true},
             "client_authored": false, "user_input_order": 2, "model_search_state": "unused"},
        ])
    );
}

#[test]
fn a_resumed_rollout_continues_the_numbering_and_a_compaction_keeps_retained_messages() {
    let mut first = HistorySequence::default();
    let user_message = message("m1", "user", "say hi");
    let mut lines = Vec::new();
    for (item, origin) in [
        (user_message.clone(), ItemOrigin::User),
        (message("m2", "assistant", "hi"), ItemOrigin::Model),
    ] {
        first.sampled();
        let metadata = first.next(&item, origin, "t", || "r".to_string());
        let mut line =
            RolloutLine::new("2026-01-01T00:00:00.000Z", RolloutItem::ResponseItem(item));
        line.extra
            .insert(LINE_METADATA_KEY.to_string(), Value::Object(metadata));
        lines.push(line);
    }

    let mut resumed = HistorySequence::of_lines(&lines);
    assert_eq!(resumed, first);
    let summary = message("m9", "user", "Summary: said hi.");
    let kept = resumed.replacement(&user_message);
    let added = resumed.replacement(&summary);
    assert_eq!(
        (kept["history_sequence"].clone(), added),
        (
            json!(1),
            json!({"history_sequence": 3, "sampled_through_sequence": 1, "client_authored": false,
                   "mcp_attribution": {"status": "none"}, "model_search_state": "unused"})
            .as_object()
            .cloned()
            .expect("object")
        )
    );
    let retained = [RetainedMessage {
        metadata: kept,
        text: "say hi".to_string(),
    }];
    assert_eq!(
        resumed.retained_context(&retained),
        json!({
            "verified_answers": [], "incomplete": false,
            "user_messages": [{"revision": "retained_r", "order": 0, "turn_id": "t",
                               "message_id": "m1", "text": "say hi", "complete": true}],
            "user_messages_incomplete": false, "assistant_messages": [],
            "assistant_messages_incomplete": false, "next_order": 2
        })
    );
}
