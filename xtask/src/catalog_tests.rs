use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::manifest::ModelEntry;
use crate::manifest::PersonalitySet;

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("serializes") + "\n"
}

fn entry(slug: &str, priority: i64) -> Value {
    json!({
        "slug": slug,
        "display_name": slug,
        "supported_reasoning_levels": [],
        "shell_type": "shell_command",
        "visibility": "list",
        "supported_in_api": true,
        "priority": priority,
    })
}

fn manifest() -> Manifest {
    let metadata = |text: &str| toml::from_str::<toml::Table>(text).expect("toml");
    Manifest {
        personality_sets: BTreeMap::from([(
            "set".to_string(),
            PersonalitySet {
                default: Some(PersonalityText::Template(
                    "personality/default.md".to_string(),
                )),
                friendly: Some(PersonalityText::Inline {
                    text: String::new(),
                }),
                pragmatic: None,
            },
        )]),
        models: vec![
            ModelEntry {
                slug: "with-personality".to_string(),
                instructions_template: "base/p.md".to_string(),
                personalities: Some("set".to_string()),
                baked_personality: None,
                messages: BTreeMap::new(),
                metadata: metadata("priority = 5\ndescription = \"New words.\""),
            },
            ModelEntry {
                slug: "plain".to_string(),
                instructions_template: "base/plain.md".to_string(),
                personalities: None,
                baked_personality: None,
                messages: BTreeMap::new(),
                metadata: toml::Table::new(),
            },
        ],
    }
}

fn templates() -> BTreeMap<String, String> {
    BTreeMap::from([
        (
            "base/p.md".to_string(),
            "Intro.\n\n{{ personality }}\n\nRules.\n".to_string(),
        ),
        ("base/plain.md".to_string(), "Plain.\n".to_string()),
        (
            "personality/default.md".to_string(),
            "Be calm.\n".to_string(),
        ),
    ])
}

fn generate(current: &str) -> Result<GeneratedCatalog, XtaskError> {
    generate_catalog(Path::new("models.json"), current, &manifest(), &templates())
}

#[test]
fn writes_template_fields_metadata_and_the_legacy_copy_in_place() {
    let mut with_personality = entry("with-personality", 1);
    with_personality["model_messages"] = json!({
        "instructions_template": "old",
        "instructions_variables": null,
        "approvals": null,
    });
    with_personality["base_instructions"] = json!("old");
    let current = pretty(&json!({ "models": [with_personality, entry("plain", 2)] }));

    let generated = generate(&current).expect("generates");

    let mut expected_first = entry("with-personality", 5);
    expected_first["model_messages"] = json!({
        "instructions_template": "Intro.\n\n{{ personality }}\n\nRules.\n",
        "instructions_variables": {
            "personality_default": "Be calm.\n",
            "personality_friendly": "",
            "personality_pragmatic": null,
        },
        "approvals": null,
    });
    // A key the entry did not have goes before `base_instructions`, which stays last.
    expected_first["description"] = json!("New words.");
    expected_first["base_instructions"] = json!("Intro.\n\nBe calm.\n\n\nRules.\n");
    let mut expected_second = entry("plain", 2);
    expected_second["model_messages"] = json!({
        "instructions_template": "Plain.\n",
        "instructions_variables": null,
    });
    assert_eq!(
        generated.text,
        pretty(&json!({ "models": [expected_first, expected_second] }))
    );
    let template = |path: &str| ChangeSource::Template(path.to_string());
    let change = |slug: &str, field: &str, sources: Vec<ChangeSource>| FieldChange {
        slug: slug.to_string(),
        field: field.to_string(),
        sources,
    };
    assert_eq!(
        generated.changes,
        vec![
            change(
                "with-personality",
                "model_messages.instructions_template",
                vec![template("base/p.md")]
            ),
            change(
                "with-personality",
                "model_messages.instructions_variables",
                vec![
                    template("personality/default.md"),
                    ChangeSource::Manifest,
                    ChangeSource::Manifest
                ]
            ),
            change(
                "with-personality",
                "description",
                vec![ChangeSource::Manifest]
            ),
            change("with-personality", "priority", vec![ChangeSource::Manifest]),
            change(
                "with-personality",
                "base_instructions",
                vec![template("base/p.md"), template("personality/default.md")]
            ),
            change(
                "plain",
                "model_messages.instructions_template",
                vec![template("base/plain.md")]
            ),
            change(
                "plain",
                "model_messages.instructions_variables",
                vec![ChangeSource::Manifest]
            ),
        ]
    );

    let again = generate(&generated.text).expect("generates");
    assert_eq!(
        again,
        GeneratedCatalog {
            text: generated.text,
            changes: Vec::new(),
        }
    );
}

