use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn model(slug: &str) -> Value {
    json!({
        "slug": slug,
        "display_name": slug,
        "description": "Our words.",
        "context_window": 272000,
        "default_reasoning_level": "medium",
        "supported_reasoning_levels": [
            { "effort": "low", "description": "Our low." },
            { "effort": "medium", "description": "Our medium." }
        ],
        "shell_type": "shell_command",
        "visibility": "list",
        "supported_in_api": true,
        "priority": 1,
        "service_tiers": [{ "id": "priority", "name": "Fast", "description": "Our tier words." }],
        "model_messages": {
            "instructions_template": "Ours.\n\n{{ personality }}",
            "instructions_variables": {
                "personality_default": "",
                "personality_friendly": "Ours.",
                "personality_pragmatic": "Ours."
            }
        }
    })
}

fn catalog(models: Vec<Value>) -> ModelsResponse {
    serde_json::from_value(json!({ "models": models })).expect("catalog")
}

#[test]
fn prose_differences_are_ignored() {
    let mut theirs = model("a");
    theirs["description"] = json!("Their words.");
    theirs["supported_reasoning_levels"][0]["description"] = json!("Their low.");
    theirs["service_tiers"][0]["description"] = json!("Their tier words.");
    theirs["model_messages"]["instructions_template"] = json!("Theirs: {{ personality }}");
    theirs["model_messages"]["instructions_variables"]["personality_default"] = json!("Theirs.");
    let comparison = compare_catalogs(
        &catalog(vec![model("a")]),
        &catalog(vec![theirs]),
        CompareScope::Facts,
    )
    .expect("compares");
    assert_eq!(comparison.agrees(), true);
    assert_eq!(comparison.render(), "a: OK\n1 of 1 models agree\n");
}

#[test]
fn every_fact_difference_and_missing_model_is_listed() {
    let ours = catalog(vec![model("a"), model("b"), model("only-ours")]);
    let mut a = model("a");
    a["context_window"] = json!(400000);
    a["supported_reasoning_levels"] = json!([{ "effort": "low", "description": "x" }]);
    a["use_responses_lite"] = json!(true);
    let mut b = model("b");
    // No template placeholder: personalities are not supported.
    b["model_messages"]["instructions_template"] = json!("Theirs.");
    b["visibility"] = json!("hide");
    let theirs = catalog(vec![model("only-theirs"), a, b]);

    let comparison = compare_catalogs(&ours, &theirs, CompareScope::Facts).expect("compares");
    assert_eq!(comparison.agrees(), false);
    assert_eq!(
        comparison.render(),
        "a: 3 difference(s)\n\
         \x20 use_responses_lite: bundled false, upstream true\n\
         \x20 context_window: bundled 272000, upstream 400000\n\
         \x20 supported_reasoning_levels: bundled [\"low\",\"medium\"], upstream [\"low\"]\n\
         b: 2 difference(s)\n\
         \x20 visibility: bundled \"list\", upstream \"hide\"\n\
         \x20 supports_personality: bundled true, upstream false\n\
         only-ours: only in the bundled catalog\n\
         only-theirs: only in upstream's catalog\n\
         0 of 4 models agree\n"
    );
}

#[test]
fn message_shapes_compare_presence_and_emptiness_of_texts() {
    let mut theirs = model("a");
    theirs["model_messages"]["instructions_variables"]["personality_default"] = json!("Theirs.");
    theirs["model_messages"]["token_budget"] =
        json!({ "reminder_threshold_tokens": 10, "note": "x" });
    let comparison = compare_catalogs(
        &catalog(vec![model("a")]),
        &catalog(vec![theirs]),
        CompareScope::FactsAndMessageShapes,
    )
    .expect("compares");
    assert_eq!(
        comparison.models,
        vec![ModelComparison {
            slug: "a".to_string(),
            outcome: ModelOutcome::Differ(vec![
                FieldDifference {
                    field: "model_messages.instructions_variables.personality_default".to_string(),
                    bundled: json!("<empty>"),
                    upstream: json!("<text>"),
                },
                FieldDifference {
                    field: "model_messages.token_budget.reminder_threshold_tokens".to_string(),
                    bundled: Value::Null,
                    upstream: json!(10),
                },
                FieldDifference {
                    field: "model_messages.token_budget.note".to_string(),
                    bundled: Value::Null,
                    upstream: json!("<text>"),
                },
            ]),
        }]
    );
}

#[test]
fn catalogs_load_from_a_file_or_a_directory_and_bad_input_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = serde_json::to_string(&json!({ "models": [model("a")] })).expect("json");
    std::fs::write(dir.path().join("models.json"), &text).expect("write");
    let from_dir = load_catalog(dir.path()).expect("directory");
    let from_file = load_catalog(&dir.path().join("models.json")).expect("file");
    assert_eq!(from_dir, from_file);
    assert_eq!(from_dir.models.len(), 1);

    let missing = dir.path().join("missing.json");
    assert!(matches!(load_catalog(&missing), Err(XtaskError::Io { path, .. }) if path == missing));
    std::fs::write(dir.path().join("bad.json"), "{\"models\": [{}]}").expect("write");
    assert!(matches!(
        load_catalog(&dir.path().join("bad.json")),
        Err(XtaskError::Json { .. })
    ));
}
