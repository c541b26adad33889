use pretty_assertions::assert_eq;

use super::*;

const SETS: &str = r#"
[personality_sets.standard]
default = "personality/default.md"
friendly = "personality/friendly.md"

[personality_sets.empty]
default = { text = "" }
"#;

fn load(text: &str) -> Result<Manifest, String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("models.toml");
    std::fs::write(&path, text).expect("write");
    Manifest::load(&path).map_err(|error| {
        error
            .to_string()
            .replace(&path.display().to_string(), "models.toml")
    })
}

#[test]
fn template_uses_list_each_models_template_then_its_personality_texts() {
    let manifest = load(&format!(
        "{SETS}\n[[models]]\nslug = \"a\"\ninstructions_template = \"base/a.md\"\npersonalities = \"standard\"\n\
         [models.metadata]\npriority = 3\n\n\
         [[models]]\nslug = \"b\"\ninstructions_template = \"base/b.md\"\npersonalities = \"empty\"\n"
    ))
    .expect("valid");
    let uses: Vec<(&str, &str, CatalogField)> = manifest
        .template_uses()
        .iter()
        .map(|template_use| (template_use.template, template_use.slug, template_use.field))
        .collect();
    assert_eq!(
        uses,
        vec![
            ("base/a.md", "a", CatalogField::InstructionsTemplate),
            (
                "personality/default.md",
                "a",
                CatalogField::Personality(PersonalitySlot::Default)
            ),
            (
                "personality/friendly.md",
                "a",
                CatalogField::Personality(PersonalitySlot::Friendly)
            ),
            ("base/b.md", "b", CatalogField::InstructionsTemplate),
        ]
    );
    assert_eq!(
        manifest.models[0].metadata.get("priority"),
        Some(&toml::Value::Integer(3))
    );
    assert_eq!(
        CatalogField::Personality(PersonalitySlot::Pragmatic).json_path(),
        "model_messages.instructions_variables.personality_pragmatic"
    );
}

#[test]
fn invalid_manifests_are_rejected_with_the_reason() {
    let model = |extra: &str| {
        format!("{SETS}\n[[models]]\nslug = \"a\"\ninstructions_template = \"base/a.md\"\n{extra}")
    };
    let cases = [
        (
            format!("{}\n[[models]]\nslug = \"a\"\ninstructions_template = \"x.md\"\n", model("")),
            "models.toml: model `a` is listed twice",
        ),
        (
            model("personalities = \"missing\"\n"),
            "models.toml: model `a` names personality set `missing`, which is not defined",
        ),
        (
            model("[models.metadata]\nbase_instructions = \"text\"\n"),
            "models.toml: model `a`: metadata may not set `base_instructions`",
        ),
        (
            "[personality_sets.x]\ndefault = { text = \"prose\" }\n[[models]]\nslug = \"a\"\ninstructions_template = \"a.md\"\n"
                .to_string(),
            "models.toml: personality set `x`: inline personality_default text must be empty; put prose in a template",
        ),
        (
            "[[models]]\nslug = \"a\"\ninstructions_template = \"../outside.md\"\n".to_string(),
            "models.toml: template path `../outside.md` must be relative to prompts/templates/ without `.`/`..` steps",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(load(&text).map(|_| ()), Err(expected.to_string()), "{text}");
    }
}

#[test]
fn unknown_keys_are_a_parse_error_naming_the_file() {
    let error =
        load("[[models]]\nslug = \"a\"\ninstructions_template = \"a.md\"\ntemplate = \"typo\"\n")
            .expect_err("unknown key");
    assert!(error.starts_with("models.toml: "), "{error}");
    assert!(error.contains("unknown field `template`"), "{error}");
}

#[test]
fn a_set_pairs_an_empty_default_with_template_texts() {
    // The shape upstream's gpt-5.4/5.5 catalog entries have: no default text, but friendly and
    // pragmatic texts.
    let manifest = load(
        "[personality_sets.mixed]\ndefault = { text = \"\" }\n\
         friendly = \"personality/friendly.md\"\npragmatic = \"personality/pragmatic.md\"\n\n\
         [[models]]\nslug = \"a\"\ninstructions_template = \"base/a.md\"\npersonalities = \"mixed\"\n",
    )
    .expect("valid");
    assert_eq!(
        manifest.personality_sets["mixed"],
        PersonalitySet {
            default: Some(PersonalityText::Inline {
                text: String::new()
            }),
            friendly: Some(PersonalityText::Template(
                "personality/friendly.md".to_string()
            )),
            pragmatic: Some(PersonalityText::Template(
                "personality/pragmatic.md".to_string()
            )),
        }
    );
    let uses: Vec<(&str, CatalogField)> = manifest
        .template_uses()
        .iter()
        .map(|template_use| (template_use.template, template_use.field))
        .collect();
    assert_eq!(
        uses,
        vec![
            ("base/a.md", CatalogField::InstructionsTemplate),
            (
                "personality/friendly.md",
                CatalogField::Personality(PersonalitySlot::Friendly)
            ),
            (
                "personality/pragmatic.md",
                CatalogField::Personality(PersonalitySlot::Pragmatic)
            ),
        ]
    );
}
