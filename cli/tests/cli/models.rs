use pretty_assertions::assert_eq;
use serde_json::json;

use crate::support::Run;
use crate::support::arg;
use crate::support::assert_success;
use crate::support::catalog_entry;
use crate::support::run;
use crate::support::write_catalog;

fn successful_stdout(run: Run) -> String {
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    run.stdout
}

#[test]
fn bundled_catalog_table() {
    insta::assert_snapshot!(successful_stdout(run(&["models"])));
}

#[test]
fn bundled_catalog_json() {
    insta::assert_snapshot!(successful_stdout(run(&["models", "--json"])));
}

/// Entries sorted by priority; the window falls back to `max_context_window` and is `-` when
/// unknown; personality support needs the placeholder and all three texts.
fn custom_catalog(dir: &std::path::Path) -> std::path::PathBuf {
    let personalities = json!({
        "personality_default": "steady",
        "personality_friendly": "warm",
        "personality_pragmatic": "brisk",
    });
    write_catalog(
        dir,
        vec![
            catalog_entry(
                "second",
                2,
                json!({
                    "visibility": "hide",
                    "max_context_window": 400000,
                    "model_messages": {
                        "instructions_template": "Hi {{ personality }}",
                        "instructions_variables": personalities,
                    },
                }),
            ),
            catalog_entry(
                "a-much-longer-first-slug",
                1,
                json!({"context_window": 128000, "base_instructions": "plain"}),
            ),
            catalog_entry(
                "third",
                3,
                json!({"visibility": "none", "base_instructions": "no window"}),
            ),
        ],
    )
}

#[test]
fn catalog_file_table() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = custom_catalog(dir.path());
    assert_success(
        &run(&["models", "--model-catalog", arg(&catalog)]),
        "\
SLUG                      VISIBILITY  CONTEXT WINDOW  PERSONALITY
a-much-longer-first-slug  list        128000          no
second                    hide        400000          yes
third                     none        -               no
",
    );
}

#[test]
fn catalog_file_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = custom_catalog(dir.path());
    let expected = json!([
        {"slug": "a-much-longer-first-slug", "visibility": "list", "context_window": 128000,
         "supports_personality": false},
        {"slug": "second", "visibility": "hide", "context_window": 400000,
         "supports_personality": true},
        {"slug": "third", "visibility": "none", "context_window": null,
         "supports_personality": false},
    ]);
    assert_success(
        &run(&["models", "--model-catalog", arg(&catalog), "--json"]),
        &(serde_json::to_string_pretty(&expected).expect("serializes") + "\n"),
    );
}
