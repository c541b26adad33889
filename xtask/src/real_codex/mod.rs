//! `cargo xtask real-codex [--check] [--only SCENARIO]…`: the released Codex CLI as ground
//! truth. Each pinned release is installed from the npm registry ([`install`]), each
//! scenario of `examples/real-codex/` ([`scenario`]) run with it against a loopback mock of the
//! Responses API ([`mock`], [`real_run`]), this project run on the same inputs ([`ours`]),
//! and the two compared ([`checks`]); `docs/real-codex-parity.md` ([`table`]) shows every
//! difference under a named gap ([`gaps`]). The newest release also runs one scenario through
//! `codex-context proxy` ([`proxy_leg`]): its problems fail `--check` like the table's.

mod checks;
mod gaps;
mod headers;
mod install;
mod mock;
mod ours;
mod process;
mod proxy_leg;
mod real_run;
mod rollout_shape;
mod scenario;
mod table;

use codex_release::CodexRelease;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use codex_models_manager::ModelCatalog;
use codex_models_manager::ReleaseCatalogs;

pub use checks::Cell;
pub use checks::Column;
pub use checks::check_run;
pub use gaps::GAPS_PATH;
pub use gaps::Gap;
pub use gaps::parse_gaps;
pub use install::CACHE_ENV;
pub use install::installed_binary;
pub use mock::MockServer;
pub use mock::RecordedRequest;
pub use ours::OursRun;
pub use real_run::RUST_LOG;
pub use real_run::RealRun;
pub use real_run::config_toml;
pub use real_run::isolated_env;
pub use real_run::outside_connection;
pub use scenario::SCENARIOS_DIR;
pub use scenario::Scenario;
pub use table::REAL_CODEX_DOC_PATH;
pub use table::RunResult;
pub use table::render;

use crate::ParityMode;
use crate::error::XtaskError;

/// The pinned releases: the exact version each supported release was observed on.
pub const VERSIONS: [&str; CodexRelease::ALL.len()] = {
    let mut versions = [""; CodexRelease::ALL.len()];
    let mut index = 0;
    while index < versions.len() {
        versions[index] = CodexRelease::ALL[index].observed_version();
        index += 1;
    }
    versions
};
/// When set to `1`, a skipped run is a failure (CI).
pub const REQUIRED_ENV: &str = "CODEX_REAL_REQUIRED";
/// Each run folder's findings, by column.
const FINDINGS_FILE: &str = "findings.md";
const GIT_TIMEOUT: Duration = Duration::from_secs(30);
/// Cargo settings a nested build keeps.
const KEPT_CARGO_VARS: [&str; 3] = ["CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_TERM_COLOR"];

/// How to run the harness.
#[derive(Debug, Clone)]
pub struct RealCodexOptions {
    pub mode: ParityMode,
    /// Only these scenarios (all when empty); the table is then neither written nor checked.
    pub only: Vec<String>,
    /// The cargo target directory (the npm cache and the run folders live under it).
    pub target_dir: PathBuf,
    /// The npm cache (`$CODEX_REAL_CACHE`, else under the target directory).
    pub cache: PathBuf,
}

/// How a harness run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RealCodexOutcome {
    /// A release could not be installed (no npm, no registry): nothing ran.
    Skipped { reason: String },
    Ran {
        runs: usize,
        /// Failed runs, differences no gap explains, stale gaps.
        problems: Vec<String>,
        /// The table differs from the committed one (in check mode: it was not written).
        doc_stale: bool,
        elapsed: Duration,
    },
}

/// The cache folder for `options`: `$CODEX_REAL_CACHE`, else `<target>/real-codex/npm`.
pub fn default_cache(env_value: Option<&std::ffi::OsStr>, target_dir: &Path) -> PathBuf {
    install::cache_dir(env_value, target_dir)
}

