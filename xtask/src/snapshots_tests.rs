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

fn args_and_envs(command: &Command) -> (Vec<&OsStr>, Vec<(&OsStr, Option<&OsStr>)>) {
    // Cargo's own variables are removed by `cargo_in` (tested there).
    let mut envs: Vec<(&OsStr, Option<&OsStr>)> = command
        .get_envs()
        .filter(|(name, _)| !name.to_string_lossy().starts_with("CARGO_"))
        .collect();
    envs.sort();
    (command.get_args().collect(), envs)
}

#[test]
fn without_cargo_insta_every_suite_runs_and_writes_pending_snapshots() {
    let root = Path::new("/workspace");
    let workspace = test_command(root, SnapshotRunner::CargoTest, &[], None);
    assert_eq!(
        args_and_envs(&workspace),
        (
            vec![
                OsStr::new("test"),
                OsStr::new("--no-fail-fast"),
                OsStr::new("--workspace"),
            ],
            vec![
                (OsStr::new("INSTA_FORCE_PASS"), Some(OsStr::new("1"))),
                (OsStr::new("INSTA_UPDATE"), Some(OsStr::new("new"))),
            ]
        )
    );
    assert_eq!(workspace.get_current_dir(), Some(root));
    // The caller's INSTA_UPDATE (inherited) is left alone, and so is force-passing.
    let scoped = test_command(
        root,
        SnapshotRunner::CargoTest,
        &["-p".to_string(), "codex-prompts".to_string()],
        Some(OsStr::new("always")),
    );
    assert_eq!(
        args_and_envs(&scoped),
        (
            vec![
                OsStr::new("test"),
                OsStr::new("--no-fail-fast"),
                OsStr::new("-p"),
                OsStr::new("codex-prompts"),
            ],
            vec![]
        )
    );
}

#[test]
fn cargo_insta_runs_its_own_test_command() {
    let command = test_command(
        Path::new("/workspace"),
        SnapshotRunner::CargoInsta,
        &[],
        None,
    );
    assert_eq!(
        args_and_envs(&command),
        (
            vec![
                OsStr::new("insta"),
                OsStr::new("test"),
                OsStr::new("--workspace"),
            ],
            vec![]
        )
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
