//! `cargo xtask parity [--check] [--fixtures DIR]`: replay upstream's captured scenarios from
//! `examples/upstream/` and regenerate (or check) `docs/upstream-parity.md`.
//!
//! The work is done by codex-script's `upstream_parity` test, so the task and `cargo test` can
//! never disagree: the task runs it with the fixtures named and, to regenerate, with
//! `CODEX_PARITY_UPDATE=1`, which makes the test write the table instead of comparing it.

use std::ffi::OsStr;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;

use crate::cargo::cargo_in;
use crate::error::XtaskError;

/// The generated table, relative to the workspace root.
pub const PARITY_DOC_PATH: &str = "docs/upstream-parity.md";

/// The environment variable naming upstream's fixtures (models.json, captures/).
pub const FIXTURES_ENV: &str = "CODEX_UPSTREAM_FIXTURES";

/// What the task does with the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParityMode {
    /// Write the table from this run.
    Regenerate,
    /// Fail when the table differs from this run.
    Check,
}

/// How a parity run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParityOutcome {
    /// No fixtures were named or found: nothing ran.
    FixturesMissing,
    Ran {
        /// Whether every parity check passed (scripts equal up to known gaps, every capture
        /// accounted for, and in [`ParityMode::Check`] the table current).
        tests_passed: bool,
        /// Whether the run rewrote the table.
        doc_changed: bool,
    },
}

/// The fixtures folder: `--fixtures DIR` (which must exist), else `$CODEX_UPSTREAM_FIXTURES`
/// when it names a folder; absolute, because the test runs in another directory.
pub fn locate_fixtures(
    flag: Option<&Path>,
    env_value: Option<&OsStr>,
) -> Result<Option<PathBuf>, XtaskError> {
    let absolute =
        |path: &Path| std::path::absolute(path).map_err(|source| XtaskError::io(path, source));
    match flag {
        Some(dir) if dir.is_dir() => absolute(dir).map(Some),
        Some(dir) => Err(XtaskError::Invalid {
            path: dir.to_path_buf(),
            message: "--fixtures: not a directory".to_string(),
        }),
        None => match env_value.filter(|value| !value.is_empty()).map(Path::new) {
            Some(dir) if dir.is_dir() => absolute(dir).map(Some),
            Some(_) | None => Ok(None),
        },
    }
}

/// Runs the parity test against `fixtures` (nothing runs without them), with its output going
/// straight to the terminal.
pub fn run_parity(
    root: &Path,
    fixtures: Option<&Path>,
    mode: ParityMode,
) -> Result<ParityOutcome, XtaskError> {
    let Some(fixtures) = fixtures else {
        return Ok(ParityOutcome::FixturesMissing);
    };
    let doc = root.join(PARITY_DOC_PATH);
    let before = std::fs::read(&doc).ok();
    let mut command = parity_command(root, fixtures, mode);
    let status = command.status().map_err(|source| XtaskError::Spawn {
        command: format!("{command:?}"),
        source,
    })?;
    Ok(ParityOutcome::Ran {
        tests_passed: status.success(),
        doc_changed: std::fs::read(&doc).ok() != before,
    })
}

/// `cargo test` of codex-script's `upstream_parity` file, every check included.
fn parity_command(root: &Path, fixtures: &Path, mode: ParityMode) -> Command {
    let mut command = cargo_in(root);
    // `--workspace` resolves features as `cargo test --workspace` does, so a run after the
    // workspace's tests reuses their build. The checks that need the fixtures are ignored by a
    // plain `cargo test`; `--include-ignored` runs them with the rest of the file.
    command
        .args(["test", "--workspace", "--test", "upstream_parity"])
        .args(["--", "--include-ignored"])
        .env(FIXTURES_ENV, fixtures);
    match mode {
        ParityMode::Regenerate => command.env("CODEX_PARITY_UPDATE", "1"),
        ParityMode::Check => command.env_remove("CODEX_PARITY_UPDATE"),
    };
    command
}

#[cfg(test)]
#[path = "parity_tests.rs"]
mod tests;
