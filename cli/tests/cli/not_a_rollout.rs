//! A file that is not a rollout at all gets one error naming it; a rollout with a few damaged
//! lines still loads, with a warning per damaged line.

use std::path::Path;

use codex_rollout::JSON_PROBE_LINES;
use pretty_assertions::assert_eq;

use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::write;

/// 200 lines of bytes that are neither UTF-8 nor JSON.
fn binary_garbage(dir: &Path) -> std::path::PathBuf {
    let mut bytes: Vec<u8> = Vec::new();
    for line in 0..200u32 {
        bytes.extend((0..64u32).map(|byte| ((line * 31 + byte * 7) % 256) as u8 | 0x80));
        bytes.push(b'\n');
    }
    let path = dir.join("garbage.jsonl");
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn binary_garbage_is_one_error_for_every_command_that_reads_a_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let garbage = binary_garbage(dir.path());
    let reason = format!("not a rollout: no JSON line in the first {JSON_PROBE_LINES} lines");
    let named = format!("{}: {reason}", garbage.display());
    assert_user_error(
        &run(&["session", "resume", arg(&garbage), "--user", "x"]),
        &named,
    );
    assert_user_error(
        &run(&["session", "fork", arg(&garbage), "--user", "x"]),
        &named,
    );
    assert_user_error(
        &run(&["inspect", arg(&garbage)]),
        &format!("cannot inspect {}: {named}", garbage.display()),
    );
}

/// The text of the rollout `session run` records in `dir` for a pinned script playing `turns`
/// (a JSON array of turn objects).
pub fn recorded_rollout_text(dir: &Path, turns: &str) -> String {
    let script = write(
        dir,
        "script.json",
        &format!(
            r#"{{"session": {{"current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 1}}, "turns": {turns}}}"#
        ),
    );
    let recorded = dir.join("recorded.jsonl");
    let written = run(&["session", "run", arg(&script), "--rollout", arg(&recorded)]);
    assert_eq!(written.code, Some(0), "{written:?}");
    std::fs::read_to_string(&recorded).expect("rollout")
}

#[test]
fn a_rollout_with_a_few_damaged_lines_still_loads_with_their_line_numbers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = recorded_rollout_text(
        dir.path(),
        r#"[{"user": "one", "assistant": "1"}, {"user": "two", "assistant": "2"}]"#,
    );
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "garbage here");
    lines.insert(6, "\u{1}\u{2} more garbage");
    let damaged = write(dir.path(), "damaged.jsonl", &(lines.join("\n") + "\n"));
    let inspected = run(&["inspect", arg(&damaged)]);
    assert_eq!(inspected.code, Some(0), "{}", inspected.stderr);
    let warnings: Vec<&str> = inspected
        .stdout
        .lines()
        .filter(|line| line.starts_with("warning: "))
        .collect();
    assert_eq!(
        warnings,
        vec![
            "warning: line 3: not valid JSON: expected value (column 1)",
            "warning: line 7: not valid JSON: expected value (column 1)",
        ]
    );
}
