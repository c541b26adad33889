//! The 0.171 catalog compiled into the crate.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use codex_models_manager::BUNDLED_MODELS_0_171_JSON;
use codex_models_manager::BundledCatalog;
use codex_models_manager::MetadataSource;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::openai_models::ToolMode;
use pretty_assertions::assert_eq;

fn bundled() -> ModelCatalog {
    ModelCatalog::bundled_release(BundledCatalog::V0_171).expect("0.171 catalog parses")
}

#[test]
fn the_0_171_catalog_lists_the_releases_fourteen_slugs_and_defaults_to_gpt_6_2_sol() {
    let catalog = bundled();
    let slugs: Vec<&str> = catalog
        .list()
        .iter()
        .map(|model| model.slug.as_str())
        .collect();
    assert_eq!(
        slugs,
        vec![
            "gpt-6.2-sol",
            "gpt-6.2-astra",
            "gpt-6.1-terra",
            "gpt-6.1-sol",
            "gpt-6-astra",
            "gpt-6-sol",
            "gpt-6-luna",
            "gpt-5.6-sol",
            "gpt-5.6-terra",
            "gpt-5.6-luna",
            "gpt-daybreak-blue-latest",
            "gpt-daybreak-red-latest",
            "gpt-5.5",
            "codex-auto-review",
        ]
    );
    let default = catalog.default_model().expect("a default model");
    assert_eq!(
        (
            default.slug.as_str(),
            default.use_responses_lite,
            default.tool_mode,
            default.experimental_supported_tools.clone(),
        ),
        (
            "gpt-6.2-sol",
            true,
            Some(ToolMode::CodeModeOnly),
            vec![
                "request_user_input_async".to_string(),
                "send_message_to_user_async".to_string(),
                "clock".to_string(),
                "literature_search_query".to_string(),
                "multi_agent_v2_in_code_mode".to_string(),
            ]
        )
    );
}

#[test]
fn models_the_release_dropped_get_fallback_metadata() {
    let catalog = bundled();
    for slug in ["gpt-5.4", "gpt-5.4-mini", "gpt-5.2"] {
        let resolved = catalog.lookup(slug);
        assert_eq!((slug, resolved.source), (slug, MetadataSource::Fallback));
    }
}

#[test]
fn the_0_171_file_is_the_canonical_serialization_of_its_contents() {
    let response = bundled().into_response();
    let reserialized = serde_json::to_string_pretty(&response).expect("serializes") + "\n";
    assert_eq!(reserialized, BUNDLED_MODELS_0_171_JSON);
}

#[test]
fn a_template_overlay_reaches_the_gpt_6_instructions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(TemplateId::BaseInstructionsGpt6.path());
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, "Overlaid.\n").expect("write");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    let catalog = ModelCatalog::bundled_for(BundledCatalog::V0_171, &templates).expect("catalog");
    let instructions = catalog
        .lookup("gpt-6.2-sol")
        .info
        .get_model_instructions(None);
    assert_eq!(instructions, "Overlaid.\n");
}
