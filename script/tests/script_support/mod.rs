//! Shared fixtures of the script tests: the example scripts under `examples/sessions/`, a
//! hermetic environment (bundled catalog, isolated home, fixed clock, no `$SHELL` or `$TZ`), and
//! rollout helpers.
#![allow(dead_code)]

use std::path::PathBuf;

use codex_config::ConfigEnv;
use codex_models_manager::ReleaseCatalogs;
use codex_prompts::TemplateSet;
use codex_protocol::RolloutLine;
use codex_rollout::LoadedRollout;
use codex_rollout::parse_rollout;
use codex_script::CodexHome;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::ScriptRun;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::SessionEnvironment;
use codex_script::run_script;

/// Every example script, by file stem.
pub const EXAMPLES: [&str; 8] = [
    "settings_changes",
    "cwd_agents_md",
    "model_switch",
    "compaction",
    "resume_after_model_change",
    "rollback",
    "reasoning",
    "environments",
];

pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join("sessions")
}

pub fn example(name: &str) -> Script {
    Script::load(&examples_dir().join(format!("{name}.json"))).expect("example script loads")
}

/// Scripts parsed from text, relative to the examples folder.
pub fn script(text: &str) -> Script {
    Script::parse(text, "script.json", &examples_dir()).expect("script parses")
}

/// The bundled catalog and templates, no CODEX_HOME, and a process environment with nothing
/// in it: only what scripts pin counts.
pub fn environment(script: &Script) -> SessionEnvironment {
    SessionEnvironment {
        catalogs: ReleaseCatalogs::bundled(&TemplateSet::embedded()).expect("bundled catalogs"),
        templates: TemplateSet::embedded(),
        codex_home: CodexHome::Isolated,
        host: codex_config::ExtensionHost::Library,
        config_env: ConfigEnv {
            codex_home: None,
            home_dir: None,
            current_dir: Some(script.base_dir.clone()),
            shell: None,
            tz: None,
            system_timezone: None,
            now: "2030-01-01T12:00:00Z".parse().expect("timestamp"),
        },
    }
}

pub fn run(script: &Script, mode: ContextMode) -> ScriptRun {
    run_script(
        script,
        &environment(script),
        ScriptStart::Beginning,
        ScriptSink::memory(),
        mode,
        &mut ScriptedReplies,
    )
    .expect("script runs")
}

/// `script` resumed at turn `turn` from `rollout` (context diffs, scripted replies).
pub fn resume(script: &Script, rollout: &LoadedRollout, turn: usize) -> ScriptRun {
    run_script(
        script,
        &environment(script),
        ScriptStart::Resume { rollout, turn },
        ScriptSink::memory(),
        ContextMode::Diffs,
        &mut ScriptedReplies,
    )
    .expect("script resumes")
}

/// `script` with only its first `turns` turns.
pub fn truncated(script: &Script, turns: usize) -> Script {
    Script {
        turns: script.turns[..turns].to_vec(),
        ..script.clone()
    }
}

/// Lines as a rollout file holds them, read back.
pub fn reload(lines: &[RolloutLine]) -> LoadedRollout {
    let mut text = String::new();
    for line in lines {
        text.push_str(&serde_json::to_string(line).expect("line serializes"));
        text.push('\n');
    }
    let loaded = parse_rollout(text.as_bytes()).expect("rollout parses");
    assert_eq!(loaded.warnings, Vec::new());
    loaded
}

/// The lines up to and including each turn's `task_complete`, one prefix per turn.
pub fn turn_prefixes(lines: &[RolloutLine]) -> Vec<&[RolloutLine]> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.item.event_msg_type() == Some("task_complete"))
        .map(|(index, _)| &lines[..=index])
        .collect()
}
