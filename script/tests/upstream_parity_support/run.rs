//! Running one scenario's script and comparing it with upstream's capture.

use std::path::Path;
use std::path::PathBuf;

use codex_config::ConfigEnv;
use codex_inspect::CompareError;
use codex_inspect::CompareInput;
use codex_inspect::Difference;
use codex_inspect::InputKind;
use codex_inspect::Position;
use codex_inspect::ProseMode;
use codex_inspect::compare_inputs;
use codex_inspect::load_compare_input;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ReleaseCatalogs;
use codex_prompts::TemplateSet;
use codex_protocol::RolloutLine;
use codex_rollout::LoadedRollout;
use codex_rollout::parse_rollout;
use codex_rollout::read_rollout;
use codex_script::CodexHome;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::SessionEnvironment;
use codex_script::run_script;

use super::Corpus;

/// One structural difference: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// As `compare` prints it, location included.
    pub line: String,
    /// The text after the location, which known gaps are matched against.
    pub detail: String,
}

/// What comparing one scenario found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub name: String,
    /// Differences between the request bodies.
    pub requests: Vec<Finding>,
    /// Differences between the rollouts' line sequences.
    pub rollout: Vec<Finding>,
    /// Why the scenario could not be compared at all.
    pub failure: Option<String>,
}

impl Outcome {
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.requests.iter().chain(&self.rollout)
    }
}

/// Upstream's catalog, loaded once per run.
pub fn upstream_catalog(fixtures: &Path) -> ModelCatalog {
    ModelCatalog::from_path(fixtures.join("models.json")).expect("upstream models.json")
}

/// Runs the scenario's script under upstream's catalog and compares its requests and rollout
/// with the capture under `fixtures`.
pub fn run_scenario(
    corpus: &Corpus,
    fixtures: &Path,
    catalog: &ModelCatalog,
    name: &str,
) -> Outcome {
    let name_owned = name.to_string();
    match compare_scenario(corpus, fixtures, catalog, name) {
        Ok((requests, rollout)) => Outcome {
            name: name_owned,
            requests,
            rollout,
            failure: None,
        },
        Err(failure) => Outcome {
            name: name_owned,
            requests: Vec::new(),
            rollout: Vec::new(),
            failure: Some(failure),
        },
    }
}

fn compare_scenario(
    corpus: &Corpus,
    fixtures: &Path,
    catalog: &ModelCatalog,
    name: &str,
) -> Result<(Vec<Finding>, Vec<Finding>), String> {
    let script = Script::load(&corpus.script_path(name)).map_err(|error| error.to_string())?;
    let environment = SessionEnvironment {
        // The upstream captures are of the reference commit: one catalog for them all.
        catalogs: ReleaseCatalogs::File(catalog.clone()),
        templates: TemplateSet::embedded(),
        codex_home: corpus
            .codex_home(name)
            .map_or(CodexHome::Isolated, CodexHome::Dir),
        // Upstream's core test harness installs no extension unasked.
        host: codex_config::ExtensionHost::Library,
        // Nothing from this machine: every script pins date, time zone and shell.
        config_env: ConfigEnv {
            codex_home: None,
            home_dir: None,
            current_dir: Some(script.base_dir.clone()),
            shell: None,
            tz: None,
            system_timezone: None,
            now: "2026-11-30T07:00:00Z".parse().expect("timestamp"),
        },
    };
    let run = run_script(
        &script,
        &environment,
        ScriptStart::Beginning,
        ScriptSink::memory(),
        ContextMode::Diffs,
        &mut ScriptedReplies,
    )
    .map_err(|error| format!("the script does not run: {error}"))?;
    let requests = run
        .requests
        .iter()
        .map(|request| serde_json::to_value(&request.body))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| error.to_string())?;
    let ours = CompareInput {
        kind: InputKind::RequestLines,
        requests,
        rollout: Some(rollout_of(&run.rollout)?),
    };
    let capture = fixtures.join("captures").join(name);
    let mut theirs =
        match load_compare_input(&capture, &codex_inspect::InspectOptions::new(catalog)) {
            Ok(input) => input,
            // A scenario whose turns failed before any request captured none: its rollout is
            // all there is to compare.
            Err(CompareError::EmptyFolder { .. }) => CompareInput {
                kind: InputKind::RequestFolder,
                requests: Vec::new(),
                rollout: None,
            },
            Err(error) => return Err(error.to_string()),
        };
    let mut captured = captured_rollouts(&capture)?.into_iter();
    let first = captured
        .next()
        .ok_or_else(|| format!("{}: no rollout file", capture.display()))?;
    theirs.rollout = Some(read_rollout(&first, None).map_err(|e| e.to_string())?);
    let report = compare_inputs(&ours, &theirs, ProseMode::Ignore);
    let (requests, mut rollout): (Vec<Difference>, Vec<Difference>) = report
        .differences
        .into_iter()
        .partition(|difference| difference.request.is_some());
    // The threads the script forked, then the sub-agents it spawned, in order, against the
    // capture's other rollouts (file names sort in creation order; no scenario both forks and
    // spawns): their shapes only, the requests are compared above.
    let captured: Vec<PathBuf> = captured.collect();
    let threads: Vec<&Vec<RolloutLine>> = run.forks.iter().chain(&run.agents).collect();
    if captured.len() != threads.len() {
        return Err(format!(
            "the capture has {} more rollout files, the script forks {} threads and spawns {} agents",
            captured.len(),
            run.forks.len(),
            run.agents.len()
        ));
    }
    for (path, lines) in captured.iter().zip(threads) {
        let only_rollout = |rollout| CompareInput {
            kind: InputKind::RequestLines,
            requests: Vec::new(),
            rollout: Some(rollout),
        };
        let report = compare_inputs(
            &only_rollout(rollout_of(lines)?),
            &only_rollout(read_rollout(path, None).map_err(|e| e.to_string())?),
            ProseMode::Ignore,
        );
        rollout.extend(report.differences);
    }
    Ok((findings(requests), findings(rollout)))
}

/// The lines a run wrote, read back as a file of them would be.
fn rollout_of(lines: &[RolloutLine]) -> Result<LoadedRollout, String> {
    let mut text = Vec::new();
    for line in lines {
        serde_json::to_writer(&mut text, line).map_err(|error| error.to_string())?;
        text.push(b'\n');
    }
    parse_rollout(text.as_slice()).map_err(|error| error.to_string())
}

/// The capture's rollout files, sorted by name: the first thread's, then those of the threads
/// forked off it (their names start with their creation time).
fn captured_rollouts(capture: &Path) -> Result<Vec<PathBuf>, String> {
    let mut rollouts: Vec<PathBuf> = std::fs::read_dir(capture)
        .map_err(|error| format!("{}: {error}", capture.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "jsonl")
        })
        .collect();
    rollouts.sort();
    Ok(rollouts)
}

fn findings(differences: Vec<Difference>) -> Vec<Finding> {
    differences
        .into_iter()
        .map(|difference| {
            let line = difference.to_string();
            // The same difference with no location prints as `rollout: DETAIL`.
            let bare = Difference {
                request: None,
                position: Position::Request,
                ..difference
            }
            .to_string();
            let detail = bare
                .strip_prefix("rollout: ")
                .map_or(bare.clone(), str::to_string);
            Finding { line, detail }
        })
        .collect()
}
