//! Shared fixtures of the first-turn tests: configuration with a pinned clock, cwd and shell, a
//! seeded id generator, hand-built AGENTS.md discoveries and body redaction.
#![allow(dead_code)]

use std::path::Path;
use std::path::PathBuf;

use codex_config::AgentsMdDiscovery;
use codex_config::AgentsMdWarning;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigOverrides;
use codex_config::EnvironmentRole;
use codex_config::GlobalInstructions;
use codex_config::ProjectDoc;
use codex_core::FirstTurn;
use codex_core::FirstTurnOptions;
use codex_core::IdGenerator;
use codex_core::TurnContext;
use codex_core::TurnContextSources;
use codex_core::build_first_turn_request;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use serde_json::Value;

pub const CWD: &str = "/work/project";
pub const CODEX_HOME: &str = "/home/user/.codex";
pub const PINNED_START: &str = "2026-11-30T07:02:00Z";
pub const SEED: u64 = 7;

pub fn seeded() -> IdGenerator {
    IdGenerator::seeded(SEED, PINNED_START.parse().expect("pinned start"))
}

/// Flags with the date, timezone, shell and cwd pinned.
pub fn pinned_flags() -> ConfigOverrides {
    ConfigOverrides {
        cwd: Some(PathBuf::from(CWD)),
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        shell: Some("bash".to_string()),
        seed: Some(SEED),
        ..ConfigOverrides::default()
    }
}

/// Loads configuration from a temporary CODEX_HOME holding `config_toml` (if any).
pub fn load_config(flags: &ConfigOverrides, config_toml: Option<&str>) -> Config {
    let home = tempfile::tempdir().expect("tempdir");
    if let Some(text) = config_toml {
        std::fs::write(home.path().join("config.toml"), text).expect("write config");
    }
    let env = ConfigEnv {
        codex_home: Some(home.path().to_path_buf()),
        home_dir: None,
        current_dir: Some(PathBuf::from(CWD)),
        shell: None,
        tz: None,
        system_timezone: Some("UTC".to_string()),
        now: PINNED_START.parse().expect("pinned start"),
    };
    Config::load(flags, &[], &env).expect("config loads")
}

/// The turn context and first-turn request of `config`; `adjust` changes the turn context
/// before the request is built (settings configuration cannot express).
pub fn first_turn(
    config: &Config,
    agents_md: Option<AgentsMdDiscovery>,
    adjust: impl FnOnce(&mut TurnContext),
    options: FirstTurnOptions<'_>,
) -> (TurnContext, FirstTurn) {
    let templates = TemplateSet::embedded();
    // The catalog the configured release bundles.
    let catalog =
        ModelCatalog::bundled_for(config.release.profile().catalog, &templates).expect("catalog");
    let ids = seeded();
    let drawn = ids.draw_turn_ids();
    let mut turn = TurnContext::from_config(
        config,
        TurnContextSources {
            catalog: &catalog,
            templates: &templates,
            identity: &drawn.identity,
            recorded_base_instructions: None,
        },
        drawn.turn_id,
        agents_md,
    )
    .expect("turn context");
    adjust(&mut turn);
    let tools = turn
        .builtin_tools(&codex_prompts::TemplateSet::embedded())
        .expect("tools");
    let first = build_first_turn_request(&turn, tools, &templates, &ids, options).expect("request");
    (turn, first)
}

/// Global instructions only, as upstream's prompt-caching test configures them.
pub fn global_agents_md(text: &str) -> AgentsMdDiscovery {
    AgentsMdDiscovery {
        global: Some(GlobalInstructions {
            path: Path::new(CODEX_HOME).join("AGENTS.md"),
            text: text.to_string(),
        }),
        primary_cwd: Some(PathBuf::from(CWD)),
        ..AgentsMdDiscovery::default()
    }
}

fn project_doc(path: &str, text: &str, truncated_bytes: usize, cwd: &str) -> ProjectDoc {
    ProjectDoc {
        path: PathBuf::from(path),
        text: text.to_string(),
        bytes_used: text.len(),
        truncated_bytes,
        environment_id: "local".to_string(),
        environment_cwd: PathBuf::from(cwd),
        environment_role: EnvironmentRole::Primary,
    }
}

/// Working directory of the three-level AGENTS.md chain.
pub const NESTED_CWD: &str = "/work/project/crates/core";

/// Global instructions plus project docs at the root, `crates/` and `crates/core/` (the cwd);
/// the innermost file was cut by the byte budget.
pub fn three_level_agents_md() -> AgentsMdDiscovery {
    AgentsMdDiscovery {
        global: Some(GlobalInstructions {
            path: Path::new(CODEX_HOME).join("AGENTS.md"),
            text: "Reply in English.".to_string(),
        }),
        project_docs: vec![
            project_doc(
                "/work/project/AGENTS.md",
                "Run `cargo test` before committing.",
                0,
                NESTED_CWD,
            ),
            project_doc(
                "/work/project/crates/AGENTS.md",
                "Every crate keeps its own README.",
                0,
                NESTED_CWD,
            ),
            project_doc(
                "/work/project/crates/core/AGENTS.md",
                "Core code never perfor",
                17,
                NESTED_CWD,
            ),
        ],
        internal_guidance: None,
        primary_cwd: Some(PathBuf::from(NESTED_CWD)),
        project_docs_policy: codex_config::ProjectDocsPolicy::Discover,
        warnings: vec![AgentsMdWarning::Truncated {
            path: PathBuf::from("/work/project/crates/core/AGENTS.md"),
            kept_bytes: 22,
            dropped_bytes: 17,
        }],
    }
}

/// The body as JSON with the long, model-owned texts replaced by placeholders: `instructions`
/// and any copy of the base or model instructions inside input texts, and tool specs (reduced
/// to their names). Everything the context assembly writes stays verbatim.
pub fn redacted_body(turn: &TurnContext, first: &FirstTurn) -> Value {
    let mut body = serde_json::to_value(&first.request).expect("serialize");
    let base = turn.base_instructions.text().to_string();
    let model_instructions = turn.base_instructions.model_instructions().to_string();
    let object = body.as_object_mut().expect("object");
    if let Some(instructions) = object.get_mut("instructions") {
        *instructions = Value::String("<BASE_INSTRUCTIONS>".to_string());
    }
    if let Some(tools) = object.get_mut("tools") {
        *tools = tool_names(tools);
    }
    if let Some(Value::Array(input)) = object.get_mut("input") {
        for item in input {
            if item["type"] == "additional_tools" {
                item["tools"] = tool_names(&item["tools"]);
            }
            if let Some(Value::Array(content)) = item.get_mut("content") {
                for part in content {
                    if let Some(Value::String(text)) = part.get_mut("text") {
                        let mut redacted = text.clone();
                        if !base.is_empty() {
                            redacted = redacted.replace(&base, "<BASE_INSTRUCTIONS>");
                        }
                        if !model_instructions.is_empty() {
                            redacted =
                                redacted.replace(&model_instructions, "<MODEL_INSTRUCTIONS>");
                        }
                        *text = redacted;
                    }
                }
            }
        }
    }
    body
}

fn tool_names(tools: &Value) -> Value {
    Value::Array(
        tools
            .as_array()
            .expect("tools array")
            .iter()
            .map(|tool| {
                let name = tool
                    .get("name")
                    .or_else(|| tool.get("type"))
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                match tool.get("tools") {
                    Some(nested) => Value::String(format!("{name}: {}", tool_names(nested))),
                    None => Value::String(name.to_string()),
                }
            })
            .collect(),
    )
}
