//! Scripted `reasoning`: the items come before the turn's first output (its assistant text, or
//! its tool calls when it has some) and are carried in the requests that follow.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_script::ContextMode;
use codex_script::Script;
use pretty_assertions::assert_eq;
use script_support::*;

fn item_types(items: &[ResponseItem]) -> Vec<&str> {
    items.iter().map(ResponseItem::item_type).collect()
}

#[test]
fn reasoning_precedes_the_tool_calls_of_a_turn_that_has_them() {
    let script = Script::parse(
        r#"{
            "session": {"cwd": "project", "project_root_markers": [".project-root"],
                        "model": "gpt-5.5", "current_date": "2026-11-30",
                        "timezone": "Etc/UTC", "shell": "bash", "seed": 4},
            "turns": [{
                "user": "Run the tests.",
                "reasoning": {"summary": "Running them", "encrypted_content": "opaque"},
                "tool_calls": [{"name": "shell", "call_id": "call_tests",
                                "arguments": {"command": ["cargo", "test"]}, "output": "ok"}],
                "assistant": "They pass."
            }]
        }"#,
        "script.json",
        &examples_dir(),
    )
    .unwrap();
    let run = run(&script, ContextMode::Diffs);
    let model_output: Vec<ResponseItem> = run
        .rollout
        .iter()
        .filter_map(|line| match &line.item {
            RolloutItem::ResponseItem(item) => Some(item.clone()),
            _ => None,
        })
        .skip_while(|item| !matches!(item, ResponseItem::Reasoning { .. }))
        .collect();
    assert_eq!(
        item_types(&model_output),
        vec![
            "reasoning",
            "function_call",
            "function_call_output",
            "message"
        ]
    );
    let events: Vec<&str> = run
        .rollout
        .iter()
        .filter_map(|line| line.item.event_msg_type())
        .collect();
    assert_eq!(
        events,
        vec![
            "task_started",
            "user_message",
            "agent_reasoning",
            "token_count",
            "agent_message",
            "token_count",
            "task_complete"
        ]
    );
    let second = &run.requests.last().unwrap().body.input;
    let tail = &second[second.len() - 3..];
    assert_eq!(
        item_types(tail),
        vec!["reasoning", "function_call", "function_call_output"]
    );
}
