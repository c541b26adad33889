//! Running a scenario's steps with a released `codex` binary against the loopback mock, in
//! the run folder's own HOME, CODEX_HOME and git repository; after each step the rollout is
//! copied (`codex exec resume` appends to the same file) and the requests of the step noted.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use super::mock::MockServer;
use super::mock::RecordedRequest;
use super::process::RunLimits;
use super::process::run_with_timeout;
use super::scenario::CODEX_HOME_DIR;
use super::scenario::HOME_DIR;
use super::scenario::Scenario;

/// The environment variable the mock provider reads its key from.
pub const API_KEY_ENV: &str = "MOCK_API_KEY";
/// The key the mock provider is given; it must never be written by anything in between.
pub const API_KEY: &str = "sk-mock-not-a-secret";
/// Logs every connection the binary's HTTP client opens.
pub const RUST_LOG: &str = "warn,reqwest::connect=debug";
const STEP_TIMEOUT: Duration = Duration::from_secs(120);
/// What reqwest logs when it opens a connection.
const CONNECT_LOG: &str = "starting new connection:";

/// What one real run produced.
#[derive(Debug, Clone)]
pub struct RealRun {
    /// Every request, in arrival order (`/responses` and the rest).
    pub requests: Vec<RecordedRequest>,
    /// Per step, the indexes into `requests` of its `/responses` requests.
    pub step_requests: Vec<Vec<usize>>,
    /// Per step, the copy of the rollout as it was after the step.
    pub rollouts: Vec<PathBuf>,
    /// The models the release said it does not know ("Unknown model X is used"), so it used
    /// fallback metadata: this project's warning about the same model is no difference.
    pub unknown_models: Vec<String>,
}

/// How the release says on standard error that a model is not in its catalog.
const UNKNOWN_MODEL_PREFIX: &str = "Unknown model ";

/// The models a release's standard error names as unknown.
pub fn unknown_models(stderr: &str) -> Vec<String> {
    let mut models: Vec<String> = stderr
        .match_indices(UNKNOWN_MODEL_PREFIX)
        .filter_map(|(start, _)| {
            stderr[start + UNKNOWN_MODEL_PREFIX.len()..]
                .split_whitespace()
                .next()
                .map(str::to_string)
        })
        .collect();
    models.sort();
    models.dedup();
    models
}

impl RealRun {
    /// The `/responses` requests, in order.
    pub fn responses(&self) -> Vec<&RecordedRequest> {
        self.step_requests
            .iter()
            .flatten()
            .filter_map(|&index| self.requests.get(index))
            .collect()
    }
}

/// Why a real run is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunFailure {
    #[error("step {step}: `codex exec` {status}: {last_line}")]
    Exec {
        step: usize,
        status: String,
        last_line: String,
    },
    #[error("step {step}: the binary connected to {target} (only 127.0.0.1 is allowed)")]
    OutsideConnection { step: usize, target: String },
    #[error("step {step}: {message}")]
    Setup { step: usize, message: String },
}

/// The `config.toml` of a run: the scenario's keys, then what turns off every start-up
/// call-out and points the `mock` provider at `base_url`.
pub fn config_toml(scenario: &Scenario, base_url: &str) -> Result<String, toml::ser::Error> {
    let mut top = toml::Table::new();
    for (key, value) in &scenario.config {
        if let Ok(value) = toml::Value::try_from(value) {
            top.insert(key.clone(), value);
        }
    }
    let harness = toml::toml! {
        model_provider = "mock"
        check_for_update_on_startup = false

        [model_providers.mock]
        name = "mock"
        wire_api = "responses"
        env_key = "MOCK_API_KEY"

        [features]
        plugins = false

        [analytics]
        enabled = false

        [feedback]
        enabled = false

        [history]
        persistence = "none"
    };
    for (key, value) in harness {
        match (top.get_mut(&key), value) {
            (Some(toml::Value::Table(existing)), toml::Value::Table(table)) => {
                existing.extend(table);
            }
            (_, value) => {
                top.insert(key, value);
            }
        }
    }
    if let Some(toml::Value::Table(providers)) = top.get_mut("model_providers")
        && let Some(toml::Value::Table(mock)) = providers.get_mut("mock")
    {
        mock.insert(
            "base_url".to_string(),
            toml::Value::String(base_url.to_string()),
        );
    }
    toml::to_string(&top)
}

/// The environment every child gets: nothing from this machine but `PATH`.
pub fn isolated_env(command: &mut Command, run_dir: &Path) {
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", run_dir.join(HOME_DIR))
        .env("CODEX_HOME", run_dir.join(CODEX_HOME_DIR))
        .env("TZ", "Etc/UTC")
        .env("LANG", "C.UTF-8")
        .env(API_KEY_ENV, API_KEY);
}

