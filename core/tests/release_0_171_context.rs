//! What 0.171.0 puts in the context and the world state where 0.149.1 differs: the `<tools>`
//! listing of deferred namespaces, the personality written into the instructions, and the
//! sections of the world-state record.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod first_turn_support;

use codex_config::ConfigOverrides;
use codex_core::TurnContext;
use codex_core::build_world_state_for_step;
use codex_prompts::TemplateSet;
use codex_protocol::Personality;
use codex_protocol::SandboxMode;
use codex_release::CodexRelease;
use first_turn_support::first_turn;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
use first_turn_support::redacted_body;
use pretty_assertions::assert_eq;

fn flags(model: &str, personality: Option<Personality>) -> ConfigOverrides {
    ConfigOverrides {
        model: Some(model.to_string()),
        personality,
        codex_version: Some(CodexRelease::V0_171),
        ..pinned_flags()
    }
}

fn turn_of(flags: &ConfigOverrides) -> (TurnContext, codex_core::FirstTurn) {
    let config = load_config(flags, None);
    first_turn(
        &config,
        None,
        |_| {},
        codex_core::FirstTurnOptions {
            user_message: Some("hello"),
            ..codex_core::FirstTurnOptions::default()
        },
    )
}

/// The section IDs of the turn's full world-state record.
fn recorded_sections(turn: &TurnContext) -> Vec<String> {
    let world_state = build_world_state_for_step(turn, &TemplateSet::embedded()).unwrap();
    let snapshot = serde_json::to_value(world_state.snapshot()).unwrap();
    snapshot.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn gpt_5_5_lists_its_deferred_namespaces_last_in_the_developer_bundle() {
    let (turn, first) = turn_of(&flags("gpt-5.5", None));
    let body = redacted_body(&turn, &first);
    insta::assert_snapshot!(
        "gpt_5_5_developer_bundle_0_171",
        serde_json::to_string_pretty(&body["input"]).unwrap()
    );
}

#[test]
fn the_record_has_0_171_s_sections() {
    let (turn, _) = turn_of(&flags("gpt-5.5", None));
    assert_eq!(
        recorded_sections(&turn),
        [
            "agents_md",
            "apps_instructions",
            "collaboration_mode",
            "context_window_guidance",
            "environments",
            "environments_instructions",
            "managed_developer_instructions",
            "model",
            "model_catalog",
            "multi_agent_mode",
            "permissions",
            "persistent_mode",
            "plugins_instructions",
            "realtime",
            "tools",
        ]
    );
    let (lite, _) = turn_of(&flags("gpt-5.6-sol", None));
    let sections = recorded_sections(&lite);
    assert!(sections.contains(&"top_level_tools".to_string()));
    assert!(!sections.contains(&"tools".to_string()));
}

#[test]
fn the_personality_is_part_of_the_instructions_and_none_removes_it() {
    let friendly_text = codex_prompts::TemplateId::PersonalityFriendly.embedded_file();
    let friendly_text = friendly_text.trim();
    for personality in [
        None,
        Some(Personality::Friendly),
        Some(Personality::Pragmatic),
    ] {
        let (turn, _) = turn_of(&flags("gpt-5.5", personality));
        assert_eq!(turn.personality, None, "{personality:?}");
        assert!(
            turn.base_instructions.text().contains(friendly_text),
            "{personality:?}: the friendly text"
        );
    }
    let (turn, _) = turn_of(&flags("gpt-5.5", Some(Personality::None)));
    assert_eq!(turn.personality, None);
    assert!(!turn.base_instructions.text().contains(friendly_text));
}

#[test]
fn workspace_write_keeps_the_cloud_credentials_folder_read_only() {
    let (turn, first) = turn_of(&ConfigOverrides {
        sandbox_mode: Some(SandboxMode::WorkspaceWrite),
        ..flags("gpt-5.5", None)
    });
    let body = redacted_body(&turn, &first);
    let environment = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|item| item["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|part| part["text"].as_str().map(str::to_string))
        .find(|text| text.starts_with("<environment_context>"))
        .unwrap();
    insta::assert_snapshot!("workspace_write_environment_context_0_171", environment);
}
