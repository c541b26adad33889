//! Installing the pinned releases of the Codex CLI from the npm registry into a cache folder
//! outside the repository (`$CODEX_REAL_CACHE`, default `target/real-codex/npm`), one folder
//! per version, reused when its binary is there.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use super::process::RunLimits;
use super::process::run_with_timeout;

/// The npm package of the Codex CLI.
pub const PACKAGE: &str = "@openai/codex";
/// The environment variable naming the cache folder.
pub const CACHE_ENV: &str = "CODEX_REAL_CACHE";
/// The cache folder relative to the target directory when `$CODEX_REAL_CACHE` is unset.
pub const DEFAULT_CACHE: &str = "real-codex/npm";
/// The native binary inside the platform package the npm package depends on.
const BINARY_PATHS: [&str; 2] = [
    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    "node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/bin/codex",
];
const INSTALL_TIMEOUT: Duration = Duration::from_secs(600);

/// Why a release could not be installed: the harness skips rather than fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    pub reason: String,
}

/// The cache folder: `$CODEX_REAL_CACHE`, else `<target>/real-codex/npm`.
pub fn cache_dir(env_value: Option<&std::ffi::OsStr>, target_dir: &Path) -> PathBuf {
    match env_value.filter(|value| !value.is_empty()) {
        Some(value) => PathBuf::from(value),
        None => target_dir.join(DEFAULT_CACHE),
    }
}

/// The binary of `version` in `cache`, if installed.
pub fn installed_binary(cache: &Path, version: &str) -> Option<PathBuf> {
    BINARY_PATHS
        .iter()
        .map(|relative| cache.join(version).join(relative))
        .find(|path| path.is_file())
}

/// Installs `version` into `cache/<version>` with
/// `npm install --no-audit --no-fund @openai/codex@VERSION` unless it is already there, and
/// returns the native binary.
pub fn ensure_installed(cache: &Path, version: &str) -> Result<PathBuf, Unavailable> {
    if let Some(binary) = installed_binary(cache, version) {
        return Ok(binary);
    }
    let unavailable = |reason: String| Unavailable { reason };
    let folder = cache.join(version);
    std::fs::create_dir_all(&folder)
        .map_err(|error| unavailable(format!("cannot create {}: {error}", folder.display())))?;
    // A package.json of its own keeps npm from walking up into another project.
    let manifest = folder.join("package.json");
    if !manifest.is_file() {
        std::fs::write(&manifest, "{\"private\": true}\n").map_err(|error| {
            unavailable(format!("cannot write {}: {error}", manifest.display()))
        })?;
    }
    let mut command = Command::new("npm");
    command
        .current_dir(&folder)
        .args(["install", "--no-audit", "--no-fund"])
        .arg(format!("{PACKAGE}@{version}"));
    let outcome = run_with_timeout(&mut command, RunLimits::new(INSTALL_TIMEOUT))
        .map_err(|error| unavailable(format!("npm is not available: {error}")))?;
    if !outcome.succeeded() {
        let last_line = outcome
            .stderr
            .lines()
            .rfind(|line| !line.trim().is_empty())
            .unwrap_or("no output")
            .trim()
            .to_string();
        return Err(unavailable(format!(
            "npm install {PACKAGE}@{version} failed ({}): {last_line}",
            outcome.status_text()
        )));
    }
    installed_binary(cache, version).ok_or_else(|| {
        unavailable(format!(
            "{PACKAGE}@{version} installed but ships no linux-x64 binary"
        ))
    })
}
