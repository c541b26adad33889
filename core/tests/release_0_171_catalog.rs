//! 0.171 with its bundled catalog: the default model, the tools each kind of model gets, the
//! catalog's root-agent role and Default-mode text in the first turn (what `cargo xtask
//! real-codex` observed of the release).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod first_turn_support;

use codex_config::ConfigOverrides;
use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::FirstTurnOptions;
use codex_core::SessionSource;
use codex_core::ToolSpec;
use codex_core::UsageHintSource;
use codex_core::builtin_tools;
use codex_core::derived_multi_agent_settings;
use codex_models_manager::BundledCatalog;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ModelInfo;
use codex_release::CatalogRoleText;
use codex_release::CodexRelease;
use first_turn_support::first_turn;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
use pretty_assertions::assert_eq;
use serde_json::Value;

fn model(slug: &str) -> ModelInfo {
    ModelCatalog::bundled_release(BundledCatalog::V0_171)
        .expect("0.171 catalog")
        .lookup(slug)
        .info
}

fn tools_0_171(model: &ModelInfo) -> Vec<ToolSpec> {
    builtin_tools(
        &BuiltinToolsConfig::for_release(
            model,
            WebSearchMode::Cached,
            &Features::default(),
            CodexRelease::V0_171.profile(),
        ),
        &TemplateSet::embedded(),
    )
    .expect("tools")
}

