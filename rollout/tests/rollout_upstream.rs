//! Every rollout written by upstream Codex (under `$CODEX_UPSTREAM_FIXTURES/captures`) loads
//! without a damaged line and reconstructs; at every turn start, the history rebuilt from the
//! lines before it is a prefix of a request the capture recorded. Ignored unless run with
//! `-- --ignored`, which needs the variable.

#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::path::PathBuf;

use codex_fragments::is_contextual_text;
use codex_fragments::is_user_turn_boundary;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_rollout::LoadedRollout;
use codex_rollout::ReconstructedSession;
use codex_rollout::read_rollout;
use codex_rollout::reconstruct;
use codex_rollout::resume_rollout;
use pretty_assertions::assert_eq;
use serde_json::Map;
use serde_json::Value;

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("read dir")
        .map(|entry| entry.expect("entry").path())
        .collect();
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("file name")
        .to_string_lossy()
        .into_owned()
}

/// Request items and rollout items differ in ids and harness metadata; both sides go through
/// the same typed round trip so serialization details cannot cause a mismatch either.
fn normalized(item: &ResponseItem) -> Value {
    let mut value = serde_json::to_value(item).expect("serialize");
    if let Some(object) = value.as_object_mut() {
        object.remove("id");
        object.remove("internal_chat_message_metadata_passthrough");
    }
    value
}

fn request_inputs(folder: &Path) -> Vec<Vec<Value>> {
    sorted_entries(folder)
        .into_iter()
        .filter(|path| file_name(path).starts_with("request-"))
        .map(|path| {
            let body: Value =
                serde_json::from_str(&fs::read_to_string(&path).expect("request")).expect("json");
            body["input"]
                .as_array()
                .expect("input array")
                .iter()
                .map(|item| {
                    normalized(&serde_json::from_value(item.clone()).expect("request item"))
                })
                .collect()
        })
        .collect()
}

/// Independent replay of the raw lines: last full snapshot plus later patches, reset by
/// compactions.
fn naive_baseline(path: &Path) -> Option<Value> {
    let mut baseline: Option<Value> = None;
    for text in fs::read_to_string(path).expect("rollout").lines() {
        let line: Value = serde_json::from_str(text).expect("line");
        match line["type"].as_str() {
            Some("compacted") => baseline = None,
            Some("world_state") if line["payload"]["full"] == Value::Bool(true) => {
                baseline = Some(line["payload"]["state"].clone());
            }
            Some("world_state") => {
                if let Some(current) = baseline.as_mut() {
                    json_patch::merge(current, &line["payload"]["state"]);
                }
            }
            _ => {}
        }
    }
    baseline
}

struct Boundaries {
    checked: usize,
    empty: usize,
    matched: usize,
    mismatches: Vec<String>,
}

