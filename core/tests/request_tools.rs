//! The built-in tool list and its JSON shapes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod request_support;
#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use codex_config::Feature;
use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::GoalTools;
use codex_core::ImageDetailParameter;
use codex_core::MultiAgentTools;
use codex_core::ServiceTierParameter;
use codex_core::ToolLayout;
use codex_core::ToolSpec;
use codex_core::builtin_tools;
use codex_models_manager::fallback_model_info;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ApplyPatchToolType;
use codex_protocol::openai_models::ConfigShellToolType;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::MultiAgentVersion;
use codex_protocol::openai_models::WebSearchToolType;
use codex_release::InlineMultiAgentPosition;
use codex_release::PlanTool;
use pretty_assertions::assert_eq;
use request_support::captured_requests;
use request_support::standard_model;
use serde_json::Value;
use serde_json::json;

fn names(tools: &[ToolSpec]) -> Vec<String> {
    tools
        .iter()
        .map(|tool| match tool {
            ToolSpec::Function(function) => function.name.clone(),
            ToolSpec::Custom(custom) => format!("{} (custom)", custom.name),
            ToolSpec::LocalShell {} => "local_shell".to_string(),
            ToolSpec::WebSearch(_) => "web_search".to_string(),
            ToolSpec::Namespace(namespace) => format!("{} (namespace)", namespace.name),
            ToolSpec::ToolSearch(_) => "tool_search".to_string(),
            ToolSpec::Other(raw) => format!("other: {raw}"),
        })
        .collect()
}

fn standard_config() -> BuiltinToolsConfig {
    BuiltinToolsConfig::for_model(
        &standard_model(),
        WebSearchMode::Cached,
        &Features::default(),
    )
}

#[test]
fn standard_model_gets_upstreams_tool_order() {
    let tools =
        builtin_tools(&standard_config(), &codex_prompts::TemplateSet::embedded()).expect("tools");
    assert_eq!(
        names(&tools),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "apply_patch (custom)",
            "view_image",
            "get_goal",
            "create_goal",
            "update_goal",
            "tool_search",
            "web_search",
        ]
    );
    assert_eq!(
        serde_json::to_value(tools.last().unwrap()).unwrap(),
        json!({"type": "web_search", "external_web_access": false, "search_content_types": ["text", "image"]})
    );
}

#[test]
fn catalog_flags_choose_the_tools() {
    let config = BuiltinToolsConfig {
        shell_type: ConfigShellToolType::UnifiedExec,
        apply_patch_tool_type: None,
        web_search_mode: WebSearchMode::Live,
        web_search_tool_type: WebSearchToolType::Text,
        image_input: true,
        image_detail: ImageDetailParameter::Omitted,
        multi_agent: MultiAgentTools::Inline,
        inline_multi_agent_position: InlineMultiAgentPosition::AfterGoalTools,
        spawn_agent_service_tier: ServiceTierParameter::Offered,
        goals: GoalTools::Omitted,
        plan_tool: PlanTool::Offered,
        experimental: Vec::new(),
        layout: ToolLayout::Direct,
    };
    let tools = builtin_tools(&config, &codex_prompts::TemplateSet::embedded()).expect("tools");
    assert_eq!(
        names(&tools),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "view_image",
            "multi_agent_v1 (namespace)",
            "web_search"
        ]
    );
    let view_image = serde_json::to_value(&tools[4]).unwrap();
    assert_eq!(
        view_image["parameters"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["path"]
    );
    assert_eq!(
        serde_json::to_value(&tools[6]).unwrap(),
        json!({"type": "web_search", "external_web_access": true})
    );

    let config = BuiltinToolsConfig {
        shell_type: ConfigShellToolType::Disabled,
        apply_patch_tool_type: Some(ApplyPatchToolType::Function),
        web_search_mode: WebSearchMode::Disabled,
        image_input: false,
        multi_agent: MultiAgentTools::Omitted,
        ..config
    };
    assert_eq!(
        names(&builtin_tools(&config, &codex_prompts::TemplateSet::embedded()).expect("tools")),
        ["update_plan", "request_user_input", "apply_patch"]
    );
}

