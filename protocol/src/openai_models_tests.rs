use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

/// A compact catalog entry in current wire form, every key in upstream order.
fn full_entry() -> serde_json::Value {
    serde_json::from_str(FULL_ENTRY).unwrap()
}

const FULL_ENTRY: &str = r#"{
        "slug": "gpt-test",
        "prefer_websockets": true,
        "support_verbosity": true,
        "default_verbosity": "low",
        "apply_patch_tool_type": "freeform",
        "web_search_tool_type": "text_and_image",
        "input_modalities": ["text", "image"],
        "supports_image_detail_original": true,
        "truncation_policy": {"mode": "tokens", "limit": 10000},
        "supports_parallel_tool_calls": true,
        "tool_mode": "code_mode_only",
        "multi_agent_version": "v2",
        "use_responses_lite": true,
        "include_skills_usage_instructions": true,
        "include_apps_usage_instructions": false,
        "include_plugin_usage_instructions": true,
        "node_repl_auto_review_required": false,
        "node_repl_disabled": false,
        "auto_review_model_override": null,
        "model_specialty": "cyber",
        "context_window": 272000,
        "max_context_window": 1000000,
        "auto_compact_token_limit": null,
        "comp_hash": "2911",
        "default_reasoning_summary": "none",
        "display_name": "GPT Test",
        "description": "For tests.",
        "default_reasoning_level": "medium",
        "supported_reasoning_levels": [
            {"effort": "low", "description": "Fast"},
            {"effort": "max", "description": "Deepest"},
            {"effort": "ultra", "description": "Gated"}
        ],
        "shell_type": "unified_exec",
        "visibility": "list",
        "minimal_client_version": "0.98.0",
        "supported_in_api": true,
        "availability_nux": {"message": "New model"},
        "upgrade": {"model": "gpt-next", "migration_markdown": "Moved.", "retirement_at": "2026-08-31T19:00:00Z"},
        "priority": 7,
        "model_messages": {
            "instructions_template": "Intro\n\n{{ personality }}\n\nRules",
            "instructions_variables": {
                "personality_default": "",
                "personality_friendly": "Warm.",
                "personality_pragmatic": "Direct."
            },
            "approvals": {"on_request": null, "on_request_auto_review": null, "never": "", "unless_trusted": null},
            "collaboration_modes": null,
            "auto_review": {"policy_template": "judge", "policy": "p"},
            "multi_agent": null,
            "permissions": {"danger_full_access": "", "workspace_write": "", "read_only": ""},
            "token_budget": {"reminder_threshold_tokens": 6144, "reminder_message_template": "{n}"},
            "guardian_v2": null
        },
        "experimental_supported_tools": [],
        "available_in_plans": ["plus", "pro"],
        "supports_search_tool": true,
        "default_service_tier": null,
        "service_tiers": [{"id": "priority", "name": "Fast", "description": "1.5x speed"}],
        "additional_speed_tiers": ["fast"],
        "supports_reasoning_summary_parameter": true,
        "supports_reasoning_summaries": true
    }"#;

#[test]
fn model_info_round_trips_every_upstream_key_in_order() {
    let entry = full_entry();
    let model: ModelInfo = serde_json::from_value(entry.clone()).unwrap();
    assert_eq!(
        serde_json::to_string(&model).unwrap(),
        serde_json::to_string(&entry).unwrap()
    );
    assert_eq!(model.tool_mode, Some(ToolMode::CodeModeOnly));
    assert_eq!(
        model
            .supported_reasoning_levels
            .iter()
            .map(|level| level.effort.clone())
            .collect::<Vec<_>>(),
        vec![
            ReasoningEffort::Low,
            ReasoningEffort::Max,
            ReasoningEffort::Ultra
        ]
    );
    assert!(model.supports_personality());
}

#[test]
fn unknown_keys_are_ignored_and_unknown_modes_degrade() {
    let mut entry = full_entry();
    entry["reasoning_summary_format"] = json!("experimental");
    entry["brand_new_key"] = json!({"x": 1});
    entry["tool_mode"] = json!("hyper_mode");
    entry["multi_agent_version"] = json!("v9");
    let model: ModelInfo = serde_json::from_value(entry).unwrap();
    assert_eq!(model.tool_mode, None);
    assert_eq!(model.multi_agent_version, None);
}

