//! The goal tools, code mode (`tool_mode = "code_mode_only"`) and multi-agent v2: which tools a
//! model gets, their shapes as the released CLI (0.149.1) sends them, and the v2 settings a turn
//! derives.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codex_config::Feature;
use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::GoalTools;
use codex_core::MultiAgentMode;
use codex_core::MultiAgentSettings;
use codex_core::SessionSource;
use codex_core::ToolLayout;
use codex_core::ToolSpec;
use codex_core::UsageHintSource;
use codex_core::builtin_tools;
use codex_core::derived_multi_agent_settings;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ReasoningEffort;
use codex_release::CatalogRoleText;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

fn model(slug: &str) -> ModelInfo {
    ModelCatalog::bundled()
        .expect("bundled catalog")
        .lookup(slug)
        .info
}

fn tools(model: &ModelInfo, features: &Features) -> Vec<ToolSpec> {
    builtin_tools(
        &BuiltinToolsConfig::for_model(model, WebSearchMode::Cached, features),
        &TemplateSet::embedded(),
    )
    .expect("tools")
}

fn without(feature: Feature) -> Features {
    let mut features = Features::default();
    features.set(feature, false);
    features
}

/// `name`, or `namespace: [names]`, per tool.
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
            ToolSpec::WebSearch(_) => "web_search".to_string(),
            ToolSpec::ToolSearch(_) => "tool_search".to_string(),
            other => other.name().unwrap_or("?").to_string(),
        })
        .collect()
}

