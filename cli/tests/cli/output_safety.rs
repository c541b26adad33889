//! Files the commands write never replace one of their inputs, never replace an existing file
//! unless `--force` asks for it, and are put in place whole: a failed run leaves the old file
//! as it was and no temporary file behind.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::bounded::run_in;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::write;

const SESSION: &str = r#""session": {"current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 1}"#;

/// A two-turn script in `dir`.
fn script(dir: &Path) -> std::path::PathBuf {
    write(
        dir,
        "script.json",
        &format!(
            r#"{{{SESSION}, "turns": [{{"user": "one", "assistant": "1"}}, {{"user": "two", "assistant": "2"}}]}}"#
        ),
    )
}

/// The rollout of [`script`], recorded as `rollout.jsonl` in `dir`.
fn rollout(dir: &Path) -> (std::path::PathBuf, String) {
    let rollout = dir.join("rollout.jsonl");
    let recorded = run_in(
        dir,
        &[
            "session",
            "run",
            arg(&script(dir)),
            "--rollout",
            "rollout.jsonl",
        ],
    );
    assert_eq!(recorded.code, Some(0), "{recorded:?}");
    let text = std::fs::read_to_string(&rollout).expect("rollout");
    (rollout, text)
}

/// The names in `dir`, sorted (a leftover temporary file would show here).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable")
}

fn succeeded(run: &Run) -> &str {
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    &run.stdout
}

#[test]
fn inspect_never_writes_its_report_over_the_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    std::fs::hard_link(&rollout, dir.path().join("linked.jsonl")).expect("hard link");
    for (out, force) in [
        ("rollout.jsonl", false),
        ("./rollout.jsonl", false),
        ("linked.jsonl", false),
        (arg(&rollout), true),
    ] {
        let mut args = vec!["inspect", "rollout.jsonl", "--out", out];
        if force {
            args.push("--force");
        }
        assert_user_error(
            &run_in(dir.path(), &args),
            &format!("--out {out}: that is the rollout this command reads; name another file"),
        );
    }
    assert_eq!(read(&rollout), text);
    assert_eq!(
        names(dir.path()),
        ["linked.jsonl", "rollout.jsonl", "script.json"]
    );
}

#[test]
fn inspect_replaces_an_existing_report_only_with_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    rollout(dir.path());
    let report = write(dir.path(), "report.txt", "my notes");
    assert_user_error(
        &run_in(
            dir.path(),
            &["inspect", "rollout.jsonl", "--out", "report.txt"],
        ),
        "--out report.txt: the file exists; pass --force to replace it",
    );
    assert_eq!(read(&report), "my notes");
    let printed = run_in(dir.path(), &["inspect", "rollout.jsonl"]);
    let written = run_in(
        dir.path(),
        &["inspect", "rollout.jsonl", "--out", "report.txt", "--force"],
    );
    assert_eq!(succeeded(&written), "");
    assert_eq!(read(&report), succeeded(&printed));
    let fresh = run_in(
        dir.path(),
        &["inspect", "rollout.jsonl", "--out", "new.txt"],
    );
    assert_eq!(succeeded(&fresh), "");
    assert_eq!(read(&dir.path().join("new.txt")), printed.stdout);
    assert_eq!(
        names(dir.path()),
        ["new.txt", "report.txt", "rollout.jsonl", "script.json"]
    );
}

#[test]
fn session_run_never_writes_its_rollout_over_the_script_or_the_catalog() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = script(dir.path());
    let before = read(&script);
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec![
            "session",
            "run",
            "script.json",
            "--rollout",
            "./script.json",
        ];
        args.extend(extra);
        assert_user_error(
            &run_in(dir.path(), &args),
            "--rollout ./script.json: that is the script this command reads; name another file",
        );
    }
    let catalog = write(dir.path(), "catalog.json", r#"{"models": []}"#);
    assert_user_error(
        &run_in(
            dir.path(),
            &[
                "session",
                "run",
                "script.json",
                "--model-catalog",
                arg(&catalog),
                "--rollout",
                "catalog.json",
                "--force",
            ],
        ),
        "--rollout catalog.json: that is the model catalog this command reads; name another file",
    );
    assert_eq!(read(&script), before);
    assert_eq!(read(&catalog), r#"{"models": []}"#);
    assert_eq!(names(dir.path()), ["catalog.json", "script.json"]);
}

#[test]
fn session_run_replaces_a_rollout_only_with_force_and_only_once_the_run_succeeded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, recorded) = rollout(dir.path());
    let old = write(dir.path(), "old.jsonl", "precious\n");
    assert_user_error(
        &run_in(
            dir.path(),
            &["session", "run", "script.json", "--rollout", "old.jsonl"],
        ),
        "--rollout old.jsonl: the file exists; pass --force to replace it",
    );
    // Turn 1 fails after turn 0 ran and wrote its lines: the old file is left as it was.
    let failing = write(
        dir.path(),
        "failing.json",
        &format!(
            r#"{{{SESSION}, "turns": [{{"user": "one", "assistant": "1"}}, {{"user": "two", "set": {{"model_instructions_file": "missing.md"}}}}]}}"#
        ),
    );
    let failed = run_in(
        dir.path(),
        &[
            "session",
            "run",
            arg(&failing),
            "--rollout",
            "old.jsonl",
            "--force",
        ],
    );
    assert_eq!(failed.code, Some(2), "{failed:?}");
    assert_eq!(read(&old), "precious\n");
    assert_eq!(
        names(dir.path()),
        ["failing.json", "old.jsonl", "rollout.jsonl", "script.json"]
    );
    let replaced = run_in(
        dir.path(),
        &[
            "session",
            "run",
            "script.json",
            "--rollout",
            "old.jsonl",
            "--force",
        ],
    );
    succeeded(&replaced);
    assert_eq!(read(&old), recorded);
    assert_eq!(read(&rollout), recorded);
}

#[test]
fn fork_writes_only_a_new_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rollout, text) = rollout(dir.path());
    std::fs::hard_link(&rollout, dir.path().join("linked.jsonl")).expect("hard link");
    let existing = write(dir.path(), "child.jsonl", "someone's thread\n");
    let fork = |write: &str| {
        run_in(
            dir.path(),
            &[
                "session",
                "fork",
                "rollout.jsonl",
                "--user",
                "x",
                "--write",
                write,
            ],
        )
    };
    assert_user_error(
        &fork("child.jsonl"),
        "--write child.jsonl: the file exists; name a new file",
    );
    assert_user_error(
        &fork("linked.jsonl"),
        "--write linked.jsonl: that is the parent rollout this command reads; name another file",
    );
    assert_eq!(read(&existing), "someone's thread\n");
    assert_eq!(read(&rollout), text);
    let forked = fork("new.jsonl");
    succeeded(&forked);
    // The child's own session_meta, then the parent's lines as they were, then the new turn.
    let child = read(&dir.path().join("new.jsonl"));
    let parent_lines: Vec<&str> = text.lines().collect();
    let copied: Vec<&str> = child.lines().skip(1).take(parent_lines.len()).collect();
    assert_eq!(copied, parent_lines);
    assert_eq!(
        names(dir.path()),
        [
            "child.jsonl",
            "linked.jsonl",
            "new.jsonl",
            "rollout.jsonl",
            "script.json"
        ]
    );
}
