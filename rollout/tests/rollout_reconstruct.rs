//! Resume reconstruction from rollouts written inline as JSONL.

#![allow(clippy::expect_used)]

mod rollout_support;

use codex_protocol::models::BaseInstructions;
use codex_protocol::models::BaseInstructionsProvenance;
use codex_rollout::ModelChanged;
use codex_rollout::ReconstructWarning;
use codex_rollout::reconstruct;
use pretty_assertions::assert_eq;
use rollout_support::*;
use serde_json::json;

#[test]
fn resume_rebuilds_history_reference_baseline_and_instructions() {
    let session = reconstruct(&load(&jsonl(&two_turn_rollout())));

    assert_eq!(
        session.history,
        items(&[
            message_item(
                "developer",
                "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
            ),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"
            ),
            message_item("user", "first question"),
            message_item("assistant", "first answer"),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work/sub</cwd>\n</environment_context>"
            ),
            message_item("user", "second question"),
            message_item("assistant", "second answer"),
        ])
    );
    assert_eq!(reference_turn(&session), Some("t2"));
    assert_eq!(
        session.world_state_baseline,
        baseline(json!({"model": "gpt-5.2", "environments": {"cwd": "/work/sub", "date": "d1"}}))
    );
    assert_eq!(
        session.base_instructions,
        Some(BaseInstructions {
            text: "Recorded base instructions.".to_string(),
            provenance: Some(BaseInstructionsProvenance::Model {
                model: "gpt-5.2".to_string()
            }),
        })
    );
    assert_eq!(
        session.session_meta.as_ref().map(|meta| meta.id.as_str()),
        Some("thread-1")
    );
    assert_eq!(session.last_model(), Some("gpt-5.2"));
    assert_eq!(session.warnings, Vec::new());
}

#[test]
fn resuming_on_another_model_yields_a_warning() {
    let session = reconstruct(&load(&jsonl(&two_turn_rollout())));
    assert_eq!(session.model_change("gpt-5.2"), None);
    let change = session.model_change("gpt-5.5");
    assert_eq!(
        change,
        Some(ModelChanged {
            recorded: "gpt-5.2".to_string(),
            current: "gpt-5.5".to_string(),
        })
    );
    assert_eq!(
        change.map(|change| change.to_string()),
        Some(
            "This thread last ran on model `gpt-5.2` and now resumes on `gpt-5.5`; switching back \
             to `gpt-5.2` may give more consistent results."
                .to_string()
        )
    );
}

#[test]
fn world_state_full_then_patches_replay_in_order() {
    let lines = [
        session_meta("t"),
        world_full(json!({"a": {"x": 1, "y": 2}, "b": "keep", "gone": true})),
        world_patch(json!({"a": {"y": null, "z": 3}, "gone": null})),
        world_patch(json!({"c": {"nested": {"n": null, "m": 1}}})),
        world_patch(json!({"b": ["replaced", "whole"]})),
    ];
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.world_state_baseline,
        // A null nested in a newly added section is dropped on apply.
        baseline(
            json!({"a": {"x": 1, "z": 3}, "b": ["replaced", "whole"], "c": {"nested": {"m": 1}}})
        )
    );
    assert_eq!(session.warnings, Vec::new());
}

#[test]
fn patch_without_base_is_ignored_with_a_warning() {
    let lines = [
        session_meta("t"),
        world_patch(json!({"a": 1})),
        world_full(json!({"b": 2})),
        world_patch(json!({"c": 3})),
    ];
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.world_state_baseline,
        baseline(json!({"b": 2, "c": 3}))
    );
    assert_eq!(
        session.warnings,
        vec![ReconstructWarning::PatchWithoutBase { line_number: 2 }]
    );
    assert_eq!(
        session.warnings[0].to_string(),
        "line 2: world-state patch ignored: no full world-state snapshot precedes it"
    );
}

