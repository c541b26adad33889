use std::path::PathBuf;

use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigOverrides;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::SandboxMode;
use codex_protocol::SandboxPolicy;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;

use super::*;
use crate::base_instructions::BaseInstructionsSource;
use crate::ids::IdGenerator;

fn env(codex_home: PathBuf) -> ConfigEnv {
    ConfigEnv {
        codex_home: Some(codex_home),
        home_dir: None,
        current_dir: Some(PathBuf::from("/work/project")),
        shell: Some("/bin/zsh".to_string()),
        tz: None,
        system_timezone: None,
        now: "2026-11-30T07:02:00Z".parse().expect("timestamp"),
    }
}

fn load(flags: ConfigOverrides) -> (Config, tempfile::TempDir) {
    let home = tempfile::tempdir().expect("tempdir");
    let config = Config::load(&flags, &[], &env(home.path().to_path_buf())).expect("config");
    (config, home)
}

fn from_config(config: &Config) -> TurnContext {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let templates = TemplateSet::embedded();
    let ids = IdGenerator::seeded(7, "2026-11-30T07:02:00Z".parse().expect("timestamp"));
    let drawn = ids.draw_turn_ids();
    TurnContext::from_config(
        config,
        TurnContextSources {
            catalog: &catalog,
            templates: &templates,
            identity: &drawn.identity,
            recorded_base_instructions: None,
        },
        drawn.turn_id,
        None,
    )
    .expect("turn context")
}

#[test]
fn previous_model_prefers_previous_turn_settings_over_provenance() {
    let mut turn = TurnContext::for_model("t", "u", ModelInfo::with_defaults("gpt-b"), "/w");
    assert_eq!(turn.previous_model(), None);

    let recorded = BaseInstructions {
        text: "instructions written for gpt-a".to_string(),
        provenance: Some(BaseInstructionsProvenance::Model {
            model: "gpt-a".to_string(),
        }),
    };
    turn.resolve_base_instructions(BaseInstructionsOverrides {
        configured: None,
        recorded: Some(&recorded),
    });
    assert_eq!(turn.previous_model(), Some("gpt-a"));

    turn.previous_turn = Some(PreviousTurnSettings {
        model: "gpt-c".to_string(),
        personality: None,
    });
    assert_eq!(turn.previous_model(), Some("gpt-c"));
}

#[test]
fn empty_configuration_uses_the_catalog_default_model_and_upstream_defaults() {
    let (config, _home) = load(ConfigOverrides {
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        ..ConfigOverrides::default()
    });
    let turn = from_config(&config);
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let default_model = catalog.default_model().expect("default model");
    assert_eq!(turn.model.slug, default_model.slug);
    assert_eq!(turn.cwd, PathBuf::from("/work/project"));
    assert_eq!(
        turn.environments,
        vec![TurnEnvironment {
            id: LOCAL_ENVIRONMENT_ID.to_string(),
            cwd: "/work/project".to_string(),
            status: super::EnvironmentStatus::Available,
            shell: Some("zsh".to_string()),
            workspace_roots: vec!["/work/project".to_string()],
        }]
    );
    assert_eq!(turn.current_date, "2026-11-30");
    assert_eq!(turn.timezone, "Etc/UTC");
    assert_eq!(turn.sandbox_policy, SandboxPolicy::new_read_only_policy());
    assert_eq!(turn.web_search_mode, WebSearchMode::Cached);
    assert_eq!(turn.collaboration_mode.mode, ModeKind::Default);
    assert_eq!(
        turn.collaboration_mode.settings.developer_instructions,
        None
    );
    assert_eq!(
        turn.base_instructions.source(),
        BaseInstructionsSource::ModelTemplate
    );
    assert_eq!(
        turn.base_instructions.text(),
        turn.model.get_model_instructions(None)
    );
    assert_eq!(
        turn.token_budget.first_window_id,
        turn.token_budget.window_id
    );
    assert_eq!(turn.provider_id, "openai");
}

#[test]
fn seeded_ids_make_the_turn_context_reproducible() {
    let (config, _home) = load(ConfigOverrides {
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        ..ConfigOverrides::default()
    });
    let first = from_config(&config);
    let second = from_config(&config);
    assert_eq!(first, second);
    assert_ne!(first.thread_id, first.turn_id);
}

#[test]
fn configured_texts_modes_and_policies_reach_the_turn() {
    let (config, _home) = load(ConfigOverrides {
        model: Some("gpt-5.5".to_string()),
        personality: Some(Personality::Friendly),
        sandbox_mode: Some(SandboxMode::DangerFullAccess),
        developer_instructions: Some("Use tabs.".to_string()),
        collaboration_mode: Some(ModeKind::Plan),
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        ..ConfigOverrides::default()
    });
    let turn = from_config(&config);
    assert_eq!(turn.model.slug, "gpt-5.5");
    assert_eq!(turn.personality, Some(Personality::Friendly));
    assert_eq!(
        turn.base_instructions.text(),
        turn.model
            .get_model_instructions(Some(Personality::Friendly))
    );
    assert_eq!(turn.sandbox_policy, SandboxPolicy::DangerFullAccess);
    assert_eq!(turn.web_search_mode, WebSearchMode::Live);
    assert_eq!(turn.developer_instructions.as_deref(), Some("Use tabs."));
    assert_eq!(
        turn.collaboration_mode
            .settings
            .developer_instructions
            .as_deref(),
        Some(TemplateSet::embedded().text(TemplateId::CollaborationModePlan))
    );
}

