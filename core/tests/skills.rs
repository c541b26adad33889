//! The skills extension end to end: `[skills]` in configuration becomes the turn context's
//! skills, the step's world state carries `skills` and `host_skills` (the latter before
//! `permissions`), and the first request lists the host catalogue. (A script's `skills` is
//! read by codex-script's `script_format` tests.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod first_turn_support;

use std::path::PathBuf;

use codex_config::BundledSkills;
use codex_config::CliOverride;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigOverrides;
use codex_config::OrchestratorSkills;
use codex_config::SkillToml;
use codex_config::SkillsConfig;
use codex_core::FirstTurnOptions;
use codex_core::SkillEntry;
use codex_core::SkillsListing;
use codex_core::SkillsSettings;
use codex_core::build_world_state_for_step;
use codex_prompts::TemplateSet;
use first_turn_support::first_turn;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
use first_turn_support::redacted_body;
use pretty_assertions::assert_eq;
use serde_json::json;

const SKILLS_TOML: &str = r#"
[skills]

[[skills.host]]
name = "pdf"
description = "Read and fill PDF forms."
path = "/home/user/.codex/skills/pdf/SKILL.md"

[[skills.host]]
name = "slides"
description = "Build slide decks."
path = "/home/user/.codex/skills/slides/SKILL.md"
"#;

fn gpt_5_4() -> ConfigOverrides {
    ConfigOverrides {
        model: Some("gpt-5.4".to_string()),
        ..pinned_flags()
    }
}

fn host_skill(name: &str, description: &str) -> SkillEntry {
    SkillEntry {
        name: name.to_string(),
        description: description.to_string(),
        path: format!("/home/user/.codex/skills/{name}/SKILL.md"),
    }
}

#[test]
fn configured_skills_reach_the_turn_context() {
    let config = load_config(&gpt_5_4(), Some(SKILLS_TOML));
    let (turn, _) = first_turn(&config, None, |_| {}, FirstTurnOptions::default());
    assert_eq!(
        turn.skills,
        Some(SkillsSettings {
            listing: SkillsListing::Listed,
            host: vec![
                host_skill("pdf", "Read and fill PDF forms."),
                host_skill("slides", "Build slide decks."),
            ],
            orchestrator: OrchestratorSkills::Absent,
            system_skills: None,
            roots: Vec::new(),
        })
    );
    let unconfigured = load_config(&gpt_5_4(), None);
    assert_eq!(unconfigured.skills, None);
}

#[test]
fn relative_skill_paths_resolve_against_codex_home_and_overrides_merge() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        "[[skills.host]]\nname = \"pdf\"\ndescription = \"PDF forms.\"\npath = \"skills/pdf/SKILL.md\"\n",
    )
    .unwrap();
    let env = ConfigEnv {
        codex_home: Some(home.path().to_path_buf()),
        home_dir: None,
        current_dir: Some(PathBuf::from("/work/project")),
        shell: None,
        tz: None,
        system_timezone: Some("UTC".to_string()),
        now: "2026-11-30T07:00:00Z".parse().unwrap(),
    };
    let overrides = ["skills.include_instructions=false"
        .parse::<CliOverride>()
        .unwrap()];
    let config = Config::load(&pinned_flags(), &overrides, &env).unwrap();
    assert_eq!(
        config.skills,
        Some(SkillsConfig {
            include_instructions: false,
            bundled: BundledSkills::Enabled,
            host: vec![SkillToml {
                name: "pdf".to_string(),
                description: "PDF forms.".to_string(),
                path: home.path().join("skills/pdf/SKILL.md"),
            }],
            orchestrator: OrchestratorSkills::Absent,
        })
    );
}

#[test]
fn step_world_state_places_host_skills_before_permissions() {
    let config = load_config(&gpt_5_4(), Some(SKILLS_TOML));
    let (turn, _) = first_turn(&config, None, |_| {}, FirstTurnOptions::default());
    let templates = TemplateSet::embedded();
    let world_state = build_world_state_for_step(&turn, &templates).unwrap();
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        vec![
            "model",
            "personality",
            "realtime",
            "agents_md",
            "host_skills",
            "permissions",
            "collaboration_mode",
            "environments",
            "environments_instructions",
            "apps_instructions",
            "plugins_instructions",
            "skills",
            "multi_agent_mode",
            "managed_developer_instructions",
        ]
    );
    let snapshot = world_state.snapshot().into_value();
    assert_eq!(snapshot["skills"], json!({"includeInstructions": true}));
    assert_eq!(snapshot["host_skills"]["includeInstructions"], json!(true));
    let body = snapshot["host_skills"]["body"].as_str().unwrap();
    assert!(body.contains(
        "- pdf: Read and fill PDF forms. (file: /home/user/.codex/skills/pdf/SKILL.md)\n"
    ));

    // Not listed: both sections remain, without a catalogue.
    let (hidden, _) = first_turn(
        &config,
        None,
        |turn| {
            if let Some(skills) = &mut turn.skills {
                skills.listing = SkillsListing::NotListed;
            }
        },
        FirstTurnOptions::default(),
    );
    let snapshot = build_world_state_for_step(&hidden, &templates)
        .unwrap()
        .snapshot()
        .into_value();
    assert_eq!(
        (&snapshot["skills"], &snapshot["host_skills"]),
        (
            &json!({"includeInstructions": false}),
            &json!({"includeInstructions": false})
        )
    );
}

#[test]
fn first_turn_lists_host_skills_ahead_of_the_permissions() {
    let config = load_config(&gpt_5_4(), Some(SKILLS_TOML));
    let (turn, first) = first_turn(
        &config,
        None,
        |_| {},
        FirstTurnOptions {
            user_message: Some("make slides from report.pdf"),
            ..FirstTurnOptions::default()
        },
    );
    // Only the input: the tool list is not the extension's business.
    let body = redacted_body(&turn, &first);
    insta::assert_snapshot!(serde_json::to_string_pretty(&body["input"]).unwrap());
}