#[test]
fn every_shell_type_but_disabled_is_unified_exec() {
    for shell_type in [
        ConfigShellToolType::Default,
        ConfigShellToolType::Local,
        ConfigShellToolType::ShellCommand,
        ConfigShellToolType::UnifiedExec,
    ] {
        let config = BuiltinToolsConfig {
            shell_type,
            ..standard_config()
        };
        assert_eq!(
            names(&builtin_tools(&config, &codex_prompts::TemplateSet::embedded()).expect("tools"))
                [..2],
            ["exec_command", "write_stdin"],
            "{shell_type:?}"
        );
    }
}

#[test]
fn fallback_model_gets_unified_exec_and_the_inline_multi_agent_namespace() {
    let model = fallback_model_info("o3");
    let tools = builtin_tools(
        &BuiltinToolsConfig::for_model(&model, WebSearchMode::Cached, &Features::default()),
        &codex_prompts::TemplateSet::embedded(),
    )
    .expect("tools");
    assert_eq!(
        names(&tools),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "view_image",
            "get_goal",
            "create_goal",
            "update_goal",
            "multi_agent_v1 (namespace)",
            "web_search",
        ]
    );
    let Some(ToolSpec::Namespace(namespace)) = tools.get(8) else {
        panic!("no namespace");
    };
    assert_eq!(
        names(&namespace.tools),
        [
            "close_agent",
            "resume_agent",
            "send_input",
            "spawn_agent",
            "wait_agent"
        ]
    );
}

#[test]
fn features_and_catalog_flags_place_the_multi_agent_tools() {
    let searchable = standard_model();
    assert!(searchable.supports_search_tool);
    let plain = ModelInfo {
        supports_search_tool: false,
        ..searchable.clone()
    };
    let with = |enabled: &[Feature], disabled: &[Feature]| {
        let mut features = Features::default();
        for feature in enabled {
            features.set(*feature, true);
        }
        for feature in disabled {
            features.set(*feature, false);
        }
        features
    };
    let defaults = Features::default();
    let off = with(&[], &[Feature::MultiAgent]);
    let v2 = with(&[Feature::MultiAgentV2], &[]);
    let v2_model = ModelInfo {
        multi_agent_version: Some(MultiAgentVersion::V2),
        ..searchable.clone()
    };
    let v1_model = ModelInfo {
        multi_agent_version: Some(MultiAgentVersion::V1),
        ..plain.clone()
    };
    assert_eq!(
        [
            MultiAgentTools::for_model(&searchable, &defaults),
            MultiAgentTools::for_model(&plain, &defaults),
            MultiAgentTools::for_model(&v1_model, &defaults),
            MultiAgentTools::for_model(&searchable, &off),
            MultiAgentTools::for_model(&plain, &v2),
            MultiAgentTools::for_model(&v2_model, &defaults),
        ],
        [
            MultiAgentTools::Deferred,
            MultiAgentTools::Inline,
            MultiAgentTools::Inline,
            MultiAgentTools::Omitted,
            MultiAgentTools::Collaboration,
            MultiAgentTools::Collaboration,
        ]
    );
    let tools = builtin_tools(
        &BuiltinToolsConfig::for_model(&searchable, WebSearchMode::Disabled, &off),
        &codex_prompts::TemplateSet::embedded(),
    )
    .expect("tools");
    assert_eq!(
        names(&tools),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "apply_patch (custom)",
            "view_image",
            "get_goal",
            "create_goal",
            "update_goal",
        ]
    );
}