#[test]
fn unconfigured_personality_renders_the_pragmatic_text() {
    // Upstream's default_personality_is_pragmatic_without_config_toml: feature on, nothing set.
    let (config, _home) = load(ConfigOverrides {
        model: Some("gpt-5.4".to_string()),
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        ..ConfigOverrides::default()
    });
    let turn = from_config(&config);
    assert_eq!(turn.personality, Some(Personality::Pragmatic));
    assert_eq!(
        turn.base_instructions.text(),
        TemplateId::BaseInstructionsGpt5.embedded_file().replace(
            "{{ personality }}",
            TemplateId::PersonalityPragmatic.embedded_file()
        )
    );
}

#[test]
fn disabled_personality_feature_ignores_the_configured_personality() {
    let mut flags = ConfigOverrides {
        model: Some("gpt-5.5".to_string()),
        personality: Some(Personality::Friendly),
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        ..ConfigOverrides::default()
    };
    flags.features.insert("personality".to_string(), false);
    let (config, _home) = load(flags);
    let turn = from_config(&config);
    assert_eq!(turn.personality, None);
    assert!(!turn.model.supports_personality());
}

#[test]
fn configured_base_instructions_are_custom_and_drop_catalog_messages() {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        home.path().join("config.toml"),
        "model = \"gpt-5.5\"\nbase_instructions = \"Answer briefly.\"\ncurrent_date = \"2026-11-30\"\ntimezone = \"Etc/UTC\"\n",
    )
    .expect("write config");
    let config = Config::load(
        &ConfigOverrides::default(),
        &[],
        &env(home.path().to_path_buf()),
    )
    .expect("config");
    let turn = from_config(&config);
    assert_eq!(
        turn.base_instructions.instructions(),
        &BaseInstructions {
            text: "Answer briefly.".to_string(),
            provenance: Some(BaseInstructionsProvenance::Custom),
        }
    );
    assert_eq!(
        turn.base_instructions.source(),
        BaseInstructionsSource::Configured
    );
    assert_eq!(turn.model.model_messages, None);
}

/// Without an environment a turn offers no tool that needs one (shell, patch, image viewing).
#[test]
fn a_turn_without_environments_offers_no_environment_tools() {
    let templates = TemplateSet::embedded();
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let model = catalog.lookup("gpt-5.5").info;
    let mut turn = TurnContext::for_model("t", "u", model, "/w");
    let names = |turn: &TurnContext| -> Vec<String> {
        turn.builtin_tools(&templates)
            .expect("tools")
            .iter()
            .map(|tool| {
                let tool = serde_json::to_value(tool).expect("tool");
                tool["name"].as_str().unwrap_or_default().to_string()
            })
            .collect()
    };
    let with = names(&turn);
    turn.environments.clear();
    let without = names(&turn);
    let dropped: Vec<&str> = with
        .iter()
        .map(String::as_str)
        .filter(|name| !without.iter().any(|kept| kept == name))
        .collect();
    assert_eq!(
        dropped,
        ["exec_command", "write_stdin", "apply_patch", "view_image"]
    );
}

/// A contributor's text is rendered for each environment, the primary first; one without text
/// adds nothing; a placeholder no contributor is given is an error naming the contributor.
#[test]
fn turn_input_contributors_render_per_environment() {
    let (mut config, _home) = load(ConfigOverrides::default());
    config.turn_input_contributors = vec![
        codex_config::TurnInputContributor {
            name: "note".to_string(),
            text: "{{ environment_id }}: {{ cwd }} ({{ primary }})".to_string(),
        },
        codex_config::TurnInputContributor {
            name: "silent".to_string(),
            text: String::new(),
        },
    ];
    let turn = from_config(&config);
    let items = turn.turn_input_contributions(&TemplateSet::embedded());
    let texts: Vec<String> = items
        .iter()
        .map(|item| {
            let item = serde_json::to_value(item).expect("item");
            item["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(
        texts,
        [
            "<turn_input_contribution name=\"note\">\nlocal: /work/project (true)\n</turn_input_contribution>"
        ]
    );

    config.turn_input_contributors[0].text = "{{ model }}".to_string();
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let templates = TemplateSet::embedded();
    let ids = IdGenerator::seeded(7, "2026-11-30T07:02:00Z".parse().expect("timestamp"));
    let drawn = ids.draw_turn_ids();
    let error = TurnContext::from_config(
        &config,
        TurnContextSources {
            catalog: &catalog,
            templates: &templates,
            identity: &drawn.identity,
            recorded_base_instructions: None,
        },
        drawn.turn_id,
        None,
    )
    .expect_err("an undefined placeholder");
    assert!(error.to_string().contains("contributor `note`"), "{error}");
}
