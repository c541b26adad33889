//! First-turn request bodies for a matrix of configurations (sandbox × approval × personality ×
//! Responses Lite × AGENTS.md chains × feature toggles), snapshotted with the long model-owned
//! texts redacted, and checked for the `CreateResponse` shape and upstream's field order.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod first_turn_support;
mod request_support;

use codex_config::ConfigOverrides;
use codex_core::Availability;
use codex_core::BaseInstructionsOverrides;
use codex_core::DeferredToolNamespace;
use codex_core::FirstTurnOptions;
use codex_core::Inclusion;
use codex_core::MultiAgentMode;
use codex_core::MultiAgentSettings;
use codex_core::MultiAgentUsageHintSectionInputs;
use codex_core::RequestItemSource;
use codex_core::SessionSource;
use codex_core::TurnContext;
use codex_core::UsageHintSource;
use codex_protocol::AskForApproval;
use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::SandboxMode;
use first_turn_support::NESTED_CWD;
use first_turn_support::first_turn;
use first_turn_support::global_agents_md;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
use first_turn_support::redacted_body;
use first_turn_support::three_level_agents_md;
use pretty_assertions::assert_eq;
use request_support::top_level_keys;
use request_support::validator::validate_create_response;
use serde_json::Value;

const STANDARD_KEYS: [&str; 13] = [
    "model",
    "instructions",
    "input",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "reasoning",
    "store",
    "stream",
    "include",
    "prompt_cache_key",
    "text",
    "client_metadata",
];

fn flags(model: &str) -> ConfigOverrides {
    ConfigOverrides {
        model: Some(model.to_string()),
        personality: Some(Personality::Pragmatic),
        ..pinned_flags()
    }
}

fn with_message(message: &str) -> FirstTurnOptions<'_> {
    FirstTurnOptions {
        user_message: Some(message),
        ..FirstTurnOptions::default()
    }
}

/// Checks shape and key order, then snapshots the redacted body.
fn check_and_snapshot(name: &str, turn: &TurnContext, first: &codex_core::FirstTurn) {
    let body = serde_json::to_value(&first.request).unwrap();
    validate_create_response(&body).unwrap_or_else(|error| panic!("{name}: {error}"));
    let expected: Vec<&str> = STANDARD_KEYS
        .iter()
        .copied()
        .filter(|key| match *key {
            "instructions" | "tools" => !turn.model.use_responses_lite,
            "text" => body.get("text").is_some(),
            _ => true,
        })
        .collect();
    assert_eq!(top_level_keys(&body), expected, "{name}");
    assert_eq!(
        first.item_origins.len(),
        body["input"].as_array().unwrap().len(),
        "{name}: one source per input item"
    );
    let pretty = serde_json::to_string_pretty(&redacted_body(turn, first)).unwrap();
    insta::assert_snapshot!(name, pretty);
}

#[test]
fn gpt_5_5_read_only_on_request_pragmatic_with_global_agents_md() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (turn, first) = first_turn(
        &config,
        Some(global_agents_md("be consistent and helpful")),
        |_| {},
        with_message("hello 1"),
    );
    check_and_snapshot("gpt_5_5_read_only_on_request_pragmatic", &turn, &first);
}

#[test]
fn no_configuration_uses_the_default_lite_model() {
    let config = load_config(&pinned_flags(), None);
    let (turn, first) = first_turn(&config, None, |_| {}, with_message("hello"));
    assert!(turn.model.use_responses_lite);
    let sources: Vec<&RequestItemSource> = first
        .item_origins
        .iter()
        .map(|origin| &origin.source)
        .collect();
    assert_eq!(
        sources[..2],
        [
            &RequestItemSource::LiteToolCatalog,
            &RequestItemSource::LiteBaseInstructions(
                codex_core::BaseInstructionsSource::ModelTemplate
            ),
        ]
    );
    check_and_snapshot("default_model_lite", &turn, &first);
}

#[test]
fn lite_forced_for_a_standard_model() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| turn.model.use_responses_lite = true,
        with_message("hello"),
    );
    let body = serde_json::to_value(&first.request).unwrap();
    assert_eq!(body.get("instructions"), None);
    assert_eq!(body["input"][0]["type"], "additional_tools");
    check_and_snapshot("forced_lite_gpt_5_5", &turn, &first);
}

