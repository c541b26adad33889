//! Turn events of scripts: the `events` example's layout, where each event lands in history and
//! the rollout, when additional context and time reminders are sent, what a resumed thread
//! keeps, and how bad event values are reported.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::render_requests_layout;
use pretty_assertions::assert_eq;
use script_support::*;

const CURRENT_TIME_KIND: &str = "current_time.reminder";

#[test]
fn events_example_layout() {
    let script = example("events");
    let run = run(&script, ContextMode::Diffs);
    insta::assert_snapshot!("events", render_requests_layout(&run.requests).unwrap());
}

/// One line per rollout line: event type, message role and content kinds, call name and id.
fn outline(lines: &[RolloutLine]) -> Vec<String> {
    lines
        .iter()
        .map(|line| match &line.item {
            RolloutItem::SessionMeta(_) => "session_meta".to_string(),
            RolloutItem::TurnContext(_) => "turn_context".to_string(),
            RolloutItem::Compacted(_) => "compacted".to_string(),
            RolloutItem::WorldState(state) if state.full => "world_state full".to_string(),
            RolloutItem::WorldState(_) => "world_state patch".to_string(),
            RolloutItem::Other { .. } => {
                format!("event {}", line.item.event_msg_type().unwrap_or("?"))
            }
            RolloutItem::ResponseItem(item) => match item {
                ResponseItem::Message { role, .. } => {
                    let kinds: Vec<&str> = item
                        .content_item_kinds()
                        .unwrap_or_default()
                        .iter()
                        .map(|kind| kind.as_str())
                        .collect();
                    match kinds.as_slice() {
                        [] => format!("{role} -"),
                        kinds => format!("{role} {}", kinds.join(" ")),
                    }
                }
                ResponseItem::FunctionCall { name, call_id, .. } => {
                    format!("function_call {name} {call_id}")
                }
                ResponseItem::FunctionCallOutput { call_id, .. } => {
                    format!("function_call_output {}", call_id.as_deref().unwrap_or("?"))
                }
                ResponseItem::Reasoning { .. }
                | ResponseItem::LocalShellCall { .. }
                | ResponseItem::CustomToolCall { .. }
                | ResponseItem::CustomToolCallOutput { .. }
                | ResponseItem::WebSearchCall { .. }
                | ResponseItem::Compaction { .. }
                | ResponseItem::AdditionalTools { .. }
                | ResponseItem::Other(_) => item.item_type().to_string(),
            },
        })
        .collect()
}

