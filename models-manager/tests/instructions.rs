//! Rendering model instructions and choosing personality texts.

use codex_models_manager::ModelInfo;
use codex_models_manager::Personality;
use codex_models_manager::personality_message;
use codex_protocol::openai_models::ModelInstructionsVariables;
use codex_protocol::openai_models::ModelMessages;
use pretty_assertions::assert_eq;

const CHOICES: [Option<Personality>; 4] = [
    None,
    Some(Personality::None),
    Some(Personality::Friendly),
    Some(Personality::Pragmatic),
];

fn model(template: Option<&str>, variables: Option<ModelInstructionsVariables>) -> ModelInfo {
    let mut info = ModelInfo::with_defaults("test-model");
    info.model_messages = Some(ModelMessages {
        instructions_template: template.map(str::to_string),
        instructions_variables: variables,
        ..ModelMessages::default()
    });
    info
}

fn all_variables() -> ModelInstructionsVariables {
    ModelInstructionsVariables {
        personality_default: Some("default text".to_string()),
        personality_friendly: Some("friendly text".to_string()),
        personality_pragmatic: Some("pragmatic text".to_string()),
    }
}

#[test]
fn personality_message_truth_table() {
    let complete = model(Some("x"), Some(all_variables()));
    assert_eq!(
        CHOICES.map(|choice| personality_message(&complete, choice)),
        [
            Some("default text"),
            Some(""),
            Some("friendly text"),
            Some("pragmatic text"),
        ]
    );

    let default_only = model(
        Some("x"),
        Some(ModelInstructionsVariables {
            personality_default: Some(String::new()),
            ..ModelInstructionsVariables::default()
        }),
    );
    assert_eq!(
        CHOICES.map(|choice| personality_message(&default_only, choice)),
        [Some(""), Some(""), None, None]
    );

    let without_variables = model(Some("x"), None);
    assert_eq!(
        CHOICES.map(|choice| personality_message(&without_variables, choice)),
        [None, None, None, None]
    );
    let without_messages = ModelInfo::with_defaults("bare");
    assert_eq!(
        CHOICES.map(|choice| personality_message(&without_messages, choice)),
        [None, None, None, None]
    );
}

#[test]
fn template_with_variables_substitutes_the_chosen_personality() {
    let info = model(
        Some("Intro\n\n{{ personality }}\n\n# Rules"),
        Some(all_variables()),
    );
    assert_eq!(
        CHOICES.map(|choice| info.get_model_instructions(choice)),
        [
            "Intro\n\ndefault text\n\n# Rules".to_string(),
            "Intro\n\n\n\n# Rules".to_string(),
            "Intro\n\nfriendly text\n\n# Rules".to_string(),
            "Intro\n\npragmatic text\n\n# Rules".to_string(),
        ]
    );
}

#[test]
fn missing_personality_values_render_empty() {
    let info = model(
        Some("A {{ personality }} B"),
        Some(ModelInstructionsVariables::default()),
    );
    assert_eq!(
        CHOICES.map(|choice| info.get_model_instructions(choice)),
        ["A  B", "A  B", "A  B", "A  B"].map(str::to_string)
    );
}

#[test]
fn template_without_variables_is_returned_literally() {
    let template = "Keep {{ personality }} as written";
    let info = model(Some(template), None);
    assert_eq!(
        CHOICES.map(|choice| info.get_model_instructions(choice)),
        [template; 4].map(str::to_string)
    );
    assert_eq!(info.supports_personality(), false);
}

#[test]
fn every_placeholder_occurrence_is_replaced() {
    // Upstream uses plain string replacement; catalog templates hold the placeholder once, so
    // replacing every occurrence and replacing the first one agree on them.
    let info = model(
        Some("{{ personality }}|{{ personality }}"),
        Some(all_variables()),
    );
    assert_eq!(
        info.get_model_instructions(Some(Personality::Friendly)),
        "friendly text|friendly text"
    );
}

#[test]
fn model_without_template_renders_empty() {
    assert_eq!(
        model(None, Some(all_variables())).get_model_instructions(None),
        ""
    );
    assert_eq!(
        ModelInfo::with_defaults("bare").get_model_instructions(None),
        ""
    );
}

#[test]
fn supports_personality_needs_placeholder_and_all_three_texts() {
    let cases = [
        model(Some("{{ personality }}"), Some(all_variables())),
        model(Some("no placeholder"), Some(all_variables())),
        model(
            Some("{{ personality }}"),
            Some(ModelInstructionsVariables {
                personality_pragmatic: None,
                ..all_variables()
            }),
        ),
        model(Some("{{ personality }}"), None),
        ModelInfo::with_defaults("bare"),
    ];
    assert_eq!(
        cases.map(|info| info.supports_personality()),
        [true, false, false, false, false]
    );
}
