//! Bad input to `session`: a one-line error with exit code 2, or a damaged rollout line that is
//! reported on stderr and skipped.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::write;

const SESSION: &str = r#""session": {"current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 1}"#;

fn run_script(dir: &Path, text: &str) -> Run {
    let script = write(dir, "script.json", text);
    run(&["session", "run", arg(&script)])
}

/// A rollout of a two-turn session in `dir`.
fn rollout(dir: &Path) -> (std::path::PathBuf, String) {
    let script = write(
        dir,
        "script.json",
        &format!(
            r#"{{{SESSION}, "turns": [{{"user": "one", "assistant": "1"}}, {{"user": "two", "assistant": "2"}}]}}"#
        ),
    );
    let rollout = dir.join("rollout.jsonl");
    let written = run(&["session", "run", arg(&script), "--rollout", arg(&rollout)]);
    assert_eq!(written.code, Some(0), "{written:?}");
    let text = std::fs::read_to_string(&rollout).expect("rollout");
    (rollout, text)
}

fn resume(rollout: &Path) -> Run {
    run(&[
        "session",
        "resume",
        arg(rollout),
        "--user",
        "three",
        "--format",
        "layout",
        "--set",
        "current_date=2026-11-30",
        "--set",
        "timezone=Etc/UTC",
    ])
}

#[test]
fn unknown_turn_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("script.json");
    let run = run_script(
        dir.path(),
        &format!(
            r#"{{{SESSION}, "turns": [{{"user": "a"}}, {{"user": "b"}}, {{"user": "c", "asistant": "d"}}]}}"#
        ),
    );
    assert_user_error(
        &run,
        &format!(
            "{}: turns[2]: unknown key \"asistant\" (expected one of: set, user, reasoning, \
             assistant, compact, resume, rollback, fork, edit, rewrite_rollout, time_reminder, shell, interrupt, hook_context, additional_context, \
             subagent_status, network_rule, approve_prefix, tool_calls, expect_failure)",
            script.display()
        ),
    );
}

#[test]
fn unknown_config_key_and_missing_cwd() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("script.json");
    assert_user_error(
        &run_script(
            dir.path(),
            r#"{"turns": [{"user": "a", "set": {"sandbox": "read-only"}}]}"#,
        ),
        &format!(
            "{}: turns[0].set: unknown key \"sandbox\"",
            script.display()
        ),
    );
    assert_user_error(
        &run_script(dir.path(), r#"{"session": {"cwd": "gone"}, "turns": []}"#),
        &format!(
            "{}: session.cwd: directory {} does not exist",
            script.display(),
            dir.path().join("gone").display()
        ),
    );
}

#[test]
fn unreadable_and_invalid_scripts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.json");
    assert_user_error(
        &run(&["session", "run", arg(&missing)]),
        &format!(
            "cannot read {}: No such file or directory (os error 2)",
            missing.display()
        ),
    );
    let script = dir.path().join("script.json");
    assert_user_error(
        &run_script(dir.path(), "{\"turns\": [\n"),
        &format!(
            "{}: invalid JSON: EOF while parsing a list at line 2 column 0",
            script.display()
        ),
    );
}

#[test]
fn unknown_set_key_on_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, _) = rollout(dir.path());
    assert_user_error(
        &run(&[
            "session",
            "resume",
            arg(&rollout),
            "--user",
            "x",
            "--set",
            "modle=gpt-5.5",
        ]),
        "--set modle=gpt-5.5: unknown key \"modle\"",
    );
}

#[test]
fn truncated_rollout_reports_and_skips_its_last_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    let intact = resume(&rollout);
    assert_eq!((intact.code, intact.stderr.as_str()), (Some(0), ""));
    // The writer stopped in the middle of the last line (the second turn's task_complete).
    let cut = dir.path().join("cut.jsonl");
    std::fs::write(&cut, &text[..text.len() - 20]).expect("write");
    let line_count = text.lines().count();
    let resumed = resume(&cut);
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    assert_eq!(resumed.stdout, intact.stdout);
    let warnings: Vec<&str> = resumed.stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{}", resumed.stderr);
    assert!(
        warnings[0].starts_with(&format!(
            "codex-context: warning: rollout line {line_count}: "
        )) && warnings[0].ends_with("; the line is skipped"),
        "{}",
        resumed.stderr
    );
}