#[test]
fn compaction_resets_the_world_state_baseline() {
    let mut lines = two_turn_rollout();
    lines.extend([
        task_started("c1"),
        compacted(
            "SUMMARY",
            Some(vec![
                message_item("user", "first question"),
                message_item("user", "SUMMARY"),
            ]),
        ),
        task_complete("c1"),
        // A patch after the compaction has nothing to apply to.
        world_patch(json!({"model": "gpt-5.5"})),
    ]);
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(session.world_state_baseline, None);
    assert_eq!(
        session.warnings,
        vec![ReconstructWarning::PatchWithoutBase {
            line_number: lines.len()
        }]
    );
    // The compaction is newer than the last user turn: the next turn sends full context.
    assert_eq!(session.reference_context_item, None);
    assert_eq!(
        session.history,
        items(&[
            message_item("user", "first question"),
            message_item("user", "SUMMARY")
        ])
    );
    // Previous turn settings still come from the last user turn.
    assert_eq!(session.last_model(), Some("gpt-5.2"));
}

#[test]
fn compaction_replacement_history_is_the_base_for_later_lines() {
    let mut lines = two_turn_rollout();
    lines.extend([
        task_started("c1"),
        compacted(
            "SUMMARY",
            Some(vec![
                message_item("user", "second question"),
                message_item("user", "SUMMARY"),
            ]),
        ),
        task_complete("c1"),
    ]);
    lines.extend(user_turn(
        "t3",
        "gpt-5.2",
        &[
            permissions(),
            environment("/work/sub"),
            world_full(json!({"model": "gpt-5.2"})),
        ],
        "third question",
        "third answer",
    ));
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.history,
        items(&[
            message_item("user", "second question"),
            message_item("user", "SUMMARY"),
            message_item(
                "developer",
                "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
            ),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work/sub</cwd>\n</environment_context>"
            ),
            message_item("user", "third question"),
            message_item("assistant", "third answer"),
        ])
    );
    assert_eq!(reference_turn(&session), Some("t3"));
    assert_eq!(
        session.world_state_baseline,
        baseline(json!({"model": "gpt-5.2"}))
    );
}

#[test]
fn legacy_compaction_rebuilds_from_user_messages_and_forces_full_context() {
    let mut lines = two_turn_rollout();
    lines.extend([
        task_started("c1"),
        compacted("LEGACY SUMMARY", None),
        task_complete("c1"),
    ]);
    lines.extend(user_turn(
        "t3",
        "gpt-5.2",
        &[],
        "third question",
        "third answer",
    ));
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.history,
        items(&[
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "first question"}]}),
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "second question"}]}),
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "LEGACY SUMMARY"}]}),
            message_item("user", "third question"),
            message_item("assistant", "third answer"),
        ])
    );
    // The turn context of t3 survives, but a rebuilt legacy compaction cannot be diffed against.
    assert_eq!(session.reference_context_item, None);
}

#[test]
fn rollback_drops_the_turn_its_context_updates_and_its_world_state() {
    let mut lines = two_turn_rollout();
    lines.push(rolled_back(1));
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.history,
        items(&[
            message_item(
                "developer",
                "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
            ),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"
            ),
            message_item("user", "first question"),
            message_item("assistant", "first answer"),
        ])
    );
    assert_eq!(reference_turn(&session), Some("t1"));
    assert_eq!(
        session.world_state_baseline,
        baseline(json!({"model": "gpt-5.2", "environments": {"cwd": "/work", "date": "d1"}}))
    );
}

#[test]
fn rollback_of_more_turns_than_exist_keeps_the_prefix_before_the_first_turn() {
    let mut lines = two_turn_rollout();
    lines.push(rolled_back(5));
    let session = reconstruct(&load(&jsonl(&lines)));
    // Context updates before the first user turn are never trimmed.
    assert_eq!(
        session.history,
        items(&[
            message_item(
                "developer",
                "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
            ),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"
            ),
        ])
    );
    assert_eq!(session.reference_context_item, None);
    assert_eq!(session.last_model(), None);
    assert_eq!(session.world_state_baseline, None);
}