/// Installs the releases, runs every scenario with each, and writes or checks the table.
pub fn run_real_codex(
    root: &Path,
    options: &RealCodexOptions,
) -> Result<RealCodexOutcome, XtaskError> {
    let started = Instant::now();
    let mut binaries = Vec::new();
    for release in CodexRelease::ALL {
        let version = release.observed_version();
        match install::ensure_installed(&options.cache, version) {
            Ok(binary) => binaries.push((release, version, binary)),
            Err(unavailable) => {
                return Ok(RealCodexOutcome::Skipped {
                    reason: unavailable.reason,
                });
            }
        }
    }
    let codex_context = build_codex_context(root, &options.target_dir)?;
    // Each release's runs are rebuilt with the catalog that release bundles.
    let catalogs = ReleaseCatalogs::embedded().map_err(|error| XtaskError::Invalid {
        path: root.to_path_buf(),
        message: format!("a bundled catalog does not load: {error}"),
    })?;
    let mut scenarios = scenario::load_scenarios(&root.join(SCENARIOS_DIR))?;
    if !options.only.is_empty() {
        scenarios.retain(|scenario| options.only.contains(&scenario.name));
    }
    let gaps = gaps::load_gaps(&root.join(GAPS_PATH))?;
    let runs_dir = options.target_dir.join("real-codex/runs");
    let mut runs = Vec::new();
    let progress = codex_utils_progress::Progress::new(
        Some((binaries.len() * scenarios.len()) as u64),
        codex_utils_progress::Unit::Items("runs"),
        "real-codex",
        codex_utils_progress::Display::StderrIfTerminal,
    );
    for (release, version, binary) in &binaries {
        for scenario in &scenarios {
            let run_dir = runs_dir.join(version).join(&scenario.name);
            let run_started = Instant::now();
            let outcome = run_one(
                binary,
                *release,
                &codex_context,
                scenario,
                &run_dir,
                catalogs.get(release.profile().catalog),
            );
            let summary = match &outcome {
                Ok(cells) => {
                    let count: usize = cells
                        .iter()
                        .map(|(_, cell)| match cell {
                            Cell::Checked(findings) => findings.len(),
                            Cell::NotApplicable => 0,
                        })
                        .sum();
                    format!("{count} differences")
                }
                Err(failure) => format!("failed: {failure}"),
            };
            progress.suspend(|| {
                tracing::info!(
                    "{version} {}: {summary} ({:.1} s)",
                    scenario.name,
                    run_started.elapsed().as_secs_f64()
                );
            });
            progress.inc(1);
            if let Ok(cells) = &outcome {
                for (column, cell) in cells {
                    if let Cell::Checked(findings) = cell {
                        for finding in findings {
                            tracing::debug!(
                                "{version} {} ({}): {finding}",
                                scenario.name,
                                column.title()
                            );
                        }
                    }
                }
            }
            runs.push(RunResult {
                scenario: scenario.name.clone(),
                version: version.to_string(),
                outcome,
            });
        }
    }
    progress.finish();
    let rendered = render(&runs, &scenarios, &VERSIONS, &gaps);
    let mut problems = rendered.problems;
    if let Some((_, version, binary)) = binaries.last() {
        let leg_started = Instant::now();
        let scenario = scenario::load_scenarios(&root.join(SCENARIOS_DIR))?
            .into_iter()
            .find(|scenario| scenario.name == proxy_leg::PROXY_SCENARIO);
        let leg = match scenario {
            Some(scenario) => proxy_leg::run_proxy_leg(
                binary,
                &codex_context,
                &scenario,
                &runs_dir.join(version).join("proxy"),
            ),
            None => Err(format!(
                "the scenario {} is missing",
                proxy_leg::PROXY_SCENARIO
            )),
        };
        let leg = leg.unwrap_or_else(|failure| proxy_leg::LegOutcome {
            problems: vec![failure],
            check: Vec::new(),
        });
        for line in &leg.check {
            tracing::info!("{version} proxy leg --check: {line}");
        }
        let leg_problems = leg.problems;
        tracing::info!(
            "{version} proxy leg: {} problems ({:.1} s)",
            leg_problems.len(),
            leg_started.elapsed().as_secs_f64()
        );
        problems.extend(
            leg_problems
                .into_iter()
                .map(|problem| format!("{version} proxy leg: {problem}")),
        );
    }
    let doc = root.join(REAL_CODEX_DOC_PATH);
    let doc_stale = if options.only.is_empty() {
        let current = std::fs::read_to_string(&doc).ok();
        let stale = current.as_deref() != Some(rendered.text.as_str());
        if stale && options.mode == ParityMode::Regenerate {
            std::fs::write(&doc, &rendered.text).map_err(|source| XtaskError::io(&doc, source))?;
        }
        stale
    } else {
        // A partial run shows its differences; the table stays as it is.
        problems.retain(|problem| !problem.contains("matches no difference"));
        false
    };
    Ok(RealCodexOutcome::Ran {
        runs: runs.len(),
        problems,
        doc_stale,
        elapsed: started.elapsed(),
    })
}

/// `cargo build -p codex-cli`, and the binary it produced.
fn build_codex_context(root: &Path, target_dir: &Path) -> Result<PathBuf, XtaskError> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .current_dir(root)
        .args(["build", "--quiet", "--locked", "-p", "codex-cli"]);
    // What `cargo run` set for this process would change build-script inputs of the
    // dependencies (and make the next `cargo xtask` rebuild them again).
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_") && !KEPT_CARGO_VARS.contains(&name.as_ref()) {
            command.env_remove(name.as_ref());
        }
    }
    let status = command.status().map_err(|source| XtaskError::Spawn {
        command: format!("{command:?}"),
        source,
    })?;
    let binary = target_dir.join("debug/codex-context");
    if !status.success() || !binary.is_file() {
        return Err(XtaskError::Invalid {
            path: binary,
            message: "cargo build -p codex-cli did not produce the binary".to_string(),
        });
    }
    Ok(binary)
}

