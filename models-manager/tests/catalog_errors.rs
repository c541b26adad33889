//! Loading catalogs that are missing or malformed.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use codex_models_manager::CatalogError;
use codex_models_manager::CatalogOrigin;
use codex_models_manager::ModelCatalog;
use pretty_assertions::assert_eq;

fn write_catalog(dir: &tempfile::TempDir, text: &str) -> std::path::PathBuf {
    let path = dir.path().join("catalog.json");
    std::fs::write(&path, text).expect("write test catalog");
    path
}

#[test]
fn missing_file_names_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("absent.json");
    let err = ModelCatalog::from_path(&path).expect_err("missing file fails");
    let CatalogError::Read {
        path: reported,
        source,
    } = &err
    else {
        panic!("expected a read error, got {err:?}");
    };
    assert_eq!(
        (reported, source.kind(), err.position()),
        (&path, std::io::ErrorKind::NotFound, None)
    );
    assert_eq!(
        err.to_string(),
        format!("failed to read model catalog {}: {source}", path.display())
    );
}

#[test]
fn invalid_json_names_the_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write_catalog(&dir, "{\n  \"models\": [\n    {,\n  ]\n}\n");
    let err = ModelCatalog::from_path(&path).expect_err("invalid JSON fails");
    assert_eq!(
        err.to_string(),
        format!(
            "invalid model catalog {}: key must be a string at line 3 column 6",
            path.display()
        )
    );
    assert_eq!(err.position(), Some((3, 6)));
}

#[test]
fn entry_without_any_instructions_is_rejected_with_its_slug() {
    let err = ModelCatalog::from_json_str(
        r#"{"models": [{"slug": "no-text", "display_name": "No text",
            "supported_reasoning_levels": [], "shell_type": "default", "visibility": "list",
            "supported_in_api": true, "priority": 1, "model_messages": null}]}"#,
    )
    .expect_err("entry without instructions fails");
    assert_eq!(
        err.to_string(),
        "invalid inline model catalog: model `no-text` is missing both `base_instructions` and \
         `model_messages.instructions_template` at line 3 column 78"
    );
}

#[test]
fn entry_with_a_wrong_field_type_is_rejected() {
    let err = ModelCatalog::from_json_str(r#"{"models": [{"slug": 5}]}"#)
        .expect_err("wrong field type fails");
    assert_eq!(
        err.to_string(),
        "invalid inline model catalog: invalid catalog entry: invalid type: integer `5`, expected a \
         string at line 1 column 25"
    );
    assert_eq!(
        ModelCatalog::from_json_str(r#"{"model": []}"#)
            .expect_err("not a ModelsResponse")
            .to_string(),
        "invalid inline model catalog: missing field `models` at line 1 column 13"
    );
}

#[test]
fn legacy_base_instructions_become_the_template() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write_catalog(
        &dir,
        r#"{"models": [{"slug": "legacy", "display_name": "Legacy",
            "supported_reasoning_levels": [], "shell_type": "default", "visibility": "list",
            "supported_in_api": true, "priority": 1, "base_instructions": "Be helpful."}]}"#,
    );
    let catalog = ModelCatalog::from_path(&path).expect("legacy catalog parses");
    assert_eq!(catalog.origin(), &CatalogOrigin::File(path));
    assert_eq!(
        catalog.lookup("legacy").info.get_model_instructions(None),
        "Be helpful."
    );
}

/// One model entry with `model_messages`.
fn catalog_with_messages(messages: serde_json::Value) -> String {
    serde_json::json!({"models": [{
        "slug": "m",
        "display_name": "m",
        "supported_reasoning_levels": [],
        "shell_type": "shell_command",
        "visibility": "list",
        "supported_in_api": true,
        "priority": 1,
        "model_messages": messages,
    }]})
    .to_string()
}

#[test]
fn a_template_naming_an_undefined_variable_is_an_error_naming_field_model_and_catalog() {
    let dir = tempfile::tempdir().expect("tempdir");
    let instructions = write_catalog(
        &dir,
        &catalog_with_messages(serde_json::json!({
            "instructions_template": "Be brief. {{ personality }} {{ unknown_var }}",
        })),
    );
    let instructions_error = ModelCatalog::from_path(&instructions)
        .expect_err("undefined variable")
        .to_string();
    let permissions = ModelCatalog::from_json_str(&catalog_with_messages(serde_json::json!({
        "instructions_template": "Be brief.",
        "permissions": {"read_only": "Network {{ network_access }}.", "workspace_write": "{{ network }}"},
    })))
    .expect_err("undefined variable")
    .to_string();
    assert_eq!(
        (instructions_error, permissions),
        (
            format!(
                "template `model_messages.instructions_template` of model `m` in model catalog \
                 {} uses `{{{{ unknown_var }}}}`, which nothing defines (it is given: personality)",
                instructions.display()
            ),
            "template `model_messages.permissions.workspace_write` of model `m` in inline model \
             catalog uses `{{ network }}`, which nothing defines (it is given: network_access)"
                .to_string()
        )
    );
    // The placeholders the harness fills, and texts it uses verbatim, load.
    let fine = ModelCatalog::from_json_str(&catalog_with_messages(serde_json::json!({
        "instructions_template": "Be brief. {{ personality }}",
        "permissions": {"read_only": "Network {{ network_access }}."},
        "approvals": {"never": "Never ask {{ anyone }}."},
    })));
    assert!(fine.is_ok(), "{fine:?}");
}