#[test]
fn workspace_write_never_friendly() {
    let config = load_config(
        &ConfigOverrides {
            sandbox_mode: Some(SandboxMode::WorkspaceWrite),
            approval_policy: Some(AskForApproval::Never),
            personality: Some(Personality::Friendly),
            ..flags("gpt-5.5")
        },
        None,
    );
    let (turn, first) = first_turn(&config, None, |_| {}, with_message("hello"));
    check_and_snapshot("workspace_write_never_friendly", &turn, &first);
}

#[test]
fn danger_full_access_untrusted_without_personality() {
    let config = load_config(
        &ConfigOverrides {
            sandbox_mode: Some(SandboxMode::DangerFullAccess),
            approval_policy: Some(AskForApproval::UnlessTrusted),
            personality: Some(Personality::None),
            ..flags("gpt-5.2")
        },
        None,
    );
    let (turn, first) = first_turn(&config, None, |_| {}, with_message("hello"));
    check_and_snapshot("danger_full_access_untrusted_no_personality", &turn, &first);
}

#[test]
fn three_level_agents_md_chain() {
    let config = load_config(
        &ConfigOverrides {
            cwd: Some(NESTED_CWD.into()),
            ..flags("gpt-5.5")
        },
        None,
    );
    let (turn, first) = first_turn(
        &config,
        Some(three_level_agents_md()),
        |_| {},
        with_message("hello"),
    );
    check_and_snapshot("three_level_agents_md_chain", &turn, &first);
}

#[test]
fn developer_and_managed_instructions() {
    let config = load_config(
        &ConfigOverrides {
            developer_instructions: Some("Keep answers under ten lines.".to_string()),
            ..flags("gpt-5.5")
        },
        None,
    );
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.managed_developer_instructions =
                Some("Never upload source code to third-party services.".to_string());
        },
        with_message("hello"),
    );
    check_and_snapshot("developer_and_managed_instructions", &turn, &first);
}

#[test]
fn token_budget_with_guidance() {
    let mut flags = flags("gpt-5.5");
    flags.features.insert("token_budget".to_string(), true);
    let config = load_config(&flags, None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.token_budget.guidance_message =
                Some("Summarise long tool output before quoting it.".to_string());
        },
        with_message("hello"),
    );
    check_and_snapshot("token_budget_with_guidance", &turn, &first);
}

#[test]
fn realtime_conversation_in_plan_mode() {
    let config = load_config(
        &ConfigOverrides {
            realtime: Some(true),
            collaboration_mode: Some(ModeKind::Plan),
            ..flags("gpt-5.5")
        },
        None,
    );
    let (turn, first) = first_turn(&config, None, |_| {}, with_message("hello"));
    check_and_snapshot("realtime_plan_mode", &turn, &first);
}

#[test]
fn deferred_tools_environments_apps_and_plugins_guidance() {
    let mut flags = flags("gpt-5.5");
    flags
        .features
        .insert("deferred_tool_world_state".to_string(), true);
    flags.features.insert("deferred_executor".to_string(), true);
    let config = load_config(&flags, None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.apps = Availability::Available;
            turn.plugins = Availability::Available;
            turn.deferred_tool_namespaces = vec![
                DeferredToolNamespace {
                    name: "github".to_string(),
                    description: "Issues and pull requests.\nSecond line is dropped.".to_string(),
                },
                DeferredToolNamespace {
                    name: "calendar".to_string(),
                    description: "Events & <invites>".to_string(),
                },
            ];
        },
        with_message("hello"),
    );
    check_and_snapshot("deferred_tools_and_guidance", &turn, &first);
}

#[test]
fn personality_feature_disabled() {
    let mut flags = ConfigOverrides {
        personality: Some(Personality::Friendly),
        ..flags("gpt-5.5")
    };
    flags.features.insert("personality".to_string(), false);
    let config = load_config(&flags, None);
    let (turn, first) = first_turn(&config, None, |_| {}, with_message("hello"));
    check_and_snapshot("personality_feature_disabled", &turn, &first);
}

#[test]
fn permissions_and_environment_context_omitted() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (turn, first) = first_turn(
        &config,
        Some(global_agents_md("be brief")),
        |turn| {
            turn.inclusion.permissions_instructions = Inclusion::Omitted;
            turn.inclusion.environment_context = Inclusion::Omitted;
            turn.approved_command_prefixes = vec![vec!["cargo".to_string(), "test".to_string()]];
        },
        with_message("hello"),
    );
    check_and_snapshot("permissions_and_environment_omitted", &turn, &first);
}