#[test]
fn follow_up_turn_after_rollback_is_kept() {
    let mut lines = two_turn_rollout();
    lines.push(rolled_back(1));
    lines.extend(user_turn("t3", "gpt-5.5", &[], "follow-up", "done"));
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(
        session.history,
        items(&[
            message_item(
                "developer",
                "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
            ),
            message_item(
                "user",
                "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"
            ),
            message_item("user", "first question"),
            message_item("assistant", "first answer"),
            message_item("user", "follow-up"),
            message_item("assistant", "done"),
        ])
    );
    assert_eq!(reference_turn(&session), Some("t3"));
    assert_eq!(session.last_model(), Some("gpt-5.5"));
}

#[test]
fn legacy_instructions_string_is_read_without_provenance() {
    let meta = line(
        "session_meta",
        json!({"id": "old", "timestamp": TIMESTAMP, "cwd": "/w", "instructions": "old text"}),
    );
    let session = reconstruct(&load(&jsonl(&[meta])));
    assert_eq!(
        session.base_instructions,
        Some(BaseInstructions {
            text: "old text".to_string(),
            provenance: None
        })
    );
}

#[test]
fn rollout_without_session_meta_is_reported() {
    let session = reconstruct(&load(&jsonl(&[message("user", "orphan")])));
    assert_eq!(
        session.warnings,
        vec![ReconstructWarning::MissingSessionMeta]
    );
    assert_eq!(session.base_instructions, None);
    assert_eq!(session.history, items(&[message_item("user", "orphan")]));
}

#[test]
fn resume_rollout_agrees_with_read_then_reconstruct() {
    let mut lines = two_turn_rollout();
    lines.push(rolled_back(1));
    lines.push(line(
        "event_msg",
        json!({"type": "token_count", "info": {"total": 5}}),
    ));
    lines.push(line("unknown_kind", json!([1, 2, 3])));
    lines.push(line("event_msg", json!("not an object")));
    let mut text = jsonl(&lines);
    text.push_str(&message("user", "cut off")[..20]);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    std::fs::write(&path, &text).expect("write");

    let loaded = codex_rollout::read_rollout(&path, None).expect("read");
    let resumed = codex_rollout::resume_rollout(&path, None).expect("resume");
    assert_eq!(resumed.session, reconstruct(&loaded));
    assert_eq!(resumed.warnings, loaded.warnings);
    assert_eq!(resumed.warnings.len(), 1);
}

/// A line the skim takes but a full parse refuses (damage past the event's turn id), among the
/// lines the resume rebuilds from: the file is read again in full and the damage is reported,
/// as reading every line reports it.
#[test]
fn damage_the_skim_cannot_see_in_the_resumed_lines_reads_the_file_again() {
    let lines = two_turn_rollout();
    let mut text = jsonl(&lines);
    text.push_str(
        r#"{"timestamp":"2026-11-30T07:00:00.000Z","type":"event_msg","payload":{"type":"item_completed","turn_id":"t2","item":{"broken"#,
    );
    text.push('\n');
    text.push_str(&jsonl(&[message("user", "after the damage")]));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    std::fs::write(&path, &text).expect("write");

    let loaded = codex_rollout::read_rollout(&path, None).expect("read");
    let resumed = codex_rollout::resume_rollout(&path, None).expect("resume");
    let expected = codex_rollout::ResumedRollout {
        warnings: loaded.warnings.clone(),
        ..codex_rollout::ResumedRollout::of_lines(&loaded.lines)
    };
    assert_eq!(resumed, expected);
    assert_eq!(resumed.warnings.len(), 1);
}