/// At each `task_started`, the history rebuilt from the earlier lines must be a prefix of one of
/// the capture's requests.
fn check_turn_boundaries(
    name: &str,
    loaded: &LoadedRollout,
    requests: &[Vec<Value>],
) -> Boundaries {
    let mut result = Boundaries {
        checked: 0,
        empty: 0,
        matched: 0,
        mismatches: Vec::new(),
    };
    for (index, line) in loaded.lines.iter().enumerate() {
        if line.line.item.event_msg_type() != Some("task_started") {
            continue;
        }
        let prefix = LoadedRollout {
            lines: loaded.lines[..index].to_vec(),
            warnings: Vec::new(),
        };
        let history: Vec<Value> = reconstruct(&prefix)
            .history
            .iter()
            .map(normalized)
            .collect();
        if history.is_empty() {
            result.empty += 1;
            continue;
        }
        result.checked += 1;
        if requests
            .iter()
            .any(|input| input.len() > history.len() && input[..history.len()] == history[..])
        {
            result.matched += 1;
        } else {
            result
                .mismatches
                .push(format!("{name} line {}", line.line_number));
        }
    }
    result
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_upstream_rollout_loads_and_resumes() {
    let captures = upstream_fixtures::captures();
    let mut rollouts = 0;
    let mut totals = Boundaries {
        checked: 0,
        empty: 0,
        matched: 0,
        mismatches: Vec::new(),
    };
    let mut per_suite: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for folder in sorted_entries(&captures)
        .into_iter()
        .filter(|path| path.is_dir())
    {
        let requests = request_inputs(&folder);
        for path in sorted_entries(&folder)
            .into_iter()
            .filter(|path| file_name(path).starts_with("rollout-"))
        {
            rollouts += 1;
            let name = format!("{}/{}", file_name(&folder), file_name(&path));
            let loaded = read_rollout(&path, None).expect("readable");
            assert_eq!(loaded.warnings, Vec::new(), "{name}");
            let text = fs::read_to_string(&path).expect("rollout");
            let reference: Vec<RolloutLine> = text
                .lines()
                .map(|line| serde_json::from_str(line).expect("protocol deserializer"))
                .collect();
            assert_eq!(
                loaded
                    .lines
                    .iter()
                    .map(|loaded| loaded.line.clone())
                    .collect::<Vec<_>>(),
                reference,
                "{name}: every line loads, as the protocol's own deserializer reads it"
            );

            let session = reconstruct(&loaded);
            assert_eq!(session.warnings, Vec::new(), "{name}");
            let resumed = resume_rollout(&path, None).expect("resume");
            assert_eq!(resumed.session, session, "{name}: resume path agrees");
            assert_eq!(resumed.warnings, Vec::new(), "{name}");
            assert!(session.session_meta.is_some(), "{name}");
            assert!(session.base_instructions.is_some(), "{name}");
            let had_turns = loaded.items().any(|item| {
                matches!(item, RolloutItem::ResponseItem(item) if is_user_turn_boundary(item))
            });
            if had_turns {
                assert!(!session.history.is_empty(), "{name}: history");
                assert!(session.last_model().is_some(), "{name}: last model");
            }
            let expected = naive_baseline(&path)
                .map(|state| serde_json::from_value(state).expect("baseline map"));
            assert_eq!(session.world_state_baseline, expected, "{name}: baseline");

            let boundaries = check_turn_boundaries(&name, &loaded, &requests);
            let suite = file_name(&folder)
                .split('.')
                .next()
                .unwrap_or_default()
                .to_string();
            let entry = per_suite.entry(suite).or_default();
            entry.0 += boundaries.matched;
            entry.1 += boundaries.checked;
            totals.checked += boundaries.checked;
            totals.empty += boundaries.empty;
            totals.matched += boundaries.matched;
            totals.mismatches.extend(boundaries.mismatches);
        }
    }
    eprintln!(
        "{rollouts} upstream rollouts loaded; turn starts with a non-empty rebuilt history: {} \
         ({} matched a captured request prefix); turn starts with empty history: {}",
        totals.checked, totals.matched, totals.empty
    );
    for (suite, (matched, checked)) in &per_suite {
        eprintln!("  {suite}: {matched}/{checked}");
    }
    for mismatch in &totals.mismatches {
        eprintln!("  no request starts with the rebuilt history: {mismatch}");
    }
    assert_eq!(rollouts, 62);
    assert_eq!(totals.mismatches, Vec::<String>::new());
}

/// One line per history item: role, then the first line of a context fragment, short texts
/// verbatim, and only the size and last line of long ones (no upstream prose is kept).
fn summary(session: &ReconstructedSession) -> String {
    let mut out = String::new();
    let meta = session.session_meta.as_ref().expect("meta");
    writeln!(out, "thread: {}", meta.id).expect("write");
    writeln!(out, "forked_from: {:?}", meta.forked_from_id).expect("write");
    let instructions = session.base_instructions.as_ref().expect("instructions");
    writeln!(
        out,
        "base_instructions: {} bytes, provenance {}",
        instructions.text.len(),
        serde_json::to_string(&instructions.provenance).expect("json")
    )
    .expect("write");
    writeln!(out, "last_model: {:?}", session.last_model()).expect("write");
    writeln!(
        out,
        "reference_context_item: {:?}",
        session
            .reference_context_item
            .as_ref()
            .map(|context| (context.turn_id.clone(), context.model.clone()))
    )
    .expect("write");
    writeln!(
        out,
        "world_state_baseline: {:?}",
        session
            .world_state_baseline
            .as_ref()
            .map(|baseline| baseline.keys().cloned().collect::<Vec<_>>())
    )
    .expect("write");
    writeln!(out, "history:").expect("write");
    for (index, item) in session.history.iter().enumerate() {
        let description = match item {
            ResponseItem::Message { role, content, .. } => {
                let text: String = content
                    .iter()
                    .map(|part| match part {
                        ContentItem::InputText { text } | ContentItem::OutputText { text, .. } => {
                            text.as_str()
                        }
                        ContentItem::InputImage { .. }
                        | ContentItem::InputAudio { .. }
                        | ContentItem::Other(_) => "<non-text>",
                    })
                    .collect::<Vec<_>>()
                    .join(" | ");
                let contextual = is_contextual_text(role, &text);
                let first_line = text.lines().next().unwrap_or_default();
                let shown = if contextual {
                    format!(
                        "[context] {}",
                        first_line.chars().take(48).collect::<String>()
                    )
                } else if text.len() <= 48 && !text.contains('\n') {
                    format!("{text:?}")
                } else {
                    let last_line = text.lines().last().unwrap_or_default();
                    format!(
                        "[{} bytes] ...{:?}",
                        text.len(),
                        last_line.chars().take(48).collect::<String>()
                    )
                };
                format!("{role} {shown}")
            }
            other => other.item_type().to_string(),
        };
        writeln!(out, "  {index:02} {description}").expect("write");
    }
    out
}

fn snapshot_rollouts(folder: &str) -> Vec<(String, String)> {
    let captures = upstream_fixtures::captures();
    sorted_entries(&captures.join(folder))
        .into_iter()
        .filter(|path| file_name(path).starts_with("rollout-"))
        .map(|path| {
            let session = reconstruct(&read_rollout(&path, None).expect("read"));
            (file_name(&path), summary(&session))
        })
        .collect()
}

fn joined(rollouts: Vec<(String, String)>) -> String {
    assert!(!rollouts.is_empty(), "the scenario has no rollout");
    rollouts
        .into_iter()
        .map(|(name, summary)| format!("== {name}\n{summary}"))
        .collect()
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn snapshot_compact_resume_and_fork() {
    let text = joined(snapshot_rollouts(
        "compact_resume_fork.compact_resume_and_fork_preserve_model_history_view",
    ));
    insta::assert_snapshot!("compact_resume_and_fork", text);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn snapshot_rollback_past_compaction() {
    let text = joined(snapshot_rollouts(
        "compact_resume_fork.snapshot_rollback_past_compaction_replays_append_only_history",
    ));
    insta::assert_snapshot!("rollback_past_compaction", text);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn snapshot_rollback_followup_trims_context_updates() {
    let text = joined(snapshot_rollouts(
        "compact_resume_fork.snapshot_rollback_followup_turn_trims_context_updates",
    ));
    insta::assert_snapshot!("rollback_followup", text);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn snapshot_resume_switching_models() {
    let text = joined(snapshot_rollouts(
        "resume.resume_switches_models_preserves_base_instructions",
    ));
    insta::assert_snapshot!("resume_switches_models", text);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn snapshot_forks_of_forks() {
    let text = joined(snapshot_rollouts(
        "fork_thread.fork_thread_twice_drops_to_first_message",
    ));
    insta::assert_snapshot!("fork_thread_twice", text);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_rollout_fields_survive_the_writer() {
    // Rewriting a loaded upstream rollout through our writer keeps every line's JSON value.
    let captures = upstream_fixtures::captures();
    let folder = captures.join("fork_thread.copied_paginated_fork_persists_inherited_history");
    let path = sorted_entries(&folder)
        .into_iter()
        .find(|path| file_name(path).starts_with("rollout-"))
        .expect("rollout");
    let loaded = read_rollout(&path, None).expect("read");
    let home = tempfile::tempdir().expect("tempdir");
    let out = home.path().join("copy.jsonl");
    fs::write(&out, "").expect("create");
    let mut writer =
        codex_rollout::RolloutWriter::open_existing(&out, codex_rollout::LineOrdinals::Omitted)
            .expect("open");
    for loaded_line in &loaded.lines {
        writer.append_line(&loaded_line.line).expect("append");
    }
    let values = |path: &Path| -> Vec<Map<String, Value>> {
        fs::read_to_string(path)
            .expect("read")
            .lines()
            .map(|line| serde_json::from_str(line).expect("json"))
            .collect()
    };
    assert_eq!(values(&out), values(&path));
}