#[test]
fn freeform_apply_patch_carries_the_patch_grammar() {
    let tools =
        builtin_tools(&standard_config(), &codex_prompts::TemplateSet::embedded()).expect("tools");
    let Some(ToolSpec::Custom(apply_patch)) =
        tools.iter().find(|t| t.name() == Some("apply_patch"))
    else {
        panic!("no freeform apply_patch");
    };
    let format = serde_json::to_value(&apply_patch.format).unwrap();
    assert_eq!(format["type"], json!("grammar"));
    assert_eq!(format["syntax"], json!("lark"));
    let grammar = apply_patch.format.definition.as_str();
    for marker in [
        "\"*** Begin Patch\"",
        "\"*** End Patch\"",
        "\"*** Add File: \"",
        "\"*** Delete File: \"",
        "\"*** Update File: \"",
        "\"*** Move to: \"",
        "\"*** End of File\"",
        "%import common.LF",
    ] {
        assert!(grammar.contains(marker), "grammar lacks {marker}");
    }
    assert!(grammar.starts_with("start: "));
    assert!(grammar.ends_with('\n'));
}

#[test]
fn raw_tools_round_trip_unchanged() {
    let raw = json!({"type": "image_generation", "output_format": "png"});
    let tool: ToolSpec = serde_json::from_value(raw.clone()).unwrap();
    assert_eq!(tool, ToolSpec::Other(raw.clone()));
    assert_eq!(serde_json::to_value(&tool).unwrap(), raw);

    let raw =
        json!({"type": "tool_search", "execution": "client", "description": "d", "parameters": {}});
    let tool: ToolSpec = serde_json::from_value(raw.clone()).unwrap();
    assert!(matches!(tool, ToolSpec::ToolSearch(_)), "{tool:?}");
    assert_eq!(serde_json::to_value(&tool).unwrap(), raw);
}

/// The tool JSON with every prose field blanked: what must match upstream exactly.
fn shape(tool: &Value) -> Value {
    match tool {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| match key.as_str() {
                    "description" | "definition" if value.is_string() => {
                        (key.clone(), json!("<text>"))
                    }
                    _ => (key.clone(), shape(value)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        other => other.clone(),
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn tool_shapes_match_upstream_captures() {
    let captures = upstream_fixtures::captures();
    let inline = BuiltinToolsConfig {
        multi_agent: MultiAgentTools::Inline,
        ..standard_config()
    };
    let ours: Vec<Value> = [standard_config(), inline]
        .iter()
        .flat_map(|config| {
            builtin_tools(config, &codex_prompts::TemplateSet::embedded()).expect("tools")
        })
        .map(|tool| serde_json::to_value(tool).unwrap())
        .collect();
    let key = |tool: &Value| tool.get("name").or_else(|| tool.get("type")).cloned();
    let mut compared = std::collections::BTreeSet::new();
    for (path, body) in captured_requests(&captures) {
        for theirs in body["tools"].as_array().into_iter().flatten() {
            let Some(name) = key(theirs).and_then(|name| name.as_str().map(str::to_string)) else {
                continue;
            };
            // Only hosted tools are keyed by type; `web_search` is checked below.
            if name == "web_search" {
                continue;
            }
            let Some(mine) = ours.iter().find(|tool| key(tool) == key(theirs)) else {
                continue;
            };
            let expected = shape(theirs);
            // `view_image.detail` depends on the model (`supports_image_detail_original`).
            if name == "view_image" && theirs["parameters"]["properties"].get("detail").is_none() {
                continue;
            }
            // Compared as text so key order counts too (map equality ignores it).
            assert_eq!(
                serde_json::to_string_pretty(&shape(mine)).unwrap(),
                serde_json::to_string_pretty(&expected).unwrap(),
                "{name} in {}",
                path.display()
            );
            compared.insert(name.to_string());
        }
        let web_searches: Vec<&Value> = body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|tool| tool["type"] == json!("web_search"))
            .collect();
        for web_search in web_searches {
            let keys: Vec<&String> = web_search.as_object().unwrap().keys().collect();
            assert!(
                keys == ["type", "external_web_access", "search_content_types"]
                    || keys == ["type", "external_web_access"],
                "{keys:?}"
            );
        }
    }
    assert_eq!(
        compared.into_iter().collect::<Vec<_>>(),
        [
            "apply_patch",
            "exec_command",
            "multi_agent_v1",
            "request_user_input",
            "tool_search",
            "update_plan",
            "view_image",
            "write_stdin",
        ]
    );
}
