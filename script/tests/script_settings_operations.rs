//! Settings operations and token usage of scripted sessions: a thread is created from its
//! `session` settings and every `set` is an operation on it (recorded as
//! `thread_settings_applied` once the thread has run a turn, not for a `resume` object's restart
//! settings); every response records the thread's running token total; resuming at any turn
//! writes the same lines as the straight run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_core::ResponsesRequest;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_protocol::rollout::TokenUsage;
use codex_script::ContextMode;
use codex_script::ModelResponse;
use codex_script::Script;
use codex_script::ScriptError;
use codex_script::ScriptRun;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::TurnResponder;
use codex_script::TurnScript;
use codex_script::run_script;
use pretty_assertions::assert_eq;
use script_support::*;
use serde_json::Value;
use serde_json::json;

const SESSION: &str = r#""session": {"cwd": "project", "project_root_markers": [".project-root"],
    "model": "gpt-5.5", "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash",
    "seed": 11}"#;

fn with_turns(turns: &str) -> Script {
    script(&format!(r#"{{{SESSION}, "turns": {turns}}}"#))
}

fn event_payloads<'a>(lines: &'a [RolloutLine], event: &str) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|line| line.item.event_msg_type() == Some(event))
        .map(|line| match &line.item {
            RolloutItem::Other { payload, .. } => payload,
            other => panic!("an event line: {other:?}"),
        })
        .collect()
}

/// How many `thread_settings_applied` lines come right before each `task_started`.
fn settings_events_before_each_turn(lines: &[RolloutLine]) -> Vec<usize> {
    let mut counts = Vec::new();
    let mut pending = 0;
    for line in lines {
        match line.item.event_msg_type() {
            Some("thread_settings_applied") => pending += 1,
            Some("task_started") => {
                counts.push(pending);
                pending = 0;
            }
            _ => pending = 0,
        }
    }
    counts
}

fn developer_texts(input: &[ResponseItem]) -> Vec<String> {
    input
        .iter()
        .filter_map(|item| match item {
            ResponseItem::Message { role, content, .. } if role == "developer" => {
                Some(content.iter().filter_map(ContentItem::text).collect())
            }
            _ => None,
        })
        .collect()
}

