//! `edit` and `rewrite_rollout` steps (`examples/sessions/edits.json`): files changed between
//! turns and a rollout rewritten before a resume, on a temporary copy of the scenario folder.
//! The next thread (the fork, the resumed thread) reads the edited AGENTS.md; the thread that
//! loaded it goes on with what it loaded (the fourth request adds nothing).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use std::path::Path;

use codex_script::CodexHome;
use codex_script::ContextMode;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::render_requests_layout;
use codex_script::run_script;
use pretty_assertions::assert_eq;
use script_support::*;
use serde_json::Value;

/// Held by the tests that copy `edits/`: a run at the same time as another gets a copy of its
/// own (another path in its requests), so the runs compared here take turns.
static EDITS_COPY: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every file under `dir` with its bytes, sorted by path.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    found.sort();
    found
}

/// The AGENTS.md fragments of a request body, their directory label left out.
fn agents_md_texts(body: &Value) -> Vec<String> {
    body["input"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|item| item["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|content| content["text"].as_str().map(str::to_string))
        .filter(|text| text.starts_with("# AGENTS.md instructions"))
        .map(|text| match text.split_once("\n\n") {
            Some((_, rest)) => format!("# AGENTS.md instructions for <DIR>\n\n{rest}"),
            None => text,
        })
        .collect()
}

#[test]
fn edits_and_rewrites_change_what_the_next_thread_reads() {
    let _turn = EDITS_COPY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let script = example("edits");
    let folder = examples_dir().join("edits");
    let before = files(&folder);
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(files(&folder), before, "the checked-in files never change");
    assert_eq!(run.forks.len(), 1);
    insta::assert_snapshot!("edits", render_requests_layout(&run.requests).unwrap());
    let fragments: Vec<String> = run
        .requests
        .iter()
        .enumerate()
        .map(|(index, request)| {
            let body = serde_json::to_value(&request.body).unwrap();
            format!(
                "## Request {}\n{}",
                index + 1,
                agents_md_texts(&body).join("\n--\n")
            )
        })
        .collect();
    insta::assert_snapshot!("edits_agents_md", fragments.join("\n\n"));
    // The fork's rollout, as rewritten before the resume: no world-state record keeps the
    // `agents_md` section any more, up to the one the resumed turn wrote.
    let sections: Vec<String> = run.forks[0]
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .filter(|line| line["type"] == "world_state")
        .map(|line| {
            let state = line["payload"]["state"].as_object().unwrap();
            format!(
                "full={} agents_md={}",
                line["payload"]["full"],
                state.get("agents_md").map_or("-".to_string(), |section| {
                    section["text"].as_str().unwrap_or_default().to_string()
                })
            )
        })
        .collect();
    insta::assert_snapshot!("edits_world_state", sections.join("\n"));
    // Runs one after the other copy the folder to the same place: the same requests (up to
    // the copy's number, should another process hold the first place meanwhile).
    let again = script_support::run(&script, ContextMode::Diffs);
    assert_eq!(without_copy_number(&run), without_copy_number(&again));
}

/// The run's requests and rollout as JSON text, `codex-script-edits-N` with N left out.
fn without_copy_number(run: &codex_script::ScriptRun) -> String {
    let bodies: Vec<&codex_core::ResponsesRequest> =
        run.requests.iter().map(|request| &request.body).collect();
    let text = serde_json::to_string_pretty(&(bodies, &run.rollout, &run.forks)).unwrap();
    let mut parts = text.split("codex-script-edits-");
    let mut kept = parts.next().unwrap_or_default().to_string();
    for part in parts {
        kept.push_str("codex-script-edits-N");
        kept.push_str(part.trim_start_matches(|c: char| c.is_ascii_digit()));
    }
    kept
}

#[test]
fn edit_steps_refuse_what_they_cannot_do_safely() {
    let _turn = EDITS_COPY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let error = |text: &str, codex_home: CodexHome| {
        let script = script(text);
        let env = codex_script::SessionEnvironment {
            codex_home,
            ..environment(&script)
        };
        run_script(
            &script,
            &env,
            ScriptStart::Beginning,
            ScriptSink::memory(),
            ContextMode::Diffs,
            &mut ScriptedReplies,
        )
        .expect_err("refused")
        .to_string()
    };
    // `script.json` has no `script/` folder beside it to copy.
    assert_eq!(
        error(
            r#"{"session": {"cwd": "edits/project"}, "turns": [{"user": "a"}, {"edit": {"cwd": "x", "write": "y"}, "user": "b"}]}"#,
            CodexHome::Isolated,
        ),
        format!(
            "script.json: a script with \"edit\" steps runs on a copy of its scenario folder {}, which is not a folder",
            examples_dir().join("script").display()
        )
    );
    let edits = example("edits");
    let with_turns = |turns: &str| {
        let text = std::fs::read_to_string(examples_dir().join("edits.json")).unwrap();
        let document: Value = serde_json::from_str(&text).unwrap();
        let mut document = document.as_object().unwrap().clone();
        document.insert("turns".into(), serde_json::from_str(turns).unwrap());
        codex_script::Script::parse(
            &Value::Object(document).to_string(),
            &examples_dir().join("edits.json").display().to_string(),
            &edits.base_dir,
        )
        .unwrap()
    };
    let refused = |script: codex_script::Script, codex_home: CodexHome| {
        let env = codex_script::SessionEnvironment {
            codex_home,
            ..environment(&script)
        };
        run_script(
            &script,
            &env,
            ScriptStart::Beginning,
            ScriptSink::memory(),
            ContextMode::Diffs,
            &mut ScriptedReplies,
        )
        .expect_err("refused")
        .to_string()
    };
    let name = examples_dir().join("edits.json").display().to_string();
    assert_eq!(
        refused(
            with_turns(
                r#"[{"user": "a"}, {"edit": {"codex_home": "AGENTS.md", "write": "y"}, "user": "b"}]"#
            ),
            CodexHome::Isolated,
        ),
        format!(
            "{name}: turns[1].edit: the run has no CODEX_HOME to edit (give one with --codex-home)"
        )
    );
    // A CODEX_HOME outside the scenario folder is not copied: editing it is refused.
    let home = tempfile::tempdir().unwrap();
    let message = refused(
        with_turns(
            r#"[{"user": "a"}, {"edit": {"codex_home": "AGENTS.md", "write": "y"}, "user": "b"}]"#,
        ),
        CodexHome::Dir(home.path().to_path_buf()),
    );
    assert!(
        message.starts_with(&format!("{name}: turns[1].edit: "))
            && message.ends_with("is outside the run's copy of the scenario folder"),
        "{message}"
    );
    assert!(!home.path().join("AGENTS.md").exists());
}

/// With a rollout file and the copy in a temporary file (what `session run --rollout` uses),
/// the rewrite reaches the file the run writes, and the resume reads the rewritten lines.
#[test]
fn a_rewrite_reaches_the_rollout_file_the_run_writes() {
    let text = r#"{"session": {"cwd": "edits/project", "project_root_markers": [".project-root"], "model": "gpt-5.5", "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 3},
        "turns": [{"user": "a"}, {"rewrite_rollout": {"drop_world_state_section": "agents_md"}, "resume": true, "user": "b"}]}"#;
    let script = script(text);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rollout.jsonl");
    let sink = ScriptSink::new_file(
        &path,
        codex_utils_fs::Existing::Refuse,
        codex_script::ReadBack::TemporaryFile,
    )
    .unwrap();
    run_script(
        &script,
        &environment(&script),
        ScriptStart::Beginning,
        sink,
        ContextMode::Diffs,
        &mut ScriptedReplies,
    )
    .unwrap();
    let sections: Vec<bool> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["type"] == "world_state")
        .map(|line| line["payload"]["state"].get("agents_md").is_some())
        .collect();
    // The first record lost the section; the resumed turn, reading a legacy rollout, records
    // it again.
    assert_eq!(sections, vec![false, true]);
}

/// `rewrite_checkpoint.json`: a compacted checkpoint given harness metadata before a resume.
/// The resumed thread replays the checkpoint's history; the metadata stays in the rollout and
/// out of every request.
#[test]
fn a_replaced_checkpoint_is_what_the_resume_reads() {
    let script = example("rewrite_checkpoint");
    let run = run(&script, ContextMode::Diffs);
    insta::assert_snapshot!(
        "rewrite_checkpoint",
        render_requests_layout(&run.requests).unwrap()
    );
    let checkpoints: Vec<String> = run
        .rollout
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .filter(|line| line["type"] == "compacted")
        .map(|line| {
            format!(
                "replacement_history: {} items, replacement_history_metadata: {}",
                line["payload"]["replacement_history"]
                    .as_array()
                    .map_or(0, Vec::len),
                line["payload"]["replacement_history_metadata"]
            )
        })
        .collect();
    insta::assert_snapshot!("rewrite_checkpoint_compacted", checkpoints.join("\n"));
    for request in &run.requests {
        let body = serde_json::to_string(&request.body).unwrap();
        assert!(!body.contains("client_authored"), "{body}");
    }
}
