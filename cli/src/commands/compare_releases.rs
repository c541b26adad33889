//! `compare --codex-version A --codex-version B SCRIPT`: one session script played under two
//! release profiles, so the comparison shows what the newer release changed in what the model
//! sees and in what is recorded.

use std::path::Path;

use anyhow::Context as _;
use codex_inspect::CompareInput;
use codex_inspect::InputKind;
use codex_release::CodexRelease;
use codex_rollout::LoadedLine;
use codex_rollout::LoadedRollout;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::ScriptRequest;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::SettingsLayer;
use codex_script::play_script;

use super::session::SessionOptions;
use super::session::environment;
use crate::catalog::CatalogArgs;

/// The script's requests and rollout under each release, and the heading that names them.
pub struct PlayedUnderReleases {
    pub heading: String,
    pub a: CompareInput,
    pub b: CompareInput,
}

/// Plays the session script at `path` under each of `releases` (in memory, scripted replies,
/// an isolated CODEX_HOME) and returns both runs as comparison inputs.
pub fn play_under_releases(
    path: &Path,
    releases: [CodexRelease; 2],
    catalog: &CatalogArgs,
) -> anyhow::Result<PlayedUnderReleases> {
    let [first, second] = releases;
    let a = play(path, first, catalog)?;
    let b = play(path, second, catalog)?;
    let heading = format!(
        "{}: A is release {} (Codex CLI {}), B is release {} (Codex CLI {})\n",
        path.display(),
        first.name(),
        first.observed_version(),
        second.name(),
        second.observed_version()
    );
    Ok(PlayedUnderReleases { heading, a, b })
}

fn play(path: &Path, release: CodexRelease, catalog: &CatalogArgs) -> anyhow::Result<CompareInput> {
    let mut script = Script::load(path)?;
    script.session = script
        .session
        .then(&SettingsLayer::release("--codex-version", release));
    let options = SessionOptions {
        catalog: catalog.clone(),
        prompts_dir: None,
        codex_home: None,
        codex_version: Some(release),
    };
    let env = environment(
        &options,
        script.session.path("model_catalog"),
        Some(script.base_dir.clone()),
    )?;
    let mut requests: Vec<ScriptRequest> = Vec::new();
    let lines = play_script(
        &script,
        &env,
        ScriptStart::Beginning,
        ScriptSink::memory(),
        ContextMode::Diffs,
        &mut ScriptedReplies,
        &mut requests,
    )
    .with_context(|| format!("release {}", release.name()))?
    .rollout;
    let requests = requests
        .iter()
        .map(|request| serde_json::to_value(&request.body))
        .collect::<Result<Vec<_>, _>>()?;
    let rollout = LoadedRollout {
        lines: lines
            .into_iter()
            .enumerate()
            .map(|(index, line)| LoadedLine {
                line_number: index + 1,
                line,
            })
            .collect(),
        warnings: Vec::new(),
    };
    Ok(CompareInput {
        kind: InputKind::Rollout,
        requests,
        rollout: Some(rollout),
    })
}
