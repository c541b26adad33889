//! Wire compatibility with upstream's recorded request bodies and rollouts (read via
//! `CODEX_UPSTREAM_FIXTURES`): every captured item and line must survive a typed round trip with
//! identical bytes, key order included.

// A test crate: a broken or missing fixture should fail loudly, so helpers unwrap too.
#![allow(clippy::unwrap_used)]

mod upstream_fixtures;

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use pretty_assertions::assert_eq;

/// Files in the scenario folders whose name starts with `prefix`, sorted for stable reports.
fn capture_files(captures: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for scenario in std::fs::read_dir(captures).unwrap() {
        let scenario = scenario.unwrap().path();
        if !scenario.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&scenario).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with(prefix) {
                files.push(file);
            }
        }
    }
    files.sort();
    files
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_captured_request_input_item_round_trips_byte_for_byte() {
    let captures = upstream_fixtures::captures();
    let mut mismatches = Vec::new();
    let mut items_by_type: BTreeMap<String, usize> = BTreeMap::new();
    let files = capture_files(&captures, "request-");
    assert!(!files.is_empty());
    for file in files {
        let body: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let input = body["input"].as_array().unwrap();
        for (index, raw) in input.iter().enumerate() {
            let item: ResponseItem = serde_json::from_value(raw.clone()).unwrap();
            *items_by_type
                .entry(item.item_type().to_string())
                .or_default() += 1;
            let expected = serde_json::to_string(raw).unwrap();
            let actual = serde_json::to_string(&item).unwrap();
            if actual != expected {
                mismatches.push(format!(
                    "{}[{index}]\n  expected {expected}\n  actual   {actual}",
                    file.display()
                ));
            }
        }
    }
    assert_eq!(mismatches, Vec::<String>::new());
    assert_eq!(items_by_type.get("other"), None);
    assert!(items_by_type.get("message").copied().unwrap_or_default() > 0);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_captured_rollout_line_round_trips_byte_for_byte() {
    let captures = upstream_fixtures::captures();
    let mut mismatches = Vec::new();
    let mut lines_by_type: BTreeMap<String, usize> = BTreeMap::new();
    let files = capture_files(&captures, "rollout-");
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let raw: serde_json::Value = serde_json::from_str(line).unwrap();
            let parsed: RolloutLine = match serde_json::from_str(line) {
                Ok(parsed) => parsed,
                Err(error) => {
                    mismatches.push(format!("{}:{}: {error}", file.display(), number + 1));
                    continue;
                }
            };
            let kind = match &parsed.item {
                RolloutItem::Other { line_type, .. } => format!("raw:{line_type}"),
                typed => typed.line_type().to_string(),
            };
            *lines_by_type.entry(kind).or_default() += 1;
            let expected = serde_json::to_string(&raw).unwrap();
            let actual = serde_json::to_string(&parsed).unwrap();
            if actual != expected {
                mismatches.push(format!(
                    "{}:{}\n  expected {expected}\n  actual   {actual}",
                    file.display(),
                    number + 1
                ));
            }
        }
    }
    assert_eq!(mismatches, Vec::<String>::new());
    // Only event lines are left raw; every other line type in the captures is modelled.
    assert_eq!(
        lines_by_type.keys().cloned().collect::<Vec<_>>(),
        vec![
            "compacted".to_string(),
            "raw:event_msg".to_string(),
            "response_item".to_string(),
            "session_meta".to_string(),
            "turn_context".to_string(),
            "world_state".to_string(),
        ]
    );
}
