//! Resolving requested model names.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use codex_models_manager::MetadataSource;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_models_manager::Personality;
use codex_models_manager::ResolvedModel;
use codex_models_manager::fallback_model_info;
use codex_prompts::TemplateId;
use codex_protocol::openai_models::ConfigShellToolType;
use codex_protocol::openai_models::ModelMessages;
use codex_protocol::openai_models::ModelVisibility;
use codex_protocol::openai_models::TruncationMode;
use codex_protocol::openai_models::TruncationPolicyConfig;
use pretty_assertions::assert_eq;

/// Two entries where one slug is a prefix of the other, plus a third unrelated one.
fn catalog() -> ModelCatalog {
    ModelCatalog::from_json_str(
        r#"{"models": [
            {"slug": "gpt-5", "display_name": "GPT-5", "supported_reasoning_levels": [],
             "shell_type": "shell_command", "visibility": "list", "supported_in_api": true,
             "priority": 2, "base_instructions": "five"},
            {"slug": "gpt-5-codex", "display_name": "GPT-5 Codex", "supported_reasoning_levels": [],
             "shell_type": "shell_command", "visibility": "list", "supported_in_api": true,
             "priority": 1, "base_instructions": "five codex"},
            {"slug": "o3", "display_name": "o3", "supported_reasoning_levels": [],
             "shell_type": "shell_command", "visibility": "hide", "supported_in_api": true,
             "priority": 3, "base_instructions": "o3"}
        ]}"#,
    )
    .expect("test catalog parses")
}

fn entry(catalog: &ModelCatalog, slug: &str) -> ModelInfo {
    catalog
        .models()
        .iter()
        .find(|model| model.slug == slug)
        .cloned()
        .expect("entry exists")
}

/// What a catalog hit looks like: the entry's metadata under the requested name.
fn hit(catalog: &ModelCatalog, matched_slug: &str, requested: &str) -> ResolvedModel {
    let mut info = entry(catalog, matched_slug);
    info.slug = requested.to_string();
    ResolvedModel {
        info,
        source: MetadataSource::Catalog {
            matched_slug: matched_slug.to_string(),
        },
    }
}

fn miss(requested: &str) -> ResolvedModel {
    ResolvedModel {
        info: fallback_model_info(requested),
        source: MetadataSource::Fallback,
    }
}

#[test]
fn exact_slug_resolves_to_its_entry() {
    let catalog = catalog();
    assert_eq!(catalog.lookup("gpt-5"), hit(&catalog, "gpt-5", "gpt-5"));
    assert_eq!(
        catalog.lookup("gpt-5-codex"),
        hit(&catalog, "gpt-5-codex", "gpt-5-codex")
    );
}

#[test]
fn longest_matching_prefix_wins_and_the_requested_slug_is_kept() {
    let catalog = catalog();
    assert_eq!(
        catalog.lookup("gpt-5-codex-2026-01-01"),
        hit(&catalog, "gpt-5-codex", "gpt-5-codex-2026-01-01")
    );
    assert_eq!(catalog.lookup("gpt-5.1"), hit(&catalog, "gpt-5", "gpt-5.1"));
}

#[test]
fn one_namespace_prefix_is_stripped() {
    let catalog = catalog();
    assert_eq!(
        catalog.lookup("custom/gpt-5-codex"),
        hit(&catalog, "gpt-5-codex", "custom/gpt-5-codex")
    );
    assert_eq!(
        catalog.lookup("openai-codex_2/o3-mini"),
        hit(&catalog, "o3", "openai-codex_2/o3-mini")
    );
}

#[test]
fn namespaces_that_are_nested_empty_or_oddly_spelled_are_not_stripped() {
    let catalog = catalog();
    for requested in ["ns1/ns2/gpt-5", "/gpt-5", "my.ns/gpt-5", "name space/gpt-5"] {
        assert_eq!(catalog.lookup(requested), miss(requested), "{requested}");
    }
}

#[test]
fn unknown_slug_gets_fallback_metadata_under_the_requested_name() {
    let resolved = catalog().lookup("mystery-model");
    let mut expected = ModelInfo::with_defaults("mystery-model");
    expected.priority = 99;
    expected.shell_type = ConfigShellToolType::Default;
    expected.visibility = ModelVisibility::None;
    expected.truncation_policy = TruncationPolicyConfig {
        mode: TruncationMode::Bytes,
        limit: 10_000,
    };
    expected.context_window = Some(272_000);
    expected.max_context_window = Some(272_000);
    expected.used_fallback_model_metadata = true;
    expected.model_messages = Some(ModelMessages {
        instructions_template: Some(
            TemplateId::BaseInstructionsDefault
                .embedded_file()
                .to_string(),
        ),
        ..ModelMessages::default()
    });
    assert_eq!(
        resolved,
        ResolvedModel {
            info: expected,
            source: MetadataSource::Fallback,
        }
    );
}

#[test]
fn fallback_for_personality_test_slugs_supports_personality() {
    for slug in ["gpt-5.2-codex", "exp-codex-personality"] {
        let info = fallback_model_info(slug);
        assert_eq!(info.supports_personality(), true, "{slug}");
        assert_eq!(
            info.get_model_instructions(None),
            TemplateId::BaseInstructionsGpt5
                .embedded_file()
                .replace("{{ personality }}", "")
        );
        assert_eq!(
            info.get_model_instructions(Some(Personality::Pragmatic)),
            TemplateId::BaseInstructionsGpt5.embedded_file().replace(
                "{{ personality }}",
                TemplateId::PersonalityPragmatic.embedded_file()
            )
        );
    }
    assert_eq!(fallback_model_info("other").supports_personality(), false);
}

#[test]
fn bundled_catalog_resolves_dated_and_namespaced_names() {
    let catalog = ModelCatalog::bundled().expect("bundled catalog parses");
    let resolved = catalog.lookup("openai/gpt-5.4-mini-2026-03-01");
    assert_eq!(
        resolved.source,
        MetadataSource::Catalog {
            matched_slug: "gpt-5.4-mini".to_string()
        }
    );
    assert_eq!(resolved.info.slug, "openai/gpt-5.4-mini-2026-03-01");
    assert_eq!(resolved.info.used_fallback_model_metadata, false);
}

#[test]
fn empty_catalog_has_no_default_and_resolves_everything_to_fallback() {
    let catalog = ModelCatalog::from_json_str(r#"{"models": []}"#).expect("parses");
    assert_eq!(catalog.default_model(), None);
    assert_eq!(catalog.lookup("gpt-5"), miss("gpt-5"));
}

#[test]
fn default_model_prefers_listed_entries_then_the_first_by_priority() {
    let catalog = catalog();
    assert_eq!(
        catalog.default_model().map(|model| model.slug.as_str()),
        Some("gpt-5-codex")
    );
    let hidden_only = ModelCatalog::from_json_str(
        r#"{"models": [
            {"slug": "b", "display_name": "B", "supported_reasoning_levels": [],
             "shell_type": "default", "visibility": "hide", "supported_in_api": true,
             "priority": 5, "base_instructions": "b"},
            {"slug": "a", "display_name": "A", "supported_reasoning_levels": [],
             "shell_type": "default", "visibility": "none", "supported_in_api": true,
             "priority": 4, "base_instructions": "a"}
        ]}"#,
    )
    .expect("parses");
    assert_eq!(
        hidden_only.default_model().map(|model| model.slug.as_str()),
        Some("a")
    );
}