/// The tool JSON with prose blanked: what must match the release exactly.
fn shape(value: &Value) -> Value {
    match value {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("description" | "definition", Value::String(_)) => {
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
fn goal_tools_follow_the_goals_feature() {
    assert_eq!(
        GoalTools::for_features(&Features::default()),
        GoalTools::Offered
    );
    assert_eq!(
        GoalTools::for_features(&without(Feature::Goals)),
        GoalTools::Omitted
    );
    let gpt_5_5 = model("gpt-5.5");
    assert_eq!(
        layout(&tools(&gpt_5_5, &Features::default())),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "apply_patch",
            "view_image",
            "get_goal",
            "create_goal",
            "update_goal",
            "tool_search",
            "web_search",
        ]
    );
    assert_eq!(
        layout(&tools(&gpt_5_5, &without(Feature::Goals))),
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "apply_patch",
            "view_image",
            "tool_search",
            "web_search",
        ]
    );
}

#[test]
fn goal_tools_have_the_releases_shapes() {
    let gpt_5_5 = model("gpt-5.5");
    let goals: Vec<Value> = tools(&gpt_5_5, &Features::default())
        .iter()
        .filter(|tool| tool.name().is_some_and(|name| name.ends_with("_goal")))
        .map(|tool| shape(&serde_json::to_value(tool).unwrap()))
        .collect();
    // Compared as text so that key order counts too.
    assert_eq!(
        serde_json::to_string_pretty(&goals).unwrap(),
        serde_json::to_string_pretty(&json!([
            {"type": "function", "name": "get_goal", "description": "<text>", "strict": false,
             "parameters": {"type": "object", "properties": {}, "required": [],
                            "additionalProperties": false}},
            {"type": "function", "name": "create_goal", "description": "<text>", "strict": false,
             "parameters": {"type": "object", "properties": {
                 "objective": {"type": "string", "description": "<text>"},
                 "token_budget": {"type": "integer", "description": "<text>"}},
                 "required": ["objective"], "additionalProperties": false}},
            {"type": "function", "name": "update_goal", "description": "<text>", "strict": false,
             "parameters": {"type": "object", "properties": {
                 "status": {"type": "string", "description": "<text>",
                            "enum": ["complete", "blocked"]}},
                 "required": ["status"], "additionalProperties": false}},
        ]))
        .unwrap()
    );
}

#[test]
fn code_mode_only_models_get_exec_wait_and_the_direct_tools() {
    let sol = model("gpt-5.6-sol");
    let config = BuiltinToolsConfig::for_model(&sol, WebSearchMode::Cached, &Features::default());
    assert_eq!(config.layout, ToolLayout::CodeModeOnly);
    let tools = tools(&sol, &Features::default());
    assert_eq!(
        layout(&tools),
        [
            "exec",
            "wait",
            "request_user_input",
            "collaboration: [\"followup_task\", \"interrupt_agent\", \"list_agents\", \"send_message\", \"spawn_agent\", \"wait_agent\"]",
        ]
    );
    let ToolSpec::Custom(exec) = &tools[0] else {
        panic!("exec is a custom tool: {:?}", tools[0]);
    };
    // Every nested tool is described inside `exec`, by name, goal tools included.
    let headings: Vec<&str> = exec
        .description
        .lines()
        .filter(|line| line.starts_with("### "))
        .collect();
    assert_eq!(
        headings,
        [
            "### `apply_patch`",
            "### `create_goal`",
            "### `exec_command`",
            "### `get_goal`",
            "### `update_goal`",
            "### `update_plan`",
            "### `view_image`",
            "### `write_stdin`",
        ]
    );
    let without_goals = exec_description(&sol, &without(Feature::Goals));
    assert!(!without_goals.contains("### `get_goal`"));
}

fn exec_description(model: &ModelInfo, features: &Features) -> String {
    match tools(model, features).first() {
        Some(ToolSpec::Custom(exec)) => exec.description.clone(),
        other => panic!("exec expected, got {other:?}"),
    }
}

#[test]
fn code_mode_tools_have_the_releases_shapes() {
    let sol = model("gpt-5.6-sol");
    let tools: Vec<Value> = tools(&sol, &Features::default())
        .iter()
        .map(|tool| shape(&serde_json::to_value(tool).unwrap()))
        .collect();
    let exec = &tools[0];
    assert_eq!(
        exec,
        &json!({"type": "custom", "name": "exec", "description": "<text>",
                "format": {"type": "grammar", "syntax": "lark", "definition": "<text>"}})
    );
    assert_eq!(
        serde_json::to_string(&tools[1]).unwrap(),
        serde_json::to_string(&json!(
            {"type": "function", "name": "wait", "description": "<text>", "strict": false,
             "parameters": {"type": "object", "properties": {
                 "cell_id": {"type": "string", "description": "<text>"},
                 "max_tokens": {"type": "number", "description": "<text>"},
                 "terminate": {"type": "boolean", "description": "<text>"},
                 "yield_time_ms": {"type": "number", "description": "<text>"}},
                 "required": ["cell_id"], "additionalProperties": false}}
        ))
        .unwrap()
    );
    let collaboration = &tools[3];
    let parameters = |name: &str| {
        collaboration["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == json!(name))
            .map(|tool| tool["parameters"].clone())
            .unwrap()
    };
    assert_eq!(
        serde_json::to_string(&parameters("spawn_agent")).unwrap(),
        serde_json::to_string(&json!({"type": "object", "properties": {
            "fork_turns": {"type": "string", "description": "<text>"},
            "message": {"type": "string", "description": "<text>", "encrypted": true},
            "model": {"type": "string", "description": "<text>"},
            "reasoning_effort": {"type": "string", "description": "<text>"},
            "task_name": {"type": "string", "description": "<text>"}},
            "required": ["task_name", "message"], "additionalProperties": false}))
        .unwrap()
    );
    assert_eq!(
        parameters("list_agents"),
        json!({"type": "object", "properties": {
            "path_prefix": {"type": "string", "description": "<text>"}},
            "additionalProperties": false})
    );
    assert_eq!(
        parameters("wait_agent"),
        json!({"type": "object", "properties": {
            "timeout_ms": {"type": "number", "description": "<text>"}},
            "additionalProperties": false})
    );
}

#[test]
fn code_mode_grammar_is_sent_byte_for_byte() {
    let sol = model("gpt-5.6-sol");
    let Some(ToolSpec::Custom(exec)) = tools(&sol, &Features::default()).into_iter().next() else {
        panic!("no exec");
    };
    assert_eq!(
        exec.format.definition,
        "\nstart: pragma_source | plain_source\npragma_source: PRAGMA_LINE NEWLINE SOURCE\nplain_source: SOURCE\n\nPRAGMA_LINE: /[ \\t]*\\/\\/ @exec:[^\\r\\n]*/\nNEWLINE: /\\r?\\n/\nSOURCE: /[\\s\\S]+/\n"
    );
}

#[test]
fn lite_tool_list_snapshot() {
    let sol = model("gpt-5.6-sol");
    insta::assert_json_snapshot!(
        "gpt_5_6_sol_code_mode_tools",
        tools(&sol, &Features::default())
    );
}

#[test]
fn goal_tools_snapshot() {
    let gpt_5_5 = model("gpt-5.5");
    let goals: Vec<ToolSpec> = tools(&gpt_5_5, &Features::default())
        .into_iter()
        .filter(|tool| tool.name().is_some_and(|name| name.ends_with("_goal")))
        .collect();
    insta::assert_json_snapshot!("goal_tools", goals);
}

#[test]
fn multi_agent_v2_derives_the_root_role_and_the_mode() {
    let templates = TemplateSet::embedded();
    let sol = model("gpt-5.6-sol");
    let derive = |model: &ModelInfo, features: &Features, effort, source| {
        derived_multi_agent_settings(
            model,
            features,
            effort,
            source,
            CatalogRoleText::Ignored,
            &templates,
        )
    };
    let settings = derive(&sol, &Features::default(), None, SessionSource::Cli);
    assert_eq!(settings.mode, Some(MultiAgentMode::ExplicitRequestOnly));
    let hint = settings.usage_hint.expect("root role");
    assert_eq!(hint.source, UsageHintSource::Bundled);
    assert!(hint.text.starts_with("You are `/root`"), "{}", hint.text);
    assert!(hint.text.contains("4 concurrency slots"), "{}", hint.text);

    assert_eq!(
        derive(
            &sol,
            &Features::default(),
            Some(&ReasoningEffort::Ultra),
            SessionSource::Cli
        )
        .mode,
        Some(MultiAgentMode::Proactive)
    );
    // No v2: the multi-agent feature is off, the model runs v1, or the session is the
    // approval reviewer.
    for settings in [
        derive(
            &sol,
            &without(Feature::MultiAgent),
            None,
            SessionSource::Cli,
        ),
        derive(
            &model("gpt-5.6-luna"),
            &Features::default(),
            None,
            SessionSource::Cli,
        ),
        derive(
            &model("gpt-5.5"),
            &Features::default(),
            None,
            SessionSource::Cli,
        ),
        derive(
            &sol,
            &Features::default(),
            None,
            SessionSource::GuardianReviewer,
        ),
    ] {
        assert_eq!(settings, MultiAgentSettings::default());
    }
}
