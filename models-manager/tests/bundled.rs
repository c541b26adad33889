//! The catalog compiled into the crate.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use codex_models_manager::BUNDLED_MODELS_JSON;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_models_manager::Personality;
use codex_prompts::TemplateId;
use codex_protocol::openai_models::ModelInstructionsVariables;
use pretty_assertions::assert_eq;

fn bundled() -> ModelCatalog {
    ModelCatalog::bundled().expect("bundled catalog parses")
}

fn slugs(models: &[&ModelInfo]) -> Vec<String> {
    models.iter().map(|model| model.slug.clone()).collect()
}

#[test]
fn bundled_catalog_lists_upstreams_ten_slugs_in_document_order() {
    let catalog = bundled();
    let models: Vec<&ModelInfo> = catalog.models().iter().collect();
    assert_eq!(
        slugs(&models),
        vec![
            "gpt-5.6-sol",
            "gpt-5.6-terra",
            "gpt-5.6-luna",
            "gpt-daybreak-blue-latest",
            "gpt-daybreak-red-latest",
            "gpt-5.5",
            "gpt-5.4",
            "gpt-5.4-mini",
            "gpt-5.2",
            "codex-auto-review",
        ]
    );
}

#[test]
fn bundled_file_is_the_canonical_serialization_of_its_contents() {
    // A regenerator that serializes the parsed catalog must reproduce the file byte for byte;
    // this also pins every legacy `base_instructions` copy to the default-personality rendering.
    let response = bundled().into_response();
    let reserialized = serde_json::to_string_pretty(&response).expect("serializes") + "\n";
    assert_eq!(reserialized, BUNDLED_MODELS_JSON);
}

#[test]
fn bundled_templates_and_personality_texts_are_the_template_files() {
    // As upstream, the default text is empty and only friendly/pragmatic come from templates.
    let personality_variables = Some(ModelInstructionsVariables {
        personality_default: Some(String::new()),
        personality_friendly: Some(TemplateId::PersonalityFriendly.embedded_file().to_string()),
        personality_pragmatic: Some(TemplateId::PersonalityPragmatic.embedded_file().to_string()),
    });
    // gpt-5.2 mirrors upstream: an empty default text and no friendly/pragmatic texts.
    let default_only_variables = Some(ModelInstructionsVariables {
        personality_default: Some(String::new()),
        personality_friendly: None,
        personality_pragmatic: None,
    });
    let expected = vec![
        ("gpt-5.6-sol", TemplateId::BaseInstructionsGpt56, None),
        ("gpt-5.6-terra", TemplateId::BaseInstructionsGpt56, None),
        ("gpt-5.6-luna", TemplateId::BaseInstructionsGpt56, None),
        (
            "gpt-daybreak-blue-latest",
            TemplateId::BaseInstructionsGpt56,
            None,
        ),
        (
            "gpt-daybreak-red-latest",
            TemplateId::BaseInstructionsGpt56,
            None,
        ),
        (
            "gpt-5.5",
            TemplateId::BaseInstructionsGpt5,
            personality_variables.clone(),
        ),
        (
            "gpt-5.4",
            TemplateId::BaseInstructionsGpt5,
            personality_variables.clone(),
        ),
        (
            "gpt-5.4-mini",
            TemplateId::BaseInstructionsGpt5,
            personality_variables,
        ),
        (
            "gpt-5.2",
            TemplateId::BaseInstructionsDefault,
            default_only_variables,
        ),
        (
            "codex-auto-review",
            TemplateId::BaseInstructionsAutoReview,
            None,
        ),
    ]
    .into_iter()
    .map(|(slug, template, variables)| {
        (
            slug.to_string(),
            Some(template.embedded_file().to_string()),
            variables,
        )
    })
    .collect::<Vec<_>>();
    let actual = bundled()
        .models()
        .iter()
        .map(|model| {
            let messages = model.model_messages.clone().unwrap_or_default();
            (
                model.slug.clone(),
                messages.instructions_template,
                messages.instructions_variables,
            )
        })
        .collect::<Vec<_>>();
    assert_eq!(actual, expected);
}

#[test]
fn list_sorts_by_priority_and_default_model_is_first_listed() {
    let catalog = bundled();
    assert_eq!(
        slugs(&catalog.list()),
        vec![
            "gpt-5.6-sol",
            "gpt-5.6-terra",
            "gpt-5.6-luna",
            "gpt-daybreak-blue-latest",
            "gpt-daybreak-red-latest",
            "gpt-5.5",
            "gpt-5.4",
            "gpt-5.4-mini",
            "gpt-5.2",
            "codex-auto-review",
        ]
    );
    assert_eq!(
        catalog.default_model().map(|model| model.slug.as_str()),
        Some("gpt-5.6-sol")
    );
}

#[test]
fn bundled_catalog_summary() {
    let catalog = bundled();
    let mut summary = String::from(
        "slug | priority | visibility | context / max | default effort | efforts | personality | responses lite\n",
    );
    for model in catalog.list() {
        let efforts: Vec<String> = model
            .supported_reasoning_levels
            .iter()
            .map(|level| level.effort.to_string())
            .collect();
        summary.push_str(&format!(
            "{} | {} | {} | {} / {} | {} | {} | {} | {}\n",
            model.slug,
            model.priority,
            model.visibility,
            model
                .context_window
                .map_or_else(|| "-".to_string(), |window| window.to_string()),
            model
                .max_context_window
                .map_or_else(|| "-".to_string(), |window| window.to_string()),
            model
                .default_reasoning_level
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            efforts.join(","),
            model.supports_personality(),
            model.use_responses_lite,
        ));
    }
    insta::assert_snapshot!(summary);
}

#[test]
fn personality_models_render_each_personality_text_in_place_of_the_placeholder() {
    let catalog = bundled();
    let model = catalog.lookup("gpt-5.5").info;
    let template = TemplateId::BaseInstructionsGpt5.embedded_file();
    let rendered = [
        None,
        Some(Personality::None),
        Some(Personality::Friendly),
        Some(Personality::Pragmatic),
    ]
    .map(|personality| model.get_model_instructions(personality));
    // As upstream, the default text is empty: without a chosen personality the model gets none.
    let expected = [
        "",
        "",
        TemplateId::PersonalityFriendly.embedded_file(),
        TemplateId::PersonalityPragmatic.embedded_file(),
    ]
    .map(|text| template.replace("{{ personality }}", text));
    assert_eq!(rendered, expected);
    assert_eq!(template.matches("{{ personality }}").count(), 1);
}

#[test]
fn models_without_personality_variables_render_their_template_literally() {
    let catalog = bundled();
    let model = catalog.lookup("gpt-5.6-terra").info;
    assert_eq!(model.supports_personality(), false);
    assert_eq!(
        model.get_model_instructions(Some(Personality::Friendly)),
        TemplateId::BaseInstructionsGpt56.embedded_file()
    );
}