/// Runs every step of `scenario` with `binary` in `run_dir` (already materialised, `cwd` a
/// git repository), answered by `mock`.
pub fn run_real(
    binary: &Path,
    scenario: &Scenario,
    run_dir: &Path,
    cwd: &Path,
    mock: &MockServer,
) -> Result<RealRun, RunFailure> {
    let mut step_requests = Vec::new();
    let mut rollouts = Vec::new();
    let mut unknown = Vec::new();
    let logs = run_dir.join("real");
    for (index, step) in scenario.steps.iter().enumerate() {
        let number = index + 1;
        let setup = |message: String| RunFailure::Setup {
            step: number,
            message,
        };
        let before = mock.recorded().len();
        let mut command = Command::new(binary);
        isolated_env(&mut command, run_dir);
        command
            .current_dir(cwd)
            .env("RUST_LOG", RUST_LOG)
            .arg("exec");
        if index > 0 {
            command.args(["resume", "--last"]);
        }
        command
            .arg("--skip-git-repo-check")
            .args(&step.exec)
            .arg(&step.prompt);
        let outcome = run_with_timeout(&mut command, RunLimits::new(STEP_TIMEOUT))
            .map_err(|error| setup(format!("cannot run {}: {error}", binary.display())))?;
        let _ = std::fs::create_dir_all(&logs);
        let _ = std::fs::write(logs.join(format!("step-{number}.stderr")), &outcome.stderr);
        let _ = std::fs::write(logs.join(format!("step-{number}.stdout")), &outcome.stdout);
        unknown.extend(unknown_models(&outcome.stderr));
        if let Some(target) = outside_connection(&outcome.stderr) {
            return Err(RunFailure::OutsideConnection {
                step: number,
                target,
            });
        }
        if !outcome.succeeded() {
            return Err(RunFailure::Exec {
                step: number,
                status: outcome.status_text(),
                last_line: last_line(&outcome.stderr),
            });
        }
        let recorded = mock.recorded();
        step_requests.push(
            (before..recorded.len())
                .filter(|&index| recorded[index].is_responses())
                .collect(),
        );
        let rollout = find_rollout(&run_dir.join(CODEX_HOME_DIR)).map_err(setup)?;
        let copy = logs.join(format!("rollout-after-step-{number}.jsonl"));
        std::fs::copy(&rollout, &copy)
            .map_err(|error| setup(format!("cannot copy {}: {error}", rollout.display())))?;
        rollouts.push(copy);
    }
    unknown.sort();
    unknown.dedup();
    Ok(RealRun {
        requests: mock.recorded(),
        step_requests,
        rollouts,
        unknown_models: unknown,
    })
}

/// The first connection reqwest logged to anything but `127.0.0.1`.
pub fn outside_connection(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .filter_map(|line| {
            line.split_once(CONNECT_LOG)
                .map(|(_, target)| target.trim())
        })
        .find(|target| {
            !["http://127.0.0.1:", "https://127.0.0.1:"]
                .iter()
                .any(|allowed| target.starts_with(allowed))
        })
        .map(str::to_string)
}

fn last_line(text: &str) -> String {
    text.lines()
        .rfind(|line| !line.trim().is_empty())
        .unwrap_or("no output")
        .trim()
        .to_string()
}

/// The one rollout under `codex_home/sessions`.
fn find_rollout(codex_home: &Path) -> Result<PathBuf, String> {
    let mut found = Vec::new();
    let mut pending = vec![codex_home.join("sessions")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|extension| extension == "jsonl")
            {
                found.push(path);
            }
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err("the binary wrote no rollout under CODEX_HOME/sessions".to_string()),
        _ => Err(format!(
            "{} rollouts under CODEX_HOME/sessions",
            found.len()
        )),
    }
}

#[cfg(test)]
mod unknown_model_tests {
    use pretty_assertions::assert_eq;

    use super::unknown_models;

    #[test]
    fn the_models_the_release_does_not_know_are_read_from_its_stderr() {
        let stderr = "WARN Unknown model gpt-5.4 is used. This will use fallback model \
                      metadata.\nWARN Unknown model gpt-5.4 is used.\nWARN Unknown model x-1 is used.";
        assert_eq!(
            unknown_models(stderr),
            vec!["gpt-5.4".to_string(), "x-1".to_string()]
        );
        assert_eq!(unknown_models("nothing to see"), Vec::<String>::new());
    }
}
