//! `cargo xtask snapshots`: run the insta suites and list every pending snapshot, so a
//! reviewer sees each changed rendering or request layout in one place.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;

use crate::cargo::cargo_in;
use crate::error::XtaskError;

/// How the suites are run. Either way every suite runs to its end (no fail-fast), each
/// snapshot assertion records its new value instead of stopping its test, and a changed
/// snapshot is left as a pending file next to the accepted one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotRunner {
    /// `cargo insta test` then `cargo insta pending-snapshots`.
    CargoInsta,
    /// `cargo test --no-fail-fast` with `INSTA_UPDATE=new` and `INSTA_FORCE_PASS=1` (unless the
    /// caller set `INSTA_UPDATE`), then a walk of the tree for pending files.
    CargoTest,
}

/// What the run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRun {
    pub runner: SnapshotRunner,
    pub tests_passed: bool,
    /// Pending snapshot files (relative to the root).
    pub pending: Vec<PathBuf>,
}

/// What a run comes to, for the task's report and exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotVerdict {
    /// Every test passed and no snapshot is pending.
    Clean,
    /// Snapshots changed: the pending files are there to review.
    Pending,
    /// Tests failed for other reasons than a changed snapshot.
    FailedWithoutPending,
}

impl SnapshotRun {
    pub fn verdict(&self) -> SnapshotVerdict {
        match (self.pending.is_empty(), self.tests_passed) {
            (false, _) => SnapshotVerdict::Pending,
            (true, true) => SnapshotVerdict::Clean,
            (true, false) => SnapshotVerdict::FailedWithoutPending,
        }
    }
}

impl SnapshotRunner {
    /// `CargoInsta` when `cargo insta --version` works.
    pub fn detect(root: &Path) -> Self {
        let installed = cargo_in(root)
            .args(["insta", "--version"])
            .output()
            .is_ok_and(|output| output.status.success());
        if installed {
            SnapshotRunner::CargoInsta
        } else {
            SnapshotRunner::CargoTest
        }
    }
}

/// Runs the suites (`cargo_args` replace the default `--workspace`, e.g. `-p codex-prompts`),
/// with output going straight to the terminal.
pub fn run_snapshots(
    root: &Path,
    runner: SnapshotRunner,
    cargo_args: &[String],
) -> Result<SnapshotRun, XtaskError> {
    let insta_update = std::env::var_os("INSTA_UPDATE");
    let tests_passed = run(&mut test_command(
        root,
        runner,
        cargo_args,
        insta_update.as_deref(),
    ))?;
    if runner == SnapshotRunner::CargoInsta {
        let mut pending = cargo_in(root);
        pending.args(["insta", "pending-snapshots", "--workspace"]);
        run(&mut pending)?;
    }
    Ok(SnapshotRun {
        runner,
        tests_passed,
        pending: pending_snapshots(root)?,
    })
}

/// The command that runs the suites; `insta_update` is the caller's `INSTA_UPDATE`, which
/// `cargo test` keeps (with insta's own force-pass setting) when it is set.
fn test_command(
    root: &Path,
    runner: SnapshotRunner,
    cargo_args: &[String],
    insta_update: Option<&std::ffi::OsStr>,
) -> Command {
    let scope: Vec<String> = if cargo_args.is_empty() {
        vec!["--workspace".to_string()]
    } else {
        cargo_args.to_vec()
    };
    let mut command = cargo_in(root);
    match runner {
        // `cargo insta test` runs every suite and force-passes snapshot assertions by default.
        SnapshotRunner::CargoInsta => {
            command.args(["insta", "test"]).args(&scope);
        }
        SnapshotRunner::CargoTest => {
            command.args(["test", "--no-fail-fast"]).args(&scope);
            if insta_update.is_none() {
                command
                    .env("INSTA_UPDATE", "new")
                    .env("INSTA_FORCE_PASS", "1");
            }
        }
    }
    command
}

fn run(command: &mut Command) -> Result<bool, XtaskError> {
    let status = command.status().map_err(|source| XtaskError::Spawn {
        command: format!("{command:?}"),
        source,
    })?;
    Ok(status.success())
}

/// `.snap.new` and `.pending-snap` files in the workspace, sorted (build output in `target/`
/// and hidden folders such as `.git` are skipped; inline snapshots leave hidden
/// `.NAME.pending-snap` files, so hidden files are not).
pub fn pending_snapshots(root: &Path) -> Result<Vec<PathBuf>, XtaskError> {
    let mut pending = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
            .map_err(|source| XtaskError::io(&folder, source))?;
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let is_dir = entry
                .file_type()
                .map_err(|source| XtaskError::io(&path, source))?
                .is_dir();
            if is_dir {
                if name != "target" && !name.starts_with('.') {
                    folders.push(path);
                }
            } else if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
                pending.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
            }
        }
    }
    pending.sort();
    Ok(pending)
}

#[cfg(test)]
#[path = "snapshots_tests.rs"]
mod tests;