/// Where upstream records each event (`codex-rs/core/src/session/turn.rs`): additional context
/// before the user's message,
/// hook context right after it; pending input, then the reminder, before each request; a
/// user shell command as a task of its own; the network notice while the tools run, before
/// their outputs; each response's `token_count` after its items and tool outputs; the approved
/// prefix in the world-state diff before the second request; the abort marker after the
/// partial turn, closed by `turn_aborted`.
#[test]
fn events_are_recorded_where_upstream_records_them() {
    let run = run(&example("events"), ContextMode::Diffs);
    assert_eq!(
        outline(&run.rollout),
        [
            "session_meta",
            // Turn 1: additional context, the user's message, hook context, the reminder.
            "event task_started",
            "developer permissions.instructions",
            "user agents_md.instructions environments.environment_context",
            "world_state full",
            "turn_context",
            "user additional_content.editor",
            "developer additional_content.workspace",
            "user user.text",
            "event user_message",
            "developer hooks.additional_context",
            "developer current_time.reminder",
            "event agent_message",
            "assistant -",
            "event token_count",
            "event task_complete",
            // The user's shell command: a task without context updates.
            "event task_started",
            "user shell.user_command",
            "event task_complete",
            // Turn 2: unchanged additional context is not sent again; two sampling steps.
            "event task_started",
            "turn_context",
            "user user.text",
            "event user_message",
            "developer current_time.reminder",
            "function_call apply_patch call_add_index",
            "function_call shell call_run_tests",
            "developer network_proxy.rule_saved",
            "function_call_output call_add_index",
            "function_call_output call_run_tests",
            "event token_count",
            "developer permissions.approved_command_prefix_saved",
            "world_state patch",
            "event agent_message",
            "assistant -",
            "event token_count",
            "event task_complete",
            // Turn 3: only the changed key; the sub-agent's news before the reminder; the
            // interrupt comes once the response is in (its usage recorded) and leaves the call
            // unanswered.
            "event task_started",
            "turn_context",
            "user additional_content.editor",
            "user user.text",
            "event user_message",
            "user multi_agent.subagent_notification",
            "developer current_time.reminder",
            "function_call shell call_benchmark",
            "event token_count",
            "user generic.turn_aborted",
            "event turn_aborted",
            // Turn 4: no reminder is due an hour after the last one.
            "event task_started",
            "turn_context",
            "user user.text",
            "event user_message",
            "event agent_message",
            "assistant -",
            "event token_count",
            "event task_complete",
        ]
    );
    let aborted = run
        .rollout
        .iter()
        .find(|line| line.item.event_msg_type() == Some("turn_aborted"))
        .unwrap();
    let RolloutItem::Other { payload, .. } = &aborted.item else {
        unreachable!("an event line");
    };
    assert_eq!(payload["reason"], "interrupted");
    assert!(payload["turn_id"].is_string());
    // The unanswered call reaches the next request answered `aborted`, before the marker.
    let last = &run.requests.last().unwrap().body.input;
    let call = last
        .iter()
        .position(|item| matches!(item, ResponseItem::FunctionCall { call_id, .. } if call_id == "call_benchmark"))
        .unwrap();
    let ResponseItem::FunctionCallOutput { output, .. } = &last[call + 1] else {
        panic!("the call is answered right after it: {:?}", last[call + 1]);
    };
    assert_eq!(output.text().as_deref(), Some("aborted"));
}

/// How many messages of each turn (task) carry a kind starting with `prefix`.
fn per_task(lines: &[RolloutLine], prefix: &str) -> Vec<usize> {
    let mut counts = Vec::new();
    for line in lines {
        if line.item.event_msg_type() == Some("task_started") {
            counts.push(0);
        }
        if let RolloutItem::ResponseItem(item) = &line.item
            && item
                .content_item_kinds()
                .is_some_and(|kinds| kinds.iter().any(|kind| kind.as_str().starts_with(prefix)))
            && let Some(count) = counts.last_mut()
        {
            *count += 1;
        }
    }
    counts
}

const SESSION: &str = r#""session": {"cwd": "project", "project_root_markers": [".project-root"],
    "model": "gpt-5.5", "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash",
    "seed": 3}"#;

#[test]
fn additional_context_is_sent_only_when_history_lacks_the_value() {
    let script = script(&format!(
        r#"{{{SESSION}, "turns": [
        {{"user": "1", "additional_context": {{"tab": {{"value": "a"}}}}}},
        {{"user": "2", "additional_context": {{"tab": {{"value": "a"}}}}}},
        {{"user": "3"}},
        {{"user": "4", "additional_context": {{"tab": {{"value": "b"}}, "mode": {{"value": "x", "trust": "application"}}}}}},
        {{"user": "5", "additional_context": {{"tab": {{"value": "b", "trust": "application"}}}}}},
        {{"user": "6", "additional_context": {{"tab": {{"value": "a", "trust": "untrusted"}}}}}},
        {{"user": "7", "compact": "The user switched tabs.", "additional_context": {{"tab": {{"value": "a"}}}}}},
        {{"user": "8", "resume": true, "additional_context": {{"tab": {{"value": "a"}}, "mode": {{"value": "x", "trust": "application"}}}}}}
    ]}}"#
    ));
    let run = run(&script, ContextMode::Diffs);
    // 4: the changed value and the new key; 5: the same value under another trust is another
    // fragment; 6: back to the first value; 7: compaction dropped it; 8: resuming reads history,
    // and `mode` went with the compaction.
    assert_eq!(
        per_task(&run.rollout, "additional_content."),
        [1, 0, 0, 2, 1, 1, 1, 1]
    );
}

