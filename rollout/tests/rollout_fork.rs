//! Forking a loaded rollout: the child's lines and the baseline it starts from.

#![allow(clippy::expect_used)]

mod rollout_support;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_rollout::ForkBaseline;
use codex_rollout::ForkPoint;
use codex_rollout::fork;
use codex_rollout::reconstruct;
use pretty_assertions::assert_eq;
use rollout_support::*;
use serde_json::Value;
use serde_json::json;

fn child_meta(parent: &str) -> SessionMeta {
    let mut meta: SessionMeta = serde_json::from_value(json!({
        "id": "child", "timestamp": TIMESTAMP, "cwd": "/work",
        "base_instructions": {"text": "Recorded base instructions."}
    }))
    .expect("meta");
    meta.forked_from_id = Some(parent.to_string());
    meta
}

#[test]
fn full_history_fork_keeps_the_parent_baseline() {
    let parent = load(&jsonl(&two_turn_rollout()));
    let forked = fork(
        parent.clone(),
        child_meta("thread-1"),
        TIMESTAMP,
        ForkPoint::FullHistory,
    );
    let parent_session = reconstruct(&parent);

    assert_eq!(forked.baseline(), ForkBaseline::Inherited);
    assert_eq!(forked.rollout.lines.len(), parent.lines.len() + 1);
    let metas: Vec<&str> = forked
        .rollout
        .items()
        .filter_map(|item| {
            let RolloutItem::SessionMeta(meta) = item else {
                return None;
            };
            Some(meta.id.as_str())
        })
        .collect();
    assert_eq!(metas, vec!["child", "thread-1"]);
    assert_eq!(forked.session.history, parent_session.history);
    assert_eq!(
        forked.session.reference_context_item,
        parent_session.reference_context_item
    );
    assert_eq!(
        forked.session.world_state_baseline,
        parent_session.world_state_baseline
    );
    assert_eq!(
        forked.session.session_meta.map(|meta| meta.id),
        Some("child".to_string())
    );
}

#[test]
fn fork_before_a_later_user_message_keeps_the_earlier_turn_baseline() {
    let parent = load(&jsonl(&two_turn_rollout()));
    let forked = fork(
        parent.clone(),
        child_meta("thread-1"),
        TIMESTAMP,
        ForkPoint::BeforeUserMessage(1),
    );
    assert_eq!(forked.baseline(), ForkBaseline::Inherited);
    assert_eq!(reference_turn(&forked.session), Some("t1"));
    // The cut falls right before "second question": the second turn's opening lines stay.
    let last = &forked.rollout.lines.last().expect("lines").line.item;
    assert_eq!(last.line_type(), "turn_context");
    assert_eq!(
        forked.session.history.last(),
        items(&[message_item(
            "user",
            "<environment_context>\n  <cwd>/work/sub</cwd>\n</environment_context>"
        )])
        .last()
    );
    let numbers: Vec<usize> = forked.rollout.lines.iter().map(|l| l.line_number).collect();
    assert_eq!(
        numbers,
        (1..=forked.rollout.lines.len()).collect::<Vec<_>>()
    );
}

#[test]
fn fork_before_the_first_user_message_rebuilds_full_context() {
    let parent = load(&jsonl(&two_turn_rollout()));
    let forked = fork(
        parent.clone(),
        child_meta("thread-1"),
        TIMESTAMP,
        ForkPoint::BeforeUserMessage(0),
    );
    assert_eq!(forked.baseline(), ForkBaseline::RebuildFullContext);
    assert_eq!(forked.session.reference_context_item, None);
}

#[test]
fn fork_past_the_last_user_message_keeps_everything_and_counts_rollbacks() {
    let mut lines = two_turn_rollout();
    lines.push(rolled_back(1));
    let parent = load(&jsonl(&lines));
    // Only one user message survives the rollback, so index 1 is past the end.
    let forked = fork(
        parent.clone(),
        child_meta("thread-1"),
        TIMESTAMP,
        ForkPoint::BeforeUserMessage(1),
    );
    assert_eq!(forked.rollout.lines.len(), parent.lines.len() + 1);
    assert_eq!(reference_turn(&forked.session), Some("t1"));
}

#[test]
fn fork_renumbers_ordinals_of_paginated_rollouts() {
    let numbered: Vec<String> = two_turn_rollout()
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let mut value: Value = serde_json::from_str(text).expect("line");
            value["ordinal"] = json!(index);
            value.to_string()
        })
        .collect();
    let forked = fork(
        load(&jsonl(&numbered)),
        child_meta("thread-1"),
        TIMESTAMP,
        ForkPoint::FullHistory,
    );
    let ordinals: Vec<Option<u64>> = forked
        .rollout
        .lines
        .iter()
        .map(|loaded| loaded.line.ordinal)
        .collect();
    assert_eq!(
        ordinals,
        (0..=numbered.len() as u64).map(Some).collect::<Vec<_>>()
    );
}