/// One scenario with one release: a fresh run folder, the real steps, this project's side,
/// the comparison.
fn run_one(
    binary: &Path,
    release: CodexRelease,
    codex_context: &Path,
    scenario: &Scenario,
    run_dir: &Path,
    catalog: &ModelCatalog,
) -> Result<Vec<(Column, Cell)>, String> {
    if run_dir.exists() {
        std::fs::remove_dir_all(run_dir)
            .map_err(|error| format!("cannot clear {}: {error}", run_dir.display()))?;
    }
    let cwd = scenario
        .materialize(run_dir)
        .map_err(|error| error.to_string())?;
    init_git(&run_dir.join(scenario::REPO_DIR), run_dir)?;
    let mock = MockServer::start(&scenario.replies)
        .map_err(|error| format!("cannot start the mock: {error}"))?;
    let config = real_run::config_toml(scenario, &mock.base_url())
        .map_err(|error| format!("cannot write config.toml: {error}"))?;
    let config_path = run_dir.join(scenario::CODEX_HOME_DIR).join("config.toml");
    std::fs::write(&config_path, config)
        .map_err(|error| format!("cannot write {}: {error}", config_path.display()))?;
    let real = real_run::run_real(binary, scenario, run_dir, &cwd, &mock)
        .map_err(|failure| failure.to_string())?;
    save_requests(&run_dir.join("real/requests.json"), &real.requests);
    // `send` reaches the same mock through config.toml's `mock` provider, which replays the
    // scenario's replies: the same input as the release's.
    mock.reset(&scenario.replies);
    let ours = ours::run_ours(
        codex_context,
        release,
        scenario,
        run_dir,
        &cwd,
        &real,
        &mock,
    );
    drop(mock);
    let prefix = run_dir.display().to_string();
    let normalise = |text: &str| normalise_text(text, &prefix);
    let cells = check_run(&real, &ours, catalog, &normalise);
    save_findings(&run_dir.join(FINDINGS_FILE), &cells);
    Ok(cells)
}

/// Every finding of a run, by column, for reading by hand (`--only` shows no table).
fn save_findings(path: &Path, cells: &[(Column, Cell)]) {
    let mut text = String::new();
    for (column, cell) in cells {
        text.push_str(&format!("## {}\n", column.title()));
        match cell {
            Cell::NotApplicable => text.push_str("not applicable\n"),
            Cell::Checked(findings) => {
                for finding in findings {
                    text.push_str(&format!("- {finding}\n"));
                }
            }
        }
    }
    let _ = std::fs::write(path, text);
}

/// A finding as the table shows it: the run folder as `<run>`, and no line numbers after
/// `config.toml:` (they move with the scenario's configuration).
pub fn normalise_text(text: &str, run_dir: &str) -> String {
    let text = text.replace(run_dir, "<run>");
    let marker = "config.toml:";
    let mut normalised = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(index) = rest.find(marker) {
        let after = &rest[index + marker.len()..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        normalised.push_str(&rest[..index + marker.len()]);
        rest = match after[digits..].strip_prefix(':') {
            Some(tail) if digits > 0 => tail.trim_start_matches(' '),
            _ => after,
        };
        if digits > 0 {
            normalised.push(' ');
        }
    }
    normalised.push_str(rest);
    normalised
}

/// `git init` and one commit of everything in `repo`, with an identity of its own.
fn init_git(repo: &Path, run_dir: &Path) -> Result<(), String> {
    let commands: [&[&str]; 3] = [
        &["init", "-q", "-b", "main"],
        &["add", "-A"],
        &[
            "-c",
            "user.name=real-codex",
            "-c",
            "user.email=real-codex@localhost",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "scenario",
        ],
    ];
    for args in commands {
        let mut command = Command::new("git");
        real_run::isolated_env(&mut command, run_dir);
        command.current_dir(repo).args(args);
        let outcome = process::run_with_timeout(&mut command, process::RunLimits::new(GIT_TIMEOUT))
            .map_err(|error| format!("cannot run git: {error}"))?;
        if !outcome.succeeded() {
            return Err(format!(
                "git {} failed: {}",
                args.join(" "),
                outcome.stderr.trim()
            ));
        }
    }
    Ok(())
}

/// The captured requests as one JSON file, for reading by hand.
fn save_requests(path: &Path, requests: &[RecordedRequest]) {
    let list: Vec<serde_json::Value> = requests
        .iter()
        .map(|request| {
            serde_json::json!({
                "method": request.method,
                "path": request.path,
                "headers": request.headers,
                "body": request.body,
            })
        })
        .collect();
    if let Ok(text) = serde_json::to_string_pretty(&list) {
        let _ = std::fs::write(path, text);
    }
}

#[cfg(test)]
#[path = "harness_tests.rs"]
mod tests;