#[test]
fn time_reminders_follow_the_turn_flag_without_an_interval() {
    let script = script(&format!(
        r#"{{{SESSION}, "turns": [
        {{"user": "1"}},
        {{"user": "2", "time_reminder": true}},
        {{"user": "3", "tool_calls": [{{"name": "shell", "output": "ok"}}], "assistant": "done"}}
    ]}}"#
    ));
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(per_task(&run.rollout, CURRENT_TIME_KIND), [0, 1, 0]);
}

/// Upstream keeps the reminder clock in memory: a resumed thread reminds at its first request
/// even when the interval has not passed. Approved prefixes and additional context survive.
#[test]
fn resumed_threads_keep_approvals_and_context_and_remind_again() {
    let script = example("events");
    let straight = run(&script, ContextMode::Diffs);
    for k in 1..script.turns.len() {
        let first_part = run(&truncated(&script, k), ContextMode::Diffs);
        let rest = resume(&script, &reload(&first_part.rollout), k);
        let straight_rest = &straight.requests[straight.requests.len() - rest.requests.len()..];
        if k < 3 {
            // A reminder was due at turn k anyway.
            assert_eq!(rest.requests, straight_rest, "resumed at turn {k}");
            continue;
        }
        // Requests carry no content kinds; the reminder is known by its tag.
        let reminders = |input: &[ResponseItem]| {
            input
                .iter()
                .filter(|item| {
                    matches!(item, ResponseItem::Message { content, .. }
                    if content.iter().any(|part| part.text().is_some_and(|text| {
                        text.starts_with("<current_time_reminder>")
                    })))
                })
                .count()
        };
        assert_eq!(
            reminders(&rest.requests[0].body.input),
            reminders(&straight_rest[0].body.input) + 1,
            "resumed at turn {k}"
        );
        assert_eq!(
            rest.requests[0].body.input.len(),
            straight_rest[0].body.input.len() + 1
        );
    }
}

#[test]
fn bad_event_values_name_their_place() {
    let cases = [
        (
            r#"{"user": "u", "shell": {"cmd": "ls"}}"#,
            r#"script.json: turns[0].shell: unknown key "cmd" (expected one of: command, exit_code, output, duration_ms)"#,
        ),
        (
            r#"{"user": "u", "shell": {"command": "ls", "exit_code": 1.5}}"#,
            "script.json: turns[0].shell.exit_code: must be a 32-bit integer",
        ),
        (
            r#"{"user": "u", "interrupt": "yes"}"#,
            "script.json: turns[0].interrupt: must be true or false",
        ),
        (
            r#"{"user": "u", "approve_prefix": []}"#,
            "script.json: turns[0].approve_prefix: must name at least one command word",
        ),
        (
            r#"{"user": "u", "additional_context": {"bad key": {"value": "v"}}}"#,
            "script.json: turns[0].additional_context.bad key: ",
        ),
        (
            r#"{"user": "u", "additional_context": {"k": {"value": "v", "trust": "full"}}}"#,
            r#"script.json: turns[0].additional_context.k.trust: unknown trust "full" (expected untrusted or application)"#,
        ),
        (
            r#"{"user": "u", "subagent_status": {"agent_path": "/a", "status": "done"}}"#,
            "script.json: turns[0].subagent_status.status: must be ",
        ),
        (
            r#"{"user": "u", "network_rule": {"host": "h"}}"#,
            r#"script.json: turns[0].network_rule: missing key "allow""#,
        ),
        (
            r#"{"user": "u", "tool_calls": [{"arguments": {}}]}"#,
            r#"script.json: turns[0].tool_calls[0]: missing key "name""#,
        ),
        (
            r#"{"user": "u", "hook_context": "text"}"#,
            "script.json: turns[0].hook_context: must be an array of strings",
        ),
    ];
    for (turn, expected) in cases {
        let text = format!(r#"{{"turns": [{turn}]}}"#);
        let error = Script::parse(&text, "script.json", &examples_dir())
            .unwrap_err()
            .to_string();
        assert!(error.starts_with(expected), "{turn}: {error}");
    }
}
