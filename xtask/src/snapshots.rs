//! `cargo xtask snapshots`: run the insta suites and list every pending snapshot, so a
//! reviewer sees each changed rendering or request layout in one place.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;

use crate::error::XtaskError;

/// How the suites are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotRunner {
    /// `cargo insta test` then `cargo insta pending-snapshots`.
    CargoInsta,
    /// `cargo test` with `INSTA_UPDATE=no` (unless the caller set `INSTA_UPDATE`), then a walk
    /// of the tree for pending files.
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

impl SnapshotRunner {
    /// `CargoInsta` when `cargo insta --version` works.
    pub fn detect(root: &Path) -> Self {
        let installed = Command::new(cargo())
            .args(["insta", "--version"])
            .current_dir(root)
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
    let scope: Vec<String> = if cargo_args.is_empty() {
        vec!["--workspace".to_string()]
    } else {
        cargo_args.to_vec()
    };
    let mut command = Command::new(cargo());
    command.current_dir(root);
    match runner {
        SnapshotRunner::CargoInsta => {
            command.args(["insta", "test"]).args(&scope);
        }
        SnapshotRunner::CargoTest => {
            command.arg("test").args(&scope);
            if std::env::var_os("INSTA_UPDATE").is_none() {
                command.env("INSTA_UPDATE", "no");
            }
        }
    }
    let tests_passed = run(&mut command)?;
    if runner == SnapshotRunner::CargoInsta {
        let mut pending = Command::new(cargo());
        pending
            .current_dir(root)
            .args(["insta", "pending-snapshots", "--workspace"]);
        run(&mut pending)?;
    }
    Ok(SnapshotRun {
        runner,
        tests_passed,
        pending: pending_snapshots(root)?,
    })
}

fn run(command: &mut Command) -> Result<bool, XtaskError> {
    let status = command.status().map_err(|source| XtaskError::Spawn {
        command: format!("{command:?}"),
        source,
    })?;
    Ok(status.success())
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
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
