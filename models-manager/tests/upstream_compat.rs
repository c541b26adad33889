//! Compatibility with upstream's real catalog and captured requests, read from the directory
//! named by `CODEX_UPSTREAM_FIXTURES` (ignored without it; run with
//! `-- --ignored`).

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::PathBuf;

use codex_models_manager::CatalogOrigin;
use codex_models_manager::MetadataSource;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_models_manager::Personality;
use pretty_assertions::assert_eq;
use serde_json::Value;

const PLACEHOLDER: &str = "{{ personality }}";

const CHOICES: [Option<Personality>; 4] = [
    None,
    Some(Personality::None),
    Some(Personality::Friendly),
    Some(Personality::Pragmatic),
];

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("parse {}: {err}", path.display()))
}

/// The template's lines with the `# Personality` block (up to the next `# ` heading) left out.
fn without_personality_block(template: &str) -> String {
    let mut skipping = false;
    template
        .split('\n')
        .filter(|line| {
            if *line == "# Personality" {
                skipping = true;
            } else if line.starts_with("# ") {
                skipping = false;
            }
            !skipping
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What upstream's rules give for one raw catalog entry: the template literally when it has no
/// variables, otherwise the placeholder replaced by the chosen text (absent text → empty); an
/// explicit `none` first drops a baked `# Personality` block.
fn expected_instructions(raw: &Value, personality: Option<Personality>) -> String {
    let messages = &raw["model_messages"];
    let template = messages["instructions_template"]
        .as_str()
        .expect("upstream entries have a template");
    let template = match personality {
        Some(Personality::None) => without_personality_block(template),
        None | Some(Personality::Friendly) | Some(Personality::Pragmatic) => template.to_string(),
    };
    let variables = &messages["instructions_variables"];
    if variables.is_null() {
        return template;
    }
    let key = match personality {
        None => Some("personality_default"),
        Some(Personality::None) => None,
        Some(Personality::Friendly) => Some("personality_friendly"),
        Some(Personality::Pragmatic) => Some("personality_pragmatic"),
    };
    let text = key
        .and_then(|key| variables[key].as_str())
        .unwrap_or_default();
    template.replacen(PLACEHOLDER, text, 1)
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_catalog_renders_every_model_and_personality_like_upstream() {
    let dir = upstream_fixtures::root();
    let path = dir.join("models.json");
    let raw = read_json(path.clone());
    let raw_models = raw["models"].as_array().expect("models array");
    let catalog = ModelCatalog::from_path(&path).expect("upstream catalog loads");
    assert_eq!(catalog.origin(), &CatalogOrigin::File(path));
    assert_eq!(catalog.models().len(), 10);

    for raw_model in raw_models {
        let slug = raw_model["slug"].as_str().expect("slug");
        let template = raw_model["model_messages"]["instructions_template"]
            .as_str()
            .expect("template");
        // One placeholder at most: replacing the first occurrence and replacing all agree.
        assert!(template.matches(PLACEHOLDER).count() <= 1, "{slug}");

        let resolved = catalog.lookup(slug);
        assert_eq!(
            resolved.source,
            MetadataSource::Catalog {
                matched_slug: slug.to_string()
            }
        );
        let rendered = CHOICES.map(|choice| resolved.info.get_model_instructions(choice));
        let expected = CHOICES.map(|choice| expected_instructions(raw_model, choice));
        assert_eq!(rendered, expected, "{slug}");
        // Upstream's own legacy copy is the default-personality rendering.
        assert_eq!(
            Some(rendered[0].as_str()),
            raw_model["base_instructions"].as_str(),
            "{slug}"
        );
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_personality_captures_match_rendered_instructions() {
    let dir = upstream_fixtures::root();
    let catalog = ModelCatalog::from_path(dir.join("models.json")).expect("upstream catalog");
    let cases = [
        (
            "personality.config_personality_some_sets_instructions_template",
            Some(Personality::Friendly),
        ),
        (
            "personality.default_personality_is_pragmatic_without_config_toml",
            Some(Personality::Pragmatic),
        ),
        (
            "personality.config_personality_none_sends_no_personality",
            Some(Personality::None),
        ),
    ];
    for (scenario, personality) in cases {
        let request = read_json(dir.join("captures").join(scenario).join("request-01.json"));
        let model = request["model"].as_str().expect("model");
        assert_eq!(
            Some(
                catalog
                    .lookup(model)
                    .info
                    .get_model_instructions(personality)
                    .as_str()
            ),
            request["instructions"].as_str(),
            "{scenario}"
        );
    }
}

/// upstream's capture overrides the session model's template with a baked personality section and
/// no variables; with personality `none` the section and its subsection are left out.
#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_personality_none_capture_strips_a_baked_section() {
    let dir = upstream_fixtures::root();
    let catalog = ModelCatalog::from_path(dir.join("models.json")).expect("upstream catalog");
    let scenario = "personality.config_personality_none_strips_baked_personality_section";
    let request = read_json(dir.join("captures").join(scenario).join("request-01.json"));
    let mut info = catalog
        .lookup(request["model"].as_str().expect("model"))
        .info;
    let messages = info
        .model_messages
        .as_mut()
        .expect("catalog entries carry messages");
    // The section texts are ours: the capture only shows what survives around them.
    messages.instructions_template = Some(
        "Base instructions\n# Personality\nA voice of its own\n## Writing Style\nShort lines\n# General\nGeneral instructions"
            .to_string(),
    );
    messages.instructions_variables = None;
    assert_eq!(
        Some(
            info.get_model_instructions(Some(Personality::None))
                .as_str()
        ),
        request["instructions"].as_str()
    );
}

/// Drops every text this project writes in its own words, leaving the metadata facts.
fn facts(models: &[ModelInfo]) -> Vec<(ModelInfo, bool)> {
    models
        .iter()
        .map(|model| {
            let mut model = model.clone();
            let supports_personality = model.supports_personality();
            model.description = None;
            model.model_messages = None;
            for level in &mut model.supported_reasoning_levels {
                level.description.clear();
            }
            for tier in &mut model.service_tiers {
                tier.description.clear();
            }
            if let Some(upgrade) = model.upgrade.as_mut() {
                upgrade.migration_markdown = None;
            }
            (model, supports_personality)
        })
        .collect()
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn bundled_catalog_carries_upstreams_metadata_facts() {
    let dir = upstream_fixtures::root();
    let upstream = ModelCatalog::from_path(dir.join("models.json")).expect("upstream catalog");
    let bundled = ModelCatalog::bundled().expect("bundled catalog");
    assert_eq!(facts(bundled.models()), facts(upstream.models()));
}
