use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::Personality;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ModelInstructionsVariables;
use codex_protocol::openai_models::ModelMessages;
use pretty_assertions::assert_eq;

use super::BaseInstructionsInputs;
use super::BaseInstructionsSource;
use super::resolve_base_instructions;

fn model(slug: &str) -> ModelInfo {
    let mut model = ModelInfo::with_defaults(slug);
    model.model_messages = Some(ModelMessages {
        instructions_template: Some(format!("You are {slug}. {{{{ personality }}}}")),
        instructions_variables: Some(ModelInstructionsVariables {
            personality_default: Some("Be balanced.".to_string()),
            personality_friendly: Some("Be warm.".to_string()),
            personality_pragmatic: Some("Be direct.".to_string()),
        }),
        ..ModelMessages::default()
    });
    model
}

fn model_provenance(slug: &str) -> Option<BaseInstructionsProvenance> {
    Some(BaseInstructionsProvenance::Model {
        model: slug.to_string(),
    })
}

fn inputs<'a>(
    model: &'a ModelInfo,
    configured: Option<&'a BaseInstructions>,
    recorded: Option<&'a BaseInstructions>,
) -> BaseInstructionsInputs<'a> {
    BaseInstructionsInputs {
        configured,
        recorded,
        model,
        personality: Some(Personality::Pragmatic),
    }
}

#[test]
fn fresh_session_renders_the_model_template_with_model_provenance() {
    let model = model("gpt-a");
    let resolved = resolve_base_instructions(inputs(&model, None, None));
    assert_eq!(
        resolved.instructions(),
        &BaseInstructions {
            text: "You are gpt-a. Be direct.".to_string(),
            provenance: model_provenance("gpt-a"),
        }
    );
    assert_eq!(resolved.source(), BaseInstructionsSource::ModelTemplate);
    assert_eq!(resolved.model_instructions(), "You are gpt-a. Be direct.");
    assert_eq!(resolved.generated_for_other_model(), None);
}

#[test]
fn configured_text_wins_over_recorded_and_model_text_and_is_custom() {
    let model = model("gpt-a");
    let configured = BaseInstructions {
        text: "Only answer in haiku.".to_string(),
        provenance: None,
    };
    let recorded = BaseInstructions {
        text: "older text".to_string(),
        provenance: model_provenance("gpt-old"),
    };
    let resolved = resolve_base_instructions(inputs(&model, Some(&configured), Some(&recorded)));
    assert_eq!(
        resolved.instructions(),
        &BaseInstructions {
            text: "Only answer in haiku.".to_string(),
            provenance: Some(BaseInstructionsProvenance::Custom),
        }
    );
    assert_eq!(resolved.source(), BaseInstructionsSource::Configured);
    assert_eq!(resolved.generated_for_other_model(), None);
}

#[test]
fn configured_text_keeps_a_provenance_passed_along_by_a_parent_agent() {
    let model = model("gpt-a");
    let configured = BaseInstructions {
        text: "You are gpt-parent. Be direct.".to_string(),
        provenance: model_provenance("gpt-parent"),
    };
    let resolved = resolve_base_instructions(inputs(&model, Some(&configured), None));
    assert_eq!(
        resolved.provenance(),
        model_provenance("gpt-parent").as_ref()
    );
    assert_eq!(resolved.generated_for_other_model(), Some("gpt-parent"));
}

#[test]
fn recorded_text_wins_over_the_model_template_and_keeps_its_provenance() {
    let model = model("gpt-b");
    let recorded = BaseInstructions {
        text: "You are gpt-a. Be direct.".to_string(),
        provenance: model_provenance("gpt-a"),
    };
    let resolved = resolve_base_instructions(inputs(&model, None, Some(&recorded)));
    assert_eq!(resolved.instructions(), &recorded);
    assert_eq!(resolved.source(), BaseInstructionsSource::RecordedSession);
    assert_eq!(resolved.model_instructions(), "You are gpt-b. Be direct.");
    // The thread moved from gpt-a to gpt-b: the model section must announce the switch.
    assert_eq!(resolved.generated_for_other_model(), Some("gpt-a"));
}

#[test]
fn recorded_custom_text_never_names_a_previous_model() {
    let model = model("gpt-b");
    let recorded = BaseInstructions {
        text: "Custom rules.".to_string(),
        provenance: Some(BaseInstructionsProvenance::Custom),
    };
    let resolved = resolve_base_instructions(inputs(&model, None, Some(&recorded)));
    assert_eq!(resolved.instructions(), &recorded);
    assert_eq!(resolved.generated_for_other_model(), None);
}

#[test]
fn legacy_recorded_text_is_attributed_to_the_current_model_only_when_identical() {
    let model = model("gpt-a");
    let identical = BaseInstructions {
        text: "You are gpt-a. Be direct.".to_string(),
        provenance: None,
    };
    let resolved = resolve_base_instructions(inputs(&model, None, Some(&identical)));
    assert_eq!(
        resolved.instructions(),
        &BaseInstructions {
            text: identical.text.clone(),
            provenance: model_provenance("gpt-a"),
        }
    );

    let different = BaseInstructions {
        text: "Something an older build wrote.".to_string(),
        provenance: None,
    };
    let resolved = resolve_base_instructions(inputs(&model, None, Some(&different)));
    assert_eq!(resolved.instructions(), &different);
    assert_eq!(resolved.generated_for_other_model(), None);
}

#[test]
fn model_without_template_yields_empty_instructions() {
    let model = ModelInfo::with_defaults("bare");
    let resolved = resolve_base_instructions(inputs(&model, None, None));
    assert_eq!(
        resolved.instructions(),
        &BaseInstructions {
            text: String::new(),
            provenance: model_provenance("bare"),
        }
    );
}

#[test]
fn provenance_serializes_as_upstream_tags() {
    let model = model("gpt-a");
    let resolved = resolve_base_instructions(inputs(&model, None, None));
    assert_eq!(
        serde_json::to_value(resolved.instructions()).unwrap(),
        serde_json::json!({
            "text": "You are gpt-a. Be direct.",
            "provenance": {"type": "model", "model": "gpt-a"},
        })
    );
}