/// The first turn's `set` does not choose the thread's instructions: the thread keeps those of
/// the `session` model, and the first request tells the model about the switch.
#[test]
fn first_turn_settings_apply_to_the_thread_the_session_created() {
    let plain = run(&with_turns(r#"[{"user": "hi"}]"#), ContextMode::Diffs);
    let switched = run(
        &with_turns(r#"[{"set": {"model": "gpt-5.2"}, "user": "hi"}]"#),
        ContextMode::Diffs,
    );
    let (plain, switched) = (&plain.requests[0], &switched.requests[0]);
    assert_eq!(
        (
            switched.body.model.as_str(),
            switched.base_instructions == plain.base_instructions,
            developer_texts(&plain.body.input)
                .iter()
                .any(|text| text.contains("<model_switch>")),
            developer_texts(&switched.body.input)
                .iter()
                .any(|text| text.starts_with("<model_switch>")),
        ),
        ("gpt-5.2", true, false, true)
    );
}

fn operations_script() -> Script {
    with_turns(
        r#"[
            {"set": {"approval_policy": "never"}, "user": "one"},
            {"user": "two"},
            {"set": {}, "user": "three"},
            {"set": [{"personality": "friendly"}, {}], "user": "four"},
            {"resume": {"model": "gpt-5.2"}, "user": "five"},
            {"resume": true, "set": {"model": "gpt-5.5"}, "user": "six"}
        ]"#,
    )
}

/// One event per operation applied once the thread has run a turn, right before the turn;
/// none before the first turn, none for a turn without `set`, none for restart settings.
#[test]
fn settings_operations_are_recorded_once_the_thread_has_run_a_turn() {
    let run = run(&operations_script(), ContextMode::Diffs);
    assert_eq!(
        settings_events_before_each_turn(&run.rollout),
        [0, 0, 1, 2, 0, 1]
    );
    let applied: Vec<(&Value, &Value, &Value)> =
        event_payloads(&run.rollout, "thread_settings_applied")
            .into_iter()
            .map(|payload| {
                let settings = &payload["thread_settings"];
                (
                    &settings["model"],
                    &settings["approval_policy"],
                    &settings["personality"],
                )
            })
            .collect();
    assert_eq!(
        applied,
        [
            (&json!("gpt-5.5"), &json!("never"), &json!("pragmatic")),
            (&json!("gpt-5.5"), &json!("never"), &json!("friendly")),
            (&json!("gpt-5.5"), &json!("never"), &json!("friendly")),
            (&json!("gpt-5.5"), &json!("never"), &json!("friendly")),
        ]
    );
    let models: Vec<&str> = run
        .requests
        .iter()
        .map(|request| request.body.model.as_str())
        .collect();
    assert_eq!(
        models,
        [
            "gpt-5.5", "gpt-5.5", "gpt-5.5", "gpt-5.5", "gpt-5.2", "gpt-5.5"
        ]
    );
}

/// A responder reporting the same usage for every response.
struct FixedUsage;

fn usage() -> TokenUsage {
    TokenUsage {
        input_tokens: 100,
        cached_input_tokens: 40,
        cache_write_input_tokens: 0,
        output_tokens: 7,
        reasoning_output_tokens: 3,
        total_tokens: 107,
    }
}

impl TurnResponder for FixedUsage {
    fn respond(
        &mut self,
        turn: &TurnScript,
        request: &ResponsesRequest,
    ) -> Result<ModelResponse, ScriptError> {
        Ok(ModelResponse {
            usage: Some(usage()),
            ..ScriptedReplies.respond(turn, request)?
        })
    }
}

fn run_from(
    script: &Script,
    start: ScriptStart<'_>,
    responder: &mut dyn TurnResponder,
) -> ScriptRun {
    run_script(
        script,
        &environment(script),
        start,
        ScriptSink::memory(),
        ContextMode::Diffs,
        responder,
    )
    .unwrap()
}

/// Each response's `token_count` adds its usage to the thread's total; scripted replies use
/// none, so their totals stay at zero.
#[test]
fn every_response_records_the_running_total() {
    let script =
        with_turns(r#"[{"user": "one"}, {"user": "two", "assistant": "ok"}, {"user": "three"}]"#);
    let totals = |run: &ScriptRun| -> Vec<(Value, Value)> {
        event_payloads(&run.rollout, "token_count")
            .into_iter()
            .map(|payload| {
                (
                    payload["info"]["total_token_usage"]["total_tokens"].clone(),
                    payload["info"]["last_token_usage"]["total_tokens"].clone(),
                )
            })
            .collect()
    };
    let scripted = run(&script, ContextMode::Diffs);
    let reported = run_from(&script, ScriptStart::Beginning, &mut FixedUsage);
    assert_eq!(
        (totals(&scripted), totals(&reported)),
        (
            vec![(json!(0), json!(0)); 3],
            vec![
                (json!(107), json!(107)),
                (json!(214), json!(107)),
                (json!(321), json!(107))
            ]
        )
    );
    let first = event_payloads(&scripted.rollout, "token_count")[0];
    assert_eq!(
        first["rate_limits"],
        json!({
            "limit_id": "codex", "limit_name": null, "primary": null, "secondary": null,
            "credits": null, "individual_limit": null, "spend_control_reached": null,
            "plan_type": null, "rate_limit_reached_type": null
        })
    );
}

/// Resuming at any turn writes what the straight run writes from there on: settings events,
/// and token totals that go on from the rollout's last one.
#[test]
fn resuming_at_any_turn_writes_the_same_lines() {
    let script = operations_script();
    let straight = run_from(&script, ScriptStart::Beginning, &mut FixedUsage);
    for k in 1..script.turns.len() {
        let first_part = run_from(
            &truncated(&script, k),
            ScriptStart::Beginning,
            &mut FixedUsage,
        );
        let rollout = reload(&first_part.rollout);
        let rest = run_from(
            &script,
            ScriptStart::Resume {
                rollout: &rollout,
                turn: k,
            },
            &mut FixedUsage,
        );
        let mut lines = first_part.rollout.clone();
        lines.extend(rest.rollout);
        assert_eq!(lines, straight.rollout, "resumed at turn {k}");
        assert_eq!(rest.requests, straight.requests[k..], "resumed at turn {k}");
    }
}