#[test]
fn recorded_instructions_of_another_model_announce_a_model_switch() {
    let config = load_config(&flags("gpt-5.4"), None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            let recorded = BaseInstructions {
                text: "Instructions recorded while the thread ran on gpt-5.5.".to_string(),
                provenance: Some(BaseInstructionsProvenance::Model {
                    model: "gpt-5.5".to_string(),
                }),
            };
            turn.resolve_base_instructions(BaseInstructionsOverrides {
                configured: None,
                recorded: Some(&recorded),
            });
        },
        with_message("hello"),
    );
    assert_eq!(turn.previous_model(), Some("gpt-5.5"));
    check_and_snapshot("model_switch_from_recorded_instructions", &turn, &first);
}

#[test]
fn guardian_reviewer_policy_and_no_managed_instructions() {
    let config = load_config(
        &ConfigOverrides {
            developer_instructions: Some("Approve only read-only commands.".to_string()),
            ..flags("codex-auto-review")
        },
        None,
    );
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.session_source = SessionSource::GuardianReviewer;
            turn.managed_developer_instructions = Some("ignored for reviewers".to_string());
        },
        FirstTurnOptions::default(),
    );
    check_and_snapshot("guardian_reviewer", &turn, &first);
}

#[test]
fn custom_base_instructions_with_approved_prefixes() {
    let config = load_config(
        &flags("gpt-5.5"),
        Some("base_instructions = \"You review diffs and nothing else.\"\n"),
    );
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.approved_command_prefixes = vec![
                vec!["git".to_string(), "diff".to_string()],
                vec!["cargo".to_string(), "test".to_string()],
            ];
        },
        with_message("review this"),
    );
    let body = serde_json::to_value(&first.request).unwrap();
    assert_eq!(body["instructions"], "You review diffs and nothing else.");
    check_and_snapshot("custom_base_instructions_approved_prefixes", &turn, &first);
}

#[test]
fn multi_agent_catalog_role_and_proactive_mode() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.multi_agent = MultiAgentSettings {
                mode: Some(MultiAgentMode::Proactive),
                usage_hint: Some(MultiAgentUsageHintSectionInputs {
                    text: "You coordinate sub-agents; give each one a narrow task.".to_string(),
                    source: UsageHintSource::Catalog,
                }),
            };
        },
        with_message("hello"),
    );
    check_and_snapshot("multi_agent_catalog_role_proactive", &turn, &first);
}

#[test]
fn multi_agent_configured_hint_and_custom_mode() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (turn, first) = first_turn(
        &config,
        None,
        |turn| {
            turn.multi_agent = MultiAgentSettings {
                mode: Some(MultiAgentMode::Custom(
                    "Delegate test runs to a sub-agent.".to_string(),
                )),
                usage_hint: Some(MultiAgentUsageHintSectionInputs {
                    text: "Sub-agents share your workspace.".to_string(),
                    source: UsageHintSource::Configured,
                }),
            };
        },
        with_message("hello"),
    );
    check_and_snapshot("multi_agent_configured_hint_custom_mode", &turn, &first);
}

#[test]
fn same_inputs_give_the_same_bytes() {
    let config = load_config(&flags("gpt-5.5"), None);
    let build = || {
        let (_, first) = first_turn(
            &config,
            Some(three_level_agents_md()),
            |_| {},
            with_message("hello"),
        );
        serde_json::to_string_pretty(&first.request).unwrap()
    };
    assert_eq!(build(), build());
}

#[test]
fn content_item_kinds_can_be_kept() {
    let config = load_config(&flags("gpt-5.5"), None);
    let (_, first) = first_turn(
        &config,
        Some(global_agents_md("be brief")),
        |turn| turn.developer_instructions = Some("Be terse.".to_string()),
        FirstTurnOptions {
            user_message: Some("hello"),
            content_item_kinds: codex_core::ContentItemKindsPolicy::Keep,
        },
    );
    let body = serde_json::to_value(&first.request).unwrap();
    let kinds: Vec<Value> = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            item["internal_chat_message_metadata_passthrough"]["content_item_kinds"].clone()
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            serde_json::json!(["generic.developer_instructions", "permissions.instructions"]),
            serde_json::json!(["agents_md.instructions", "environments.environment_context"]),
            serde_json::json!(["user.text"]),
        ]
    );
}