/// Turn `t3` of `two_turn_rollout` plus a compaction inside it, then turn `t4`, then `tail`.
fn compacted_rollout(tail: &[String]) -> Vec<String> {
    let mut lines = vec![world_patch(json!({"orphan": true}))];
    lines.extend(two_turn_rollout());
    let mut third = user_turn("t3", "gpt-5.2", &[], "third question", "third answer");
    let done = third.pop().expect("task_complete");
    third.extend([
        compacted(
            "summary",
            Some(vec![
                message_item("user", "third question"),
                message_item("user", "summary"),
            ]),
        ),
        world_full(json!({"model": "gpt-5.2"})),
        turn_context("t3", "gpt-5.2"),
        done,
    ]);
    lines.extend(third);
    lines.extend(user_turn(
        "t4",
        "gpt-5.2",
        &[world_patch(json!({"model": "gpt-5.4"}))],
        "fourth question",
        "fourth answer",
    ));
    lines.extend(tail.iter().cloned());
    lines
}

#[test]
fn streaming_resume_agrees_with_read_then_reconstruct_around_compactions() {
    let cases = [
        ("compaction kept", compacted_rollout(&[])),
        (
            "rollback to the compaction's turn",
            compacted_rollout(&[rolled_back(1)]),
        ),
        // Undoing the compaction's turn needs the lines before it: they are read again.
        (
            "rollback past the compaction",
            compacted_rollout(&[rolled_back(2)]),
        ),
        (
            "rollback past the compaction, then a turn",
            compacted_rollout(
                &[
                    vec![rolled_back(3)],
                    user_turn("t5", "gpt-5.4", &[], "fifth question", "fifth answer"),
                ]
                .concat(),
            ),
        ),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, lines) in cases {
        let path = dir.path().join("rollout.jsonl");
        std::fs::write(&path, jsonl(&lines)).expect("write");
        let loaded = codex_rollout::read_rollout(&path, None).expect("read");
        let resumed = codex_rollout::resume_rollout(&path, None).expect("resume");
        let expected = codex_rollout::ResumedRollout {
            warnings: loaded.warnings.clone(),
            ..codex_rollout::ResumedRollout::of_lines(&loaded.lines)
        };
        assert_eq!(resumed, expected, "{name}");
        assert_eq!(
            resumed.session.warnings,
            vec![ReconstructWarning::PatchWithoutBase { line_number: 1 }],
            "{name}"
        );
    }
}

/// The context window a resumed thread is in is the one its newest compaction that no rollback
/// dropped opened; a compaction without a window number names none.
#[test]
fn the_newest_surviving_compaction_names_the_context_window() {
    let windowed = |number: u64, id: &str, previous: &str| {
        line(
            "compacted",
            json!({
                "message": "S",
                "replacement_history": [message_item("user", "first")],
                "window_number": number,
                "first_window_id": "w0",
                "previous_window_id": previous,
                "window_id": id,
            }),
        )
    };
    let mut lines = vec![session_meta("t")];
    lines.extend(user_turn("t1", "gpt-5.5", &[], "first", "ok"));
    lines.extend([
        task_started("c1"),
        windowed(1, "w1", "w0"),
        task_complete("c1"),
    ]);
    lines.extend(user_turn("t2", "gpt-5.5", &[], "second", "ok"));
    let session = reconstruct(&load(&jsonl(&lines)));
    let expected = codex_rollout::ContextWindow {
        number: 1,
        id: "w1".to_string(),
        previous_id: Some("w0".to_string()),
    };
    assert_eq!(session.context_window, Some(expected.clone()));

    // A second compaction inside a turn that is rolled back leaves the thread in the first one.
    lines.extend([
        task_started("t3"),
        message("user", "third"),
        windowed(2, "w2", "w1"),
    ]);
    lines.extend([task_complete("t3"), rolled_back(1)]);
    let session = reconstruct(&load(&jsonl(&lines)));
    assert_eq!(session.context_window, Some(expected));

    let mut plain = vec![session_meta("t")];
    plain.extend(user_turn("t1", "gpt-5.5", &[], "first", "ok"));
    plain.push(compacted("S", Some(vec![message_item("user", "first")])));
    assert_eq!(reconstruct(&load(&jsonl(&plain))).context_window, None);
}
