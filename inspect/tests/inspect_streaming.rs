//! `inspect_file` walks a rollout while a thread reads it; `inspect_rollout` walks one loaded
//! whole. Both must give the same inspection, whatever the file holds: rollouts of this
//! project, of upstream's releases and hand-written legacy ones, and variants of them that take
//! the other paths of the streamed walk (no `session_meta`, a release only later lines tell,
//! lines before the `session_meta`, damaged and cut-short lines, a file ending right after a
//! model output, legacy compactions that need the lines before them).
#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::Path;
use std::path::PathBuf;

use codex_inspect::EntryTexts;
use codex_inspect::InspectOptions;
use codex_inspect::RequestKind;
use codex_inspect::inspect_file;
use codex_inspect::inspect_rollout;
use codex_inspect::render_text;
use codex_models_manager::ModelCatalog;
use codex_rollout::read_rollout_for_replay;
use pretty_assertions::assert_eq;

fn workspace_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Rollouts kept in the repository: a legacy upstream one, this project's, and two the 0.149.1
/// release wrote.
fn repository_rollouts() -> Vec<PathBuf> {
    [
        "inspect/tests/fixtures/inspect/legacy_upstream.jsonl",
        "script/tests/fixtures/inspect/every_fragment_type.jsonl",
        "cli/tests/fixtures/real_codex/0.149.1_gpt_5_5_read_only.jsonl",
        "cli/tests/fixtures/real_codex/0.149.1_reasoning_effort_high.jsonl",
    ]
    .into_iter()
    .map(workspace_file)
    .collect()
}

/// Checks that the streamed and the loaded inspection of `path` are equal, for every catalog
/// choice and with and without `--codex-version`.
fn assert_streamed_equals_loaded(path: &Path) {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let plain = InspectOptions::new(&catalog);
    let asked = InspectOptions {
        release: Some(codex_release::CodexRelease::V0_171),
        ..InspectOptions::new(&catalog)
    };
    for options in [plain, asked] {
        let loaded = read_rollout_for_replay(path, None).expect("read");
        let expected = inspect_rollout(&loaded, &options).expect("inspect loaded");
        let streamed = inspect_file(path, &options).expect("inspect streamed");
        assert_eq!(
            streamed,
            expected,
            "{} (release asked: {:?})",
            path.display(),
            options.release
        );
    }
}

/// The lines of `path` with `edit` applied, written to a file in `dir`.
fn variant(
    dir: &Path,
    path: &Path,
    name: &str,
    edit: impl FnOnce(&mut Vec<String>),
) -> Option<PathBuf> {
    let text = std::fs::read_to_string(path).expect("read rollout");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let before = lines.clone();
    edit(&mut lines);
    if lines == before {
        return None;
    }
    let stem = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or("rollout");
    let out = dir.join(format!("{stem}.{name}.jsonl"));
    let mut written = lines.join("\n");
    written.push('\n');
    std::fs::write(&out, written).expect("write variant");
    Some(out)
}

fn is_session_meta(line: &str) -> bool {
    line.contains("\"type\":\"session_meta\"") || line.contains("\"type\": \"session_meta\"")
}

/// A change to a rollout's lines.
type Edit = Box<dyn FnOnce(&mut Vec<String>)>;

/// Sets every `session_meta`'s `cli_version` to `version`.
fn with_cli_version(version: &'static str) -> Edit {
    Box::new(move |lines: &mut Vec<String>| {
        for line in lines.iter_mut().filter(|line| is_session_meta(line)) {
            let mut value: serde_json::Value = serde_json::from_str(line).expect("json");
            value["payload"]["cli_version"] = version.into();
            *line = value.to_string();
        }
    })
}

/// Variants of `path` that take the streamed walk's other paths.
fn variants(dir: &Path, path: &Path) -> Vec<PathBuf> {
    let edits: Vec<(&str, Edit)> = vec![
        (
            "no_meta",
            Box::new(|lines: &mut Vec<String>| lines.retain(|line| !is_session_meta(line))),
        ),
        ("known_version", with_cli_version("0.149.1")),
        ("unknown_version", with_cli_version("dev-build")),
        (
            "event_first",
            Box::new(|lines: &mut Vec<String>| {
                if lines.len() > 2 && is_session_meta(&lines[0]) {
                    lines.swap(0, 1);
                }
            }),
        ),
        (
            "damaged",
            Box::new(|lines: &mut Vec<String>| {
                let at = lines.len().min(3);
                lines.insert(at, "{not json".to_string());
                lines.insert(at, "[1, 2]".to_string());
                if let Some(last) = lines.last_mut() {
                    last.truncate(last.len() / 2);
                }
            }),
        ),
        (
            // Compactions as releases before replacement histories wrote them: the history
            // after one is rebuilt from the lines before it.
            "legacy_compactions",
            Box::new(|lines: &mut Vec<String>| {
                for line in lines.iter_mut() {
                    let mut value: serde_json::Value = match serde_json::from_str(line) {
                        Ok(value) => value,
                        Err(_) => continue,
                    };
                    if value["type"] == "compacted"
                        && let Some(payload) = value["payload"].as_object_mut()
                        && payload.remove("replacement_history").is_some()
                    {
                        *line = value.to_string();
                    }
                }
            }),
        ),
        (
            "ends_before_compaction",
            Box::new(|lines: &mut Vec<String>| {
                if let Some(at) = lines.iter().position(|line| line.contains("\"compacted\"")) {
                    lines.truncate(at);
                }
            }),
        ),
    ];
    edits
        .into_iter()
        .filter_map(|(name, edit)| variant(dir, path, name, edit))
        .collect()
}