/// `name`, or `namespace: [names]`, per tool; `view_image` with its parameters.
fn layout(tools: &[ToolSpec]) -> Vec<String> {
    tools
        .iter()
        .map(|tool| match tool {
            ToolSpec::Namespace(namespace) => format!(
                "{}: {:?}",
                namespace.name,
                namespace
                    .tools
                    .iter()
                    .map(|tool| tool.name().unwrap_or("?"))
                    .collect::<Vec<_>>()
            ),
            ToolSpec::Function(function) if function.name == "view_image" => format!(
                "view_image {:?}",
                function.parameters["properties"]
                    .as_object()
                    .map(|properties| properties.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
            ),
            ToolSpec::WebSearch(search) => format!(
                "web_search (search_content_types: {:?})",
                search.search_content_types
            ),
            ToolSpec::ToolSearch(_) => "tool_search".to_string(),
            other => other.name().unwrap_or("?").to_string(),
        })
        .collect()
}

#[test]
fn the_lite_default_model_gets_the_async_user_tools_and_the_clock() {
    let tools = tools_0_171(&model("gpt-6.2-sol"));
    assert_eq!(
        layout(&tools),
        [
            "exec",
            "wait",
            "request_user_input",
            "request_user_input_async",
            "send_message_to_user_async",
            "clock: [\"sleep\"]",
            "collaboration: [\"followup_task\", \"interrupt_agent\", \"list_agents\", \"send_message\", \"spawn_agent\", \"wait_agent\"]",
        ]
    );
    let new: Vec<&ToolSpec> = tools
        .iter()
        .filter(|tool| {
            matches!(
                tool.name(),
                Some("request_user_input_async" | "send_message_to_user_async" | "clock")
            )
        })
        .collect();
    insta::assert_json_snapshot!("async_user_tools_and_clock", new);
}

#[test]
fn gpt_5_5_gets_no_update_plan_and_view_image_with_path_only() {
    assert_eq!(
        layout(&tools_0_171(&model("gpt-5.5"))),
        [
            "exec_command",
            "write_stdin",
            "request_user_input",
            "apply_patch",
            "view_image [\"path\"]",
            "get_goal",
            "create_goal",
            "update_goal",
            "tool_search",
            "web_search (search_content_types: Some([\"text\", \"image\"]))",
        ]
    );
}

#[test]
fn a_model_the_release_dropped_gets_fallback_tools_with_the_namespace_before_the_goals() {
    let gpt_5_4 = model("gpt-5.4");
    assert!(gpt_5_4.used_fallback_model_metadata);
    assert_eq!(
        layout(&tools_0_171(&gpt_5_4)),
        [
            "exec_command",
            "write_stdin",
            "request_user_input",
            "view_image [\"path\"]",
            "multi_agent_v1: [\"close_agent\", \"resume_agent\", \"send_input\", \"spawn_agent\", \"wait_agent\"]",
            "get_goal",
            "create_goal",
            "update_goal",
            "web_search (search_content_types: None)",
        ]
    );
    let tools = tools_0_171(&gpt_5_4);
    let Some(ToolSpec::Namespace(namespace)) = tools.get(4) else {
        panic!("no namespace");
    };
    let spawn_agent = namespace
        .tools
        .iter()
        .find_map(|tool| match tool {
            ToolSpec::Function(function) if function.name == "spawn_agent" => Some(function),
            _ => None,
        })
        .expect("spawn_agent");
    // No service tiers in fallback metadata, so no `service_tier` parameter.
    assert_eq!(
        spawn_agent.parameters["properties"]
            .as_object()
            .map(|properties| properties.keys().cloned().collect::<Vec<_>>()),
        Some(
            [
                "fork_context",
                "items",
                "message",
                "model",
                "reasoning_effort"
            ]
            .map(str::to_string)
            .to_vec()
        )
    );
}

#[test]
fn the_catalogs_root_role_is_followed_by_the_usage_notes() {
    let templates = TemplateSet::embedded();
    let sol = model("gpt-6.2-sol");
    let derive = |catalog_role| {
        derived_multi_agent_settings(
            &sol,
            &Features::default(),
            None,
            SessionSource::Cli,
            catalog_role,
            &templates,
        )
        .usage_hint
        .expect("a role")
    };
    let marked = derive(CatalogRoleText::MarkedWithUsage);
    let root = templates.file(TemplateId::MultiAgentRootAgentV2Usage);
    assert_eq!(marked.source, UsageHintSource::CatalogRoleWithUsage);
    assert!(
        marked.text.starts_with("You are `/root`, the lead agent")
            && marked
                .text
                .contains("to=/root\n\nThe collaboration tools cannot be called")
            && marked
                .text
                .ends_with(root.trim_end().rsplit('\n').next().unwrap_or_default()),
        "{}",
        marked.text
    );
    // 0.149 never reads the catalog's role.
    assert_eq!(
        derive(CatalogRoleText::Ignored).source,
        UsageHintSource::Bundled
    );
}

/// The developer messages of the default model's first 0.171 request, after the base
/// instructions: the bundle (ending in the catalog's Default-mode text), the marked role and
/// the mode.
#[test]
fn first_turn_of_the_default_model_under_0_171() {
    let config = load_config(
        &ConfigOverrides {
            codex_version: Some(CodexRelease::V0_171),
            ..pinned_flags()
        },
        None,
    );
    let (turn, first) = first_turn(
        &config,
        None,
        |_| {},
        FirstTurnOptions {
            user_message: Some("hello"),
            ..FirstTurnOptions::default()
        },
    );
    assert_eq!(turn.model.slug, "gpt-6.2-sol");
    let body = serde_json::to_value(&first.request).expect("body");
    let developer: Vec<Vec<&str>> = body["input"]
        .as_array()
        .expect("input")
        .iter()
        .filter(|item| item["type"] == "message" && item["role"] == "developer")
        .skip(1)
        .map(|item| {
            item["content"]
                .as_array()
                .expect("content")
                .iter()
                .filter_map(|entry| entry["text"].as_str())
                .collect()
        })
        .collect();
    let last_of_bundle = developer
        .first()
        .and_then(|bundle| bundle.last())
        .copied()
        .unwrap_or_default();
    assert!(
        last_of_bundle.starts_with("<collaboration_mode># Collaboration mode: Default"),
        "{last_of_bundle}"
    );
    insta::assert_json_snapshot!("first_turn_developer_messages", developer);
    let _: &Value = &body;
}