#[test]
fn minimal_entry_uses_documented_defaults() {
    let model: ModelInfo = serde_json::from_value(json!({
        "slug": "m",
        "display_name": "m",
        "supported_reasoning_levels": [],
        "shell_type": "default",
        "visibility": "none",
        "supported_in_api": true,
        "priority": 0
    }))
    .unwrap();
    assert_eq!(model, ModelInfo::with_defaults("m"));
    assert_eq!(
        model.input_modalities,
        vec![InputModality::Text, InputModality::Image]
    );
    assert!(model.include_apps_usage_instructions);
    assert!(model.supports_reasoning_summary_parameter);
    assert_eq!(model.effective_context_window_percent, 95);
}

#[test]
fn reasoning_effort_is_open_but_never_empty() {
    for (literal, effort) in [
        ("none", ReasoningEffort::None),
        ("minimal", ReasoningEffort::Minimal),
        ("xhigh", ReasoningEffort::XHigh),
        ("max", ReasoningEffort::Max),
        ("ultra", ReasoningEffort::Ultra),
        ("persistent", ReasoningEffort::Persistent),
        ("galaxy", ReasoningEffort::Custom("galaxy".to_string())),
    ] {
        assert_eq!(
            serde_json::from_value::<ReasoningEffort>(json!(literal)).unwrap(),
            effort
        );
        assert_eq!(serde_json::to_value(&effort).unwrap(), json!(literal));
        assert_eq!(effort.to_string(), literal);
    }
    assert!(serde_json::from_value::<ReasoningEffort>(json!("")).is_err());
    assert_eq!(
        "".parse::<ReasoningEffort>(),
        Err(EmptyReasoningEffortError)
    );
    assert_eq!(ReasoningEffort::default(), ReasoningEffort::Medium);
}

#[test]
fn auto_compact_limit_is_capped_at_ninety_percent_of_the_window() {
    let mut model = ModelInfo::with_defaults("m");
    assert_eq!(model.auto_compact_token_limit(), None);
    model.max_context_window = Some(1_000_000);
    assert_eq!(model.auto_compact_token_limit(), Some(900_000));
    model.context_window = Some(272_000);
    assert_eq!(model.auto_compact_token_limit(), Some(244_800));
    assert_eq!(model.usable_context_window(), Some(258_400));
    model.auto_compact_token_limit = Some(100_000);
    assert_eq!(model.auto_compact_token_limit(), Some(100_000));
    model.auto_compact_token_limit = Some(500_000);
    assert_eq!(model.auto_compact_token_limit(), Some(244_800));
    model.context_window = None;
    model.max_context_window = None;
    assert_eq!(model.auto_compact_token_limit(), Some(500_000));
}

#[test]
fn model_instructions_follow_personality_rules() {
    let model: ModelInfo = serde_json::from_value(full_entry()).unwrap();
    assert_eq!(model.get_model_instructions(None), "Intro\n\n\n\nRules");
    assert_eq!(
        model.get_model_instructions(Some(Personality::Friendly)),
        "Intro\n\nWarm.\n\nRules"
    );
    assert_eq!(
        model.get_model_instructions(Some(Personality::None)),
        "Intro\n\n\n\nRules"
    );

    let mut literal = model.clone();
    if let Some(messages) = literal.model_messages.as_mut() {
        messages.instructions_variables = None;
    }
    assert_eq!(
        literal.get_model_instructions(Some(Personality::Pragmatic)),
        "Intro\n\n{{ personality }}\n\nRules"
    );
    assert!(!literal.supports_personality());

    let mut partial = model.clone();
    if let Some(variables) = partial
        .model_messages
        .as_mut()
        .and_then(|messages| messages.instructions_variables.as_mut())
    {
        variables.personality_pragmatic = None;
    }
    assert!(!partial.supports_personality());
    assert_eq!(
        partial.get_model_instructions(Some(Personality::Pragmatic)),
        "Intro\n\n\n\nRules"
    );
    assert_eq!(
        ModelInfo::with_defaults("bare").get_model_instructions(None),
        ""
    );
}