#[test]
fn unknown_line_types_are_reported_and_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    let intact = resume(&rollout);
    let extended = dir.path().join("extended.jsonl");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(
        1,
        r#"{"timestamp":"2026-11-30T00:00:00.000Z","type":"brand_new_record","payload":{"anything":[1,2]}}"#,
    );
    lines.push(
        r#"{"timestamp":"2026-11-30T00:00:01.000Z","type":"brand_new_record","payload":null}"#,
    );
    std::fs::write(&extended, lines.join("\n") + "\n").expect("write");
    let resumed = resume(&extended);
    assert_eq!(
        (
            resumed.code,
            resumed.stdout.as_str(),
            resumed.stderr.as_str()
        ),
        (
            Some(0),
            intact.stdout.as_str(),
            "codex-context: warning: rollout line 2: unknown line type `brand_new_record` kept but ignored (2 in \
             all)\n"
        )
    );
}

#[test]
fn world_state_patch_without_a_base_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    let intact = resume(&rollout);
    let patched = dir.path().join("patched.jsonl");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(
        1,
        r#"{"timestamp":"2026-11-30T00:00:00.000Z","type":"world_state","payload":{"full":false,"state":{"model":"other"}}}"#,
    );
    std::fs::write(&patched, lines.join("\n") + "\n").expect("write");
    let resumed = resume(&patched);
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    // The later full record replaces the patch's target, so the request is unchanged.
    assert_eq!(resumed.stdout, intact.stdout);
    assert_eq!(
        resumed.stderr,
        "codex-context: warning: rollout line 2 is a world-state patch with no full snapshot before it; it is ignored\n"
    );
}

#[test]
fn recorded_cwd_that_is_gone() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gone = dir.path().join("gone");
    let rollout = write(
        dir.path(),
        "gone.jsonl",
        &format!(
            "{}\n{}\n",
            serde_json::json!({"timestamp": "2026-11-30T00:00:00.000Z", "type": "session_meta",
                "payload": {"id": "t", "timestamp": "2026-11-30T00:00:00.000Z", "cwd": gone}}),
            serde_json::json!({"timestamp": "2026-11-30T00:00:00.000Z", "type": "turn_context",
                "payload": {"cwd": gone, "approval_policy": "on-request",
                    "sandbox_policy": {"type": "read-only"}, "model": "gpt-5.5"}}),
        ),
    );
    // Not an error any more: the thread continues where it is told to, with one warning
    // (without a cwd, in the current directory: see resume_elsewhere.rs).
    let elsewhere = run(&[
        "session",
        "resume",
        arg(&rollout),
        "--user",
        "x",
        "--set",
        &format!("cwd={}", dir.path().display()),
    ]);
    assert_eq!(
        (elsewhere.code, elsewhere.stderr),
        (
            Some(0),
            format!(
                "codex-context: warning: the rollout's working directory {} does not exist here; continuing in {}\n",
                gone.display(),
                dir.path().display()
            )
        )
    );
}

#[test]
fn fork_refuses_to_replace_its_parent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    assert_user_error(
        &run(&[
            "session",
            "fork",
            arg(&rollout),
            "--user",
            "x",
            "--write",
            arg(&rollout),
        ]),
        &format!(
            "--write {}: that is the parent rollout this command reads; name another file",
            rollout.display()
        ),
    );
    assert_eq!(std::fs::read_to_string(&rollout).expect("rollout"), text);
}

/// An `edit` path that leaves its folder is refused before anything runs; a run with edits
/// leaves the files beside the script as they were.
#[test]
fn edit_steps_stay_in_the_copy_of_the_scenario_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("script.json");
    let escaping = run_script(
        dir.path(),
        &format!(
            r#"{{{SESSION}, "turns": [{{"user": "a"}}, {{"edit": {{"cwd": "../x", "write": "y"}}, "user": "b"}}]}}"#
        ),
    );
    assert_user_error(
        &escaping,
        &format!(
            "{}: turns[1].edit.cwd: \"../x\" leaves the folder: give a relative path without \"..\"",
            script.display()
        ),
    );
    write(&dir.path().join("script/project"), "AGENTS.md", "first");
    let edited = run_script(
        dir.path(),
        &format!(
            r#"{{{SESSION}, "turns": [{{"set": {{"cwd": "script/project"}}, "user": "a"}}, {{"edit": [{{"cwd": "AGENTS.md", "write": "second"}}, {{"cwd": "new/AGENTS.md", "write": "third"}}], "user": "b"}}]}}"#
        ),
    );
    assert_eq!(edited.code, Some(0), "{edited:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("script/project/AGENTS.md")).expect("file"),
        "first"
    );
    assert!(!dir.path().join("script/project/new").exists());
}