#[test]
fn streamed_inspection_equals_the_loaded_one_for_repository_rollouts_and_their_variants() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut checked = 0;
    for path in repository_rollouts() {
        assert_streamed_equals_loaded(&path);
        checked += 1;
        for variant in variants(dir.path(), &path) {
            assert_streamed_equals_loaded(&variant);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} rollouts checked");
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn streamed_inspection_equals_the_loaded_one_for_upstream_captures() {
    let mut checked = 0;
    let mut scenarios: Vec<PathBuf> = std::fs::read_dir(upstream_fixtures::captures())
        .expect("captures")
        .map(|entry| entry.expect("entry").path())
        .collect();
    scenarios.sort();
    for scenario in scenarios {
        let Ok(files) = std::fs::read_dir(&scenario) else {
            continue;
        };
        let mut rollouts: Vec<PathBuf> = files
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
            .collect();
        rollouts.sort();
        for rollout in rollouts {
            assert_streamed_equals_loaded(&rollout);
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} rollouts checked");
}

/// A turn whose tool output filled the context: the model output right after it (before the
/// `compacted` line) answered the compaction's summary request, and the turn goes on after it.
fn mid_turn_compaction_rollout(dir: &Path) -> PathBuf {
    let line = |kind: &str, payload: serde_json::Value| {
        serde_json::json!({"timestamp": "2026-01-01T00:00:00.000Z", "type": kind, "payload": payload})
            .to_string()
    };
    let user = |text: &str| {
        serde_json::json!({"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": text}]})
    };
    let assistant = |text: &str| {
        serde_json::json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": text}]})
    };
    let call = |id: &str| {
        serde_json::json!({"type": "function_call", "name": "exec_command",
            "arguments": "{\"cmd\":\"ls\"}", "call_id": id})
    };
    let output = |id: &str| serde_json::json!({"type": "function_call_output", "call_id": id, "output": "a\nb"});
    let lines = [
        line(
            "session_meta",
            serde_json::json!({"id": "019a0000-0000-7000-8000-000000000001",
                "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/work", "originator": "codex_exec",
                "cli_version": "0.149.1", "model_provider": "openai",
                "base_instructions": {"text": "Be brief."}}),
        ),
        line(
            "event_msg",
            serde_json::json!({"type": "task_started", "turn_id": "t1"}),
        ),
        line("response_item", user("List the files.")),
        line("response_item", call("c1")),
        line("response_item", output("c1")),
        line(
            "event_msg",
            serde_json::json!({"type": "token_count", "info": null}),
        ),
        line("response_item", assistant("Summary: listed a and b.")),
        line(
            "compacted",
            serde_json::json!({"message": "", "replacement_history": [
                user("List the files."), assistant("Summary: listed a and b.")]}),
        ),
        line("response_item", call("c2")),
        line("response_item", output("c2")),
        line("response_item", assistant("Done.")),
        line(
            "event_msg",
            serde_json::json!({"type": "task_complete", "turn_id": "t1"}),
        ),
    ];
    let path = dir.join("mid_turn_compaction.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write rollout");
    path
}

#[test]
fn model_output_right_before_a_compacted_line_answered_the_compaction_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = mid_turn_compaction_rollout(dir.path());
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let options = InspectOptions::new(&catalog);
    let loaded = read_rollout_for_replay(&path, None).expect("read");
    for inspection in [
        inspect_file(&path, &options).expect("streamed"),
        inspect_rollout(&loaded, &options).expect("loaded"),
    ] {
        let requests: Vec<(RequestKind, usize, usize)> = inspection
            .requests
            .iter()
            .map(|request| (request.kind, request.step, request.line))
            .collect();
        assert_eq!(
            requests,
            vec![
                (RequestKind::Turn, 1, 4),
                (RequestKind::Compaction, 2, 7),
                (RequestKind::Turn, 3, 9),
                (RequestKind::Turn, 4, 11),
            ]
        );
    }
}

#[test]
fn an_inspection_keeping_previews_only_renders_the_same_text_report() {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    for path in repository_rollouts() {
        let whole = inspect_file(&path, &InspectOptions::new(&catalog)).expect("whole");
        let previews = InspectOptions {
            texts: EntryTexts::PreviewOnly,
            ..InspectOptions::new(&catalog)
        };
        let short = inspect_file(&path, &previews).expect("previews");
        assert_eq!(
            render_text(&short),
            render_text(&whole),
            "{}",
            path.display()
        );
        let kept: usize = short
            .requests
            .iter()
            .flat_map(|request| &request.items)
            .flat_map(|item| &item.entries)
            .map(|entry| entry.text.len())
            .sum();
        assert_eq!(kept, 0, "{}: whole texts kept", path.display());
    }
}
