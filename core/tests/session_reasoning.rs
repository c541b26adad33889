//! Reasoning items of the model's output: the event lines recorded before them (as upstream's
//! legacy events and paginated turn items), and the item itself kept for later requests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod session_support;

use codex_core::RawReasoning;
use codex_core::Session;
use codex_core::TurnContext;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;
use session_support::*;

fn reasoning() -> ResponseItem {
    serde_json::from_value(json!({
        "type": "reasoning",
        "id": "rs_1",
        "summary": [
            {"type": "summary_text", "text": "first summary"},
            {"type": "summary_text", "text": "second summary"}
        ],
        "content": [{"type": "reasoning_text", "text": "raw detail"}],
        "encrypted_content": "opaque"
    }))
    .unwrap()
}

/// The event payloads of the turn's model output (between `user_message` / the user's
/// completed item and `task_complete`), turn ids and instants left out.
fn output_events(session: &MemorySession) -> Vec<Value> {
    lines(session)
        .iter()
        .filter_map(|line| match &line.item {
            RolloutItem::Other { payload, .. } => Some(payload.clone()),
            _ => None,
        })
        .filter(|payload| {
            !matches!(
                payload["type"].as_str(),
                Some("task_started" | "task_complete" | "user_message")
            ) && payload["item"]["type"] != "UserMessage"
        })
        .map(|mut payload| {
            if let Some(object) = payload.as_object_mut() {
                for key in ["thread_id", "turn_id", "started_at_ms", "completed_at_ms"] {
                    object.remove(key);
                }
            }
            payload
        })
        .collect()
}

fn play(session: &mut MemorySession, turn: &TurnContext) {
    session.start_turn(turn).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(turn)
        .unwrap();
    session.record_user_message("think").unwrap();
    session
        .record_model_output(vec![reasoning(), assistant("done")])
        .unwrap();
    session.complete_turn().unwrap();
}

#[test]
fn legacy_rollouts_record_each_summary_and_shown_raw_entries_before_the_item() {
    let ids = seeded_ids();
    let mut turn = first_turn_context(&ids);
    turn.raw_reasoning = RawReasoning::Shown;
    let mut session = new_session(&ids, &turn);
    play(&mut session, &turn);
    assert_eq!(
        output_events(&session),
        vec![
            json!({"type": "agent_reasoning", "text": "first summary"}),
            json!({"type": "agent_reasoning", "text": "second summary"}),
            json!({"type": "agent_reasoning_raw_content", "text": "raw detail"}),
            json!({"type": "agent_message", "message": "done", "phase": null, "memory_citation": null}),
        ]
    );
    assert_eq!(
        labels(&lines(&session)[7..13]),
        vec![
            "event_msg agent_reasoning",
            "event_msg agent_reasoning",
            "event_msg agent_reasoning_raw_content",
            "response_item reasoning",
            "event_msg agent_message",
            "response_item message/assistant",
        ]
    );

    let next = next_turn_context(&turn, &ids);
    session.start_turn(&next).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&next)
        .unwrap();
    session.record_user_message("again").unwrap();
    let input = session.build_prompt_input();
    let carried: Vec<Value> = input
        .iter()
        .filter(|item| matches!(item, ResponseItem::Reasoning { .. }))
        .map(|item| serde_json::to_value(item).unwrap())
        .collect();
    assert_eq!(carried.len(), 1);
    assert_eq!(carried[0]["encrypted_content"], "opaque");
    assert_eq!(carried[0]["content"][0]["text"], "raw detail");
}

#[test]
fn hidden_raw_reasoning_records_only_the_summaries() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    assert_eq!(turn.raw_reasoning, RawReasoning::Hidden);
    let mut session = new_session(&ids, &turn);
    play(&mut session, &turn);
    let types: Vec<Value> = output_events(&session)
        .into_iter()
        .map(|payload| payload["type"].clone())
        .collect();
    assert_eq!(
        types,
        vec![
            json!("agent_reasoning"),
            json!("agent_reasoning"),
            json!("agent_message")
        ]
    );
}

#[test]
fn paginated_rollouts_record_a_completed_reasoning_item() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut init = session_init(&ids, &turn);
    init.history_mode = codex_core::HistoryMode::Paginated;
    let mut session: MemorySession = Session::new(init, Vec::new());
    play(&mut session, &turn);
    let events = output_events(&session);
    assert_eq!(
        events[0],
        json!({
            "type": "item_completed",
            "item": {
                "type": "Reasoning",
                "id": "rs_1",
                "summary_text": ["first summary", "second summary"],
                "raw_content": ["raw detail"],
            },
        })
    );
    assert_eq!(events[1]["item"]["type"], "AgentMessage");
}
