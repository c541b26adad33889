//! Compatibility with upstream's real model catalog (read via `CODEX_UPSTREAM_FIXTURES`).

// A test crate: a broken or missing fixture should fail loudly, so helpers unwrap too.
#![allow(clippy::unwrap_used)]

mod upstream_fixtures;

use codex_protocol::ModelVisibility;
use codex_protocol::openai_models::ModelsResponse;
use pretty_assertions::assert_eq;

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_models_json_round_trips_byte_for_byte() {
    let dir = upstream_fixtures::root();
    let original = std::fs::read_to_string(dir.join("models.json")).unwrap();
    let response: ModelsResponse = serde_json::from_str(&original).unwrap();
    assert_eq!(response.models.len(), 10);

    let rewritten = format!("{}\n", serde_json::to_string_pretty(&response).unwrap());
    assert_eq!(rewritten, original);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn upstream_models_json_facts() {
    let dir = upstream_fixtures::root();
    let original = std::fs::read_to_string(dir.join("models.json")).unwrap();
    let response: ModelsResponse = serde_json::from_str(&original).unwrap();
    let summary: Vec<(String, ModelVisibility, i32, bool)> = response
        .models
        .iter()
        .map(|model| {
            (
                model.slug.clone(),
                model.visibility,
                model.priority,
                model.supports_personality(),
            )
        })
        .collect();
    let expected: Vec<(String, ModelVisibility, i32, bool)> = [
        ("gpt-5.6-sol", ModelVisibility::List, 1, false),
        ("gpt-5.6-terra", ModelVisibility::List, 2, false),
        ("gpt-5.6-luna", ModelVisibility::List, 3, false),
        ("gpt-daybreak-blue-latest", ModelVisibility::Hide, 3, false),
        ("gpt-daybreak-red-latest", ModelVisibility::Hide, 3, false),
        ("gpt-5.5", ModelVisibility::List, 7, true),
        ("gpt-5.4", ModelVisibility::Hide, 16, true),
        ("gpt-5.4-mini", ModelVisibility::Hide, 23, true),
        ("gpt-5.2", ModelVisibility::List, 29, false),
        ("codex-auto-review", ModelVisibility::Hide, 43, false),
    ]
    .into_iter()
    .map(|(slug, visibility, priority, personality)| {
        (slug.to_string(), visibility, priority, personality)
    })
    .collect();
    assert_eq!(summary, expected);
}