#[test]
fn catalog_and_manifest_must_list_the_same_models() {
    let current = pretty(&json!({ "models": [entry("plain", 1), entry("extra", 2)] }));
    assert_eq!(
        generate(&current).map(|_| ()).map_err(|error| error.to_string()),
        Err("models.json: models differ from prompts/models.toml: only in the catalog [\"extra\"], \
             only in the manifest [\"with-personality\"] (every catalog entry needs a unique slug \
             and a manifest entry)"
            .to_string())
    );
}

#[test]
fn output_that_is_no_longer_a_catalog_is_an_error() {
    let mut manifest = manifest();
    manifest.models[1].metadata.insert(
        "priority".to_string(),
        toml::Value::String("first".to_string()),
    );
    let current = pretty(&json!({ "models": [entry("with-personality", 1), entry("plain", 2)] }));
    let error = generate_catalog(Path::new("models.json"), &current, &manifest, &templates())
        .expect_err("priority must be a number");
    assert!(
        error
            .to_string()
            .starts_with("models.json: invalid catalog entry: invalid type: string \"first\""),
        "{error}"
    );
}

#[test]
fn unparsable_catalogs_are_errors_naming_the_file() {
    let error = generate("{").expect_err("invalid JSON");
    assert!(error.to_string().starts_with("models.json: EOF"), "{error}");
    let error = generate("{\"models\": 3}").expect_err("no array");
    assert_eq!(error.to_string(), "models.json: no `models` array");
}

#[test]
fn a_baked_personality_and_message_texts_are_written_from_their_templates() {
    let mut manifest = manifest();
    manifest.models = vec![ModelEntry {
        slug: "plain".to_string(),
        instructions_template: "base/p.md".to_string(),
        personalities: None,
        baked_personality: Some("personality/default.md".to_string()),
        messages: BTreeMap::from([
            (
                "multi_agent.role.root".to_string(),
                "base/plain.md".to_string(),
            ),
            (
                "collaboration_modes.default".to_string(),
                "personality/default.md".to_string(),
            ),
        ]),
        metadata: toml::Table::new(),
    }];
    let mut current = entry("plain", 2);
    current["model_messages"] = json!({
        "instructions_template": "old",
        "collaboration_modes": {"default": "old", "plan": null},
        "multi_agent": null,
    });

    let generated = generate_catalog(
        Path::new("models.json"),
        &pretty(&json!({ "models": [current] })),
        &manifest,
        &templates(),
    )
    .expect("generates");

    let mut expected = entry("plain", 2);
    expected["model_messages"] = json!({
        "instructions_template": "Intro.\n\nBe calm.\n\n\nRules.\n",
        "collaboration_modes": {"default": "Be calm.\n", "plan": null},
        "multi_agent": {"role": {"root": "Plain.\n"}},
        "instructions_variables": null,
    });
    assert_eq!(generated.text, pretty(&json!({ "models": [expected] })));
    let fields: Vec<&str> = generated
        .changes
        .iter()
        .map(|change| change.field.as_str())
        .collect();
    assert_eq!(
        fields,
        [
            "model_messages.instructions_template",
            "model_messages.instructions_variables",
            "model_messages.collaboration_modes.default",
            "model_messages.multi_agent.role.root",
        ]
    );
}
