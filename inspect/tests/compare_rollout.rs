//! `compare` on two small hand-written rollouts: line types, world-state pattern, turn contexts.

#![allow(clippy::expect_used)]

use codex_inspect::CompareError;
use codex_inspect::CompareReport;
use codex_inspect::Difference;
use codex_inspect::DifferenceDetail;
use codex_inspect::InputKind;
use codex_inspect::InspectOptions;
use codex_inspect::Position;
use codex_inspect::ProseMode;
use codex_inspect::Side;
use codex_inspect::WorldStateMode;
use codex_inspect::compare_inputs;
use codex_inspect::parse_compare_input;
use codex_models_manager::ModelCatalog;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

fn catalog() -> ModelCatalog {
    ModelCatalog::bundled().expect("bundled catalog")
}

fn line(line_type: &str, payload: Value) -> String {
    json!({"timestamp": "2026-11-30T07:00:00.000Z", "type": line_type, "payload": payload})
        .to_string()
}

fn session_meta() -> String {
    line(
        "session_meta",
        json!({
            "session_id": "thread-1",
            "id": "thread-1",
            "timestamp": "2026-11-30T07:00:00.000Z",
            "cwd": "/repo",
            "originator": "codex_cli_rs",
            "cli_version": "0.0.0",
            "source": "exec",
            "model_provider": "openai"
        }),
    )
}

fn event(event_type: &str) -> String {
    line(
        "event_msg",
        json!({"type": event_type, "turn_id": "turn-1"}),
    )
}

fn message(role: &str, text: &str) -> String {
    line(
        "response_item",
        json!({"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}),
    )
}

fn world_state(full: bool, sections: &[&str]) -> String {
    let state: serde_json::Map<String, Value> = sections
        .iter()
        .map(|section| (section.to_string(), json!({})))
        .collect();
    line("world_state", json!({"full": full, "state": state}))
}

fn turn_context() -> String {
    line(
        "turn_context",
        json!({
            "turn_id": "turn-1",
            "cwd": "/repo",
            "approval_policy": "never",
            "sandbox_policy": {"type": "danger-full-access"},
            "model": "gpt-5.5",
            "summary": "auto"
        }),
    )
}

/// Two turns: a full world state, then a patch touching `environments`.
fn two_turns() -> Vec<String> {
    vec![
        session_meta(),
        event("task_started"),
        world_state(true, &["agents_md", "environments", "permissions"]),
        turn_context(),
        message("user", "hello"),
        event("user_message"),
        event("task_complete"),
        event("task_started"),
        world_state(false, &["environments"]),
        turn_context(),
        message("user", "again"),
        event("user_message"),
        event("task_complete"),
    ]
}

fn rollout(lines: &[String]) -> codex_inspect::CompareInput {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let input = parse_compare_input("rollout.jsonl", &text, &InspectOptions::new(&catalog()))
        .expect("a rollout");
    assert_eq!(input.kind, InputKind::Rollout);
    input
}

#[test]
fn identical_rollouts_have_no_differences() {
    let report = compare_inputs(
        &rollout(&two_turns()),
        &rollout(&two_turns()),
        ProseMode::Ignore,
    );

    assert_eq!(
        report,
        CompareReport {
            requests_compared: 2,
            rollouts_compared: true,
            differences: Vec::new(),
            prose_differences: Vec::new(),
        }
    );
}

#[test]
fn line_types_world_state_pattern_and_turn_contexts_are_compared() {
    let mut altered = two_turns();
    // The second turn writes a full world state touching two sections, has no turn context,
    // and an extra token count event.
    altered[8] = world_state(true, &["environments", "permissions"]);
    altered.remove(9);
    altered.insert(10, event("token_count"));

    let report = compare_inputs(
        &rollout(&two_turns()),
        &rollout(&altered),
        ProseMode::Ignore,
    );

    let at = |a: Option<usize>, b: Option<usize>| Position::RolloutLine { a, b };
    let difference = |position: Position, detail: DifferenceDetail| Difference {
        request: None,
        position,
        detail,
    };
    assert_eq!(
        report.differences,
        vec![
            difference(
                at(Some(10), None),
                DifferenceDetail::RolloutLineOnlyIn {
                    side: Side::A,
                    line_type: "turn_context".to_string(),
                },
            ),
            difference(
                at(None, Some(11)),
                DifferenceDetail::RolloutLineOnlyIn {
                    side: Side::B,
                    line_type: "event_msg/token_count".to_string(),
                },
            ),
            difference(
                at(Some(9), Some(9)),
                DifferenceDetail::WorldStateMode {
                    a: WorldStateMode::Patch,
                    b: WorldStateMode::Full,
                },
            ),
            difference(
                at(Some(9), Some(9)),
                DifferenceDetail::WorldStateSections {
                    a: vec!["environments".to_string()],
                    b: vec!["environments".to_string(), "permissions".to_string()],
                },
            ),
            difference(
                Position::TurnContexts,
                DifferenceDetail::TurnContextCount { a: 2, b: 1 },
            ),
        ]
    );
    insta::assert_snapshot!(report.render_text(), @r"
    rollout: line 10: turn_context only in A
    rollout: line 11: event_msg/token_count only in B
    rollout: line 9: world_state patch != full
    rollout: line 9: world_state sections [environments] != [environments, permissions]
    rollout: turn_context: lines 2 != 1
    2 requests compared, 5 structural differences
    ");
}

#[test]
fn a_damaged_rollout_line_is_bad_input() {
    let mut lines = two_turns();
    lines[4] = "{\"timestamp\": \"x\", \"type\": \"response_item\", \"payload\": 7}".to_string();
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();

    let error = parse_compare_input("broken.jsonl", &text, &InspectOptions::new(&catalog()))
        .expect_err("damaged line");

    // The rest of the message is the rollout reader's description of the damage.
    let CompareError::DamagedRolloutLine {
        name,
        line,
        message,
    } = &error
    else {
        panic!("expected a damaged line, got {error:?}");
    };
    assert_eq!((name.as_str(), *line), ("broken.jsonl", 5));
    assert!(
        error
            .to_string()
            .starts_with("broken.jsonl: line 5: not a valid rollout line"),
        "{message}"
    );
}
