//! Injected-context recognition on upstream's own rollouts (which record no content kinds, so
//! the marker rules decide): the user messages recognised as real are exactly those upstream
//! reported as `user_message` events, and every developer message upstream recorded is
//! recognised as context. Needs `CODEX_UPSTREAM_FIXTURES` (ignored without it; run with
//! `-- --ignored`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::PathBuf;

use codex_fragments::is_contextual_developer_message;
use codex_fragments::is_user_turn_boundary;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use pretty_assertions::assert_eq;

fn rollouts() -> Vec<(PathBuf, Vec<RolloutLine>)> {
    let mut files = Vec::new();
    for folder in std::fs::read_dir(upstream_fixtures::captures()).expect("captures") {
        let folder = folder.expect("entry").path();
        if !folder.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&folder).expect("capture folder") {
            let path = file.expect("entry").path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("rollout-") && name.ends_with(".jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("rollout");
            let lines = text
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| serde_json::from_str(line).expect("rollout line"))
                .collect();
            (path, lines)
        })
        .collect()
}

fn text_of(item: &ResponseItem) -> String {
    match item {
        ResponseItem::Message { content, .. } => content
            .iter()
            .filter_map(ContentItem::text)
            .collect::<Vec<_>>()
            .join(""),
        other => other.item_type().to_string(),
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn real_user_messages_are_the_ones_upstream_reported() {
    let rollouts = rollouts();
    let mut checked = 0;
    for (path, lines) in rollouts {
        let recognised: Vec<String> = lines
            .iter()
            .filter_map(|line| match &line.item {
                RolloutItem::ResponseItem(item) if is_user_turn_boundary(item) => {
                    Some(text_of(item))
                }
                _ => None,
            })
            .collect();
        let reported: Vec<String> = lines
            .iter()
            .filter(|line| line.item.event_msg_type() == Some("user_message"))
            .filter_map(|line| match &line.item {
                RolloutItem::Other { payload, .. } => {
                    payload["message"].as_str().map(str::to_string)
                }
                _ => None,
            })
            .collect();
        // Threads forked from in-memory history copy its items without their events.
        if reported.is_empty() {
            continue;
        }
        checked += 1;
        assert_eq!(recognised, reported, "{}", path.display());
    }
    assert!(
        checked > 40,
        "only {checked} rollouts had user_message events"
    );
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_upstream_developer_message_is_context() {
    let rollouts = rollouts();
    for (path, lines) in rollouts {
        for line in &lines {
            if let RolloutItem::ResponseItem(item @ ResponseItem::Message { role, .. }) = &line.item
                && role == "developer"
            {
                assert!(
                    is_contextual_developer_message(item),
                    "{}: {}",
                    path.display(),
                    text_of(item).chars().take(120).collect::<String>()
                );
            }
        }
    }
}