#[test]
fn models_response_promotes_legacy_base_instructions() {
    let mut entry = full_entry();
    entry["model_messages"] = json!(null);
    entry["base_instructions"] = json!("Legacy text");
    let response: ModelsResponse =
        serde_json::from_value(json!({"models": [entry.clone()]})).unwrap();
    assert_eq!(
        response.models[0].instructions_template(),
        Some("Legacy text")
    );

    let written = serde_json::to_value(&response).unwrap();
    let last_key = written["models"][0]
        .as_object()
        .and_then(|object| object.keys().next_back().cloned());
    assert_eq!(last_key.as_deref(), Some("base_instructions"));
    assert_eq!(
        written["models"][0]["base_instructions"],
        json!("Legacy text")
    );
}

#[test]
fn template_wins_over_legacy_base_instructions() {
    let mut entry = full_entry();
    entry["base_instructions"] = json!("stale copy");
    let response: ModelsResponse = serde_json::from_value(json!({"models": [entry]})).unwrap();
    assert_eq!(
        response.models[0].instructions_template(),
        Some("Intro\n\n{{ personality }}\n\nRules")
    );
}

#[test]
fn model_without_any_instructions_is_an_error_naming_the_slug() {
    let mut entry = full_entry();
    entry["model_messages"] = json!({"instructions_variables": null});
    let error = serde_json::from_value::<ModelsResponse>(json!({"models": [entry]})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "model `gpt-test` is missing both `base_instructions` and `model_messages.instructions_template`"
    );
}

#[test]
fn empty_models_response_round_trips() {
    let response: ModelsResponse = serde_json::from_str(r#"{"models":[]}"#).unwrap();
    assert_eq!(response, ModelsResponse::default());
    assert_eq!(
        serde_json::to_string(&response).unwrap(),
        r#"{"models":[]}"#
    );
}

#[test]
fn models_response_wire_form_snapshot() {
    let model: ModelInfo = serde_json::from_value(full_entry()).unwrap();
    let response = ModelsResponse {
        models: vec![model],
    };
    insta::assert_json_snapshot!(response);
}

fn baked_template_messages(template: &str) -> ModelMessages {
    ModelMessages {
        instructions_template: Some(template.to_string()),
        ..ModelMessages::default()
    }
}

#[test]
fn personality_none_drops_a_baked_personality_section_and_its_subsections() {
    let messages = baked_template_messages(concat!(
        "Opening line.\n",
        "\n",
        "# Personality\n",
        "Talk like a pirate.\n",
        "## Writing Style\n",
        "Use sea shanties.\n",
        "### Even deeper\n",
        "Rhyme.\n",
        "#Not a heading, no space\n",
        "# Working together\n",
        "Ask before deleting.\n",
        "## Personality notes stay\n",
        "Kept.\n",
        "# Closing\n",
        "Bye.",
    ));
    assert_eq!(
        messages.render_instructions(Some(Personality::None)),
        concat!(
            "Opening line.\n",
            "\n",
            "# Working together\n",
            "Ask before deleting.\n",
            "## Personality notes stay\n",
            "Kept.\n",
            "# Closing\n",
            "Bye.",
        )
    );
    // Any other choice keeps the baked text: the section is the model's voice.
    let template = messages.instructions_template.clone().unwrap();
    for choice in [
        None,
        Some(Personality::Friendly),
        Some(Personality::Pragmatic),
    ] {
        assert_eq!(messages.render_instructions(choice), template);
    }
}

#[test]
fn personality_none_section_runs_to_the_end_and_tolerates_crlf() {
    let trailing = baked_template_messages("Intro\n# Personality\nVoice\n## Tone\nCalm\n");
    assert_eq!(
        trailing.render_instructions(Some(Personality::None)),
        "Intro\n"
    );

    let crlf = baked_template_messages("Intro\r\n# Personality\r\nVoice\r\n#\tNext\r\nBody");
    assert_eq!(
        crlf.render_instructions(Some(Personality::None)),
        "Intro\r\n#\tNext\r\nBody"
    );
}

#[test]
fn personality_none_leaves_templates_without_the_section_unchanged() {
    let template =
        "Intro\n## Personality\nSubsection only.\n# Personality traits\nNot it.\n# Rules\nR";
    let messages = baked_template_messages(template);
    assert_eq!(
        messages.render_instructions(Some(Personality::None)),
        template
    );

    let model: ModelInfo = serde_json::from_value(full_entry()).unwrap();
    assert_eq!(
        model.get_model_instructions(Some(Personality::None)),
        "Intro\n\n\n\nRules"
    );
}
