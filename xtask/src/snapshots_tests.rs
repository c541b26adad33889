use std::ffi::OsStr;

use pretty_assertions::assert_eq;

use super::*;
use crate::test_support::write_files;

#[test]
fn pending_files_are_found_outside_target_and_hidden_folders() {
    let root = tempfile::tempdir().expect("tempdir");
    write_files(
        root.path(),
        &[
            ("a/src/snapshots/a__x.snap", "accepted"),
            ("a/src/snapshots/a__y.snap.new", "pending"),
            ("b/tests/.lib.rs.pending-snap", "inline pending"),
            ("target/debug/z.snap.new", "build output"),
            (".git/w.snap.new", "not a source"),
        ],
    );
    assert_eq!(
        pending_snapshots(root.path()).expect("walk"),
        vec![
            PathBuf::from("a/src/snapshots/a__y.snap.new"),
            PathBuf::from("b/tests/.lib.rs.pending-snap"),
        ]
    );
}

/// The command's arguments, then the variables it sets (or removes) beyond cargo's own.
fn args_and_envs(command: &Command) -> (Vec<String>, Vec<(String, Option<String>)>) {
    let text = |value: &OsStr| value.to_string_lossy().into_owned();
    // Cargo's own variables are removed by `cargo_in` (tested there).
    let mut envs: Vec<(String, Option<String>)> = command
        .get_envs()
        .map(|(name, value)| (text(name), value.map(text)))
        .filter(|(name, _)| !name.starts_with("CARGO_"))
        .collect();
    envs.sort();
    (command.get_args().map(text).collect(), envs)
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| (*value).to_string()).collect()
}

#[test]
fn without_cargo_insta_every_suite_runs_and_writes_pending_snapshots() {
    let root = Path::new("/workspace");
    let workspace = test_command(root, SnapshotRunner::CargoTest, &[], None);
    let set = |name: &str, value: &str| (name.to_string(), Some(value.to_string()));
    assert_eq!(
        args_and_envs(&workspace),
        (
            strings(&["test", "--no-fail-fast", "--workspace"]),
            vec![set("INSTA_FORCE_PASS", "1"), set("INSTA_UPDATE", "new")]
        )
    );
    assert_eq!(workspace.get_current_dir(), Some(root));
    // The caller's INSTA_UPDATE (inherited) is left alone, and so is force-passing.
    let scoped_args = strings(&["-p", "codex-prompts"]);
    let scoped = test_command(
        root,
        SnapshotRunner::CargoTest,
        &scoped_args,
        Some(OsStr::new("always")),
    );
    assert_eq!(
        args_and_envs(&scoped),
        (
            strings(&["test", "--no-fail-fast", "-p", "codex-prompts"]),
            vec![]
        )
    );
}

#[test]
fn cargo_insta_runs_its_own_test_command() {
    let command = test_command(Path::new("/"), SnapshotRunner::CargoInsta, &[], None);
    assert_eq!(
        args_and_envs(&command),
        (strings(&["insta", "test", "--workspace"]), vec![])
    );
}

#[test]
fn a_failed_run_is_never_clean() {
    let run = |tests_passed: bool, pending: &[&str]| SnapshotRun {
        runner: SnapshotRunner::CargoTest,
        tests_passed,
        pending: pending.iter().map(PathBuf::from).collect(),
    };
    assert_eq!(
        [
            run(true, &[]).verdict(),
            run(false, &[]).verdict(),
            run(true, &["a.snap.new"]).verdict(),
            run(false, &["a.snap.new"]).verdict(),
        ],
        [
            SnapshotVerdict::Clean,
            SnapshotVerdict::FailedWithoutPending,
            SnapshotVerdict::Pending,
            SnapshotVerdict::Pending,
        ]
    );
}
