//! Scenario files (`examples/real-codex/<name>.json`): the files of the working tree and of
//! CODEX_HOME, the configuration, the mocked replies, and per step the `codex exec` arguments
//! and the equivalent `codex-context` arguments.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use crate::error::XtaskError;

/// Where the scenario files live, relative to the workspace root.
pub const SCENARIOS_DIR: &str = "examples/real-codex";

/// The folder of a run that is the git repository (the working tree).
pub const REPO_DIR: &str = "repo";
/// The folder of a run that is CODEX_HOME.
pub const CODEX_HOME_DIR: &str = "codex_home";
/// The folder of a run that is HOME.
pub const HOME_DIR: &str = "home";

/// One scenario, as written in its file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The file name without `.json`.
    #[serde(skip)]
    pub name: String,
    /// What the scenario shows, in one sentence (rendered in the table's notes).
    pub about: String,
    /// Files to create, by path relative to the run folder: `repo/…` (the git repository)
    /// or `codex_home/…`. The value is the file's text.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// The working directory of every step, relative to the run folder.
    #[serde(default = "default_cwd")]
    pub cwd: String,
    /// Top-level `config.toml` keys (a JSON object written as TOML) added to the harness's
    /// own, which turn off every start-up call-out and point the `mock` provider at the mock.
    #[serde(default)]
    pub config: serde_json::Map<String, Value>,
    /// The mock's replies to `POST /responses`, in order; once they run out every request is
    /// answered with the text `Done.`.
    #[serde(default)]
    pub replies: Vec<Reply>,
    /// The steps: the first runs `codex exec`, each later one `codex exec resume --last`.
    pub steps: Vec<Step>,
}

fn default_cwd() -> String {
    REPO_DIR.to_string()
}

/// One `codex exec` invocation and what this project runs for it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The user's prompt.
    pub prompt: String,
    /// Arguments before the prompt (after `exec` or `exec resume --last`).
    #[serde(default)]
    pub exec: Vec<String>,
    /// Arguments for this project: `request`/`send` options on the first step,
    /// `session resume` options (`--set KEY=VALUE`) on later ones.
    #[serde(default)]
    pub ours: Vec<String>,
}

/// One mocked model reply.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    /// An assistant message with this text.
    #[serde(default)]
    pub text: Option<String>,
    /// A function call the binary executes before it asks again.
    #[serde(default)]
    pub function_call: Option<FunctionCall>,
    /// `usage.input_tokens` reported for the reply (default 100); a large number makes the
    /// binary compact when `model_auto_compact_token_limit` is low.
    #[serde(default)]
    pub input_tokens: Option<u64>,
}

/// A mocked `function_call` output item.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionCall {
    pub name: String,
    /// The call's arguments, sent as a JSON string.
    pub arguments: Value,
}

impl Scenario {
    /// Checks what serde cannot: at least one step, paths inside the run folder.
    fn validate(&self, path: &Path) -> Result<(), XtaskError> {
        let invalid = |message: String| XtaskError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        if self.steps.is_empty() {
            return Err(invalid("a scenario needs at least one step".to_string()));
        }
        for file in self.files.keys() {
            let inside = [REPO_DIR, CODEX_HOME_DIR]
                .iter()
                .any(|dir| file.starts_with(&format!("{dir}/")));
            if !inside || file.split('/').any(|part| part == ".." || part.is_empty()) {
                return Err(invalid(format!(
                    "file `{file}` must be under `{REPO_DIR}/` or `{CODEX_HOME_DIR}/`"
                )));
            }
        }
        if !(self.cwd == REPO_DIR || self.cwd.starts_with(&format!("{REPO_DIR}/")))
            || self.cwd.split('/').any(|part| part == "..")
        {
            return Err(invalid(format!(
                "cwd `{}` must be `{REPO_DIR}` or under it",
                self.cwd
            )));
        }
        Ok(())
    }

    /// Writes the scenario's files under `run_dir` (which must be empty or absent) and
    /// returns the working directory.
    pub fn materialize(&self, run_dir: &Path) -> Result<PathBuf, XtaskError> {
        for dir in [REPO_DIR, CODEX_HOME_DIR, HOME_DIR] {
            create_dir(&run_dir.join(dir))?;
        }
        for (relative, text) in &self.files {
            let path = run_dir.join(relative);
            if let Some(parent) = path.parent() {
                create_dir(parent)?;
            }
            std::fs::write(&path, text).map_err(|source| XtaskError::io(&path, source))?;
        }
        let cwd = run_dir.join(&self.cwd);
        create_dir(&cwd)?;
        Ok(cwd)
    }
}

fn create_dir(path: &Path) -> Result<(), XtaskError> {
    std::fs::create_dir_all(path).map_err(|source| XtaskError::io(path, source))
}

/// Every `*.json` scenario under `dir`, sorted by name.
pub fn load_scenarios(dir: &Path) -> Result<Vec<Scenario>, XtaskError> {
    let entries = std::fs::read_dir(dir).map_err(|source| XtaskError::io(dir, source))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|source| XtaskError::io(dir, source))?.path();
        if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            paths.push(path);
        }
    }
    paths.sort();
    paths.iter().map(|path| load_scenario(path)).collect()
}

/// One scenario file.
pub fn load_scenario(path: &Path) -> Result<Scenario, XtaskError> {
    let text = std::fs::read_to_string(path).map_err(|source| XtaskError::io(path, source))?;
    let mut scenario: Scenario =
        serde_json::from_str(&text).map_err(|source| XtaskError::Json {
            path: path.to_path_buf(),
            source,
        })?;
    scenario.name = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    scenario.validate(path)?;
    Ok(scenario)
}
