//! A template that names a variable nothing defines, in a `--prompts-dir` overlay or in a
//! catalog file: one error naming the template and the variable, worded the same both ways.

use pretty_assertions::assert_eq;
use serde_json::json;

use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::catalog_entry;
use crate::support::run;
use crate::support::write;
use crate::support::write_catalog;

const STRAY: &str = "`{{ unknown_var }}`, which nothing defines (it is given: personality)";

#[test]
fn an_overlay_template_with_an_undefined_variable_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let overlay = write(
        dir.path(),
        "prompts/base_instructions/gpt-5.md",
        "You are a coding agent. {{ unknown_var }}\n\n{{ personality }}\n",
    );
    let prompts = dir.path().join("prompts");
    let message = format!("template {} uses {STRAY}", overlay.display());
    for args in [
        vec![
            "instructions",
            "--model",
            "gpt-5.2",
            "--prompts-dir",
            arg(&prompts),
        ],
        vec![
            "request",
            "--model",
            "gpt-5.2",
            "--prompts-dir",
            arg(&prompts),
        ],
    ] {
        assert_user_error(&run(&args), &message);
    }
}

#[test]
fn a_catalog_template_with_an_undefined_variable_is_named_the_same_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = write_catalog(
        dir.path(),
        vec![catalog_entry(
            "stray-model",
            1,
            json!({"model_messages": {
                "instructions_template": "You are a coding agent. {{ unknown_var }}\n\n{{ personality }}",
                "instructions_variables": {
                    "personality_default": "",
                    "personality_friendly": "Warm.",
                    "personality_pragmatic": "Direct.",
                },
            }}),
        )],
    );
    let message = format!(
        "template `model_messages.instructions_template` of model `stray-model` in model catalog \
         {} uses {STRAY}",
        catalog.display()
    );
    for args in [
        vec![
            "instructions",
            "--model",
            "stray-model",
            "--model-catalog",
            arg(&catalog),
        ],
        vec!["models", "--model-catalog", arg(&catalog)],
    ] {
        assert_user_error(&run(&args), &message);
    }
    // The same catalog without the stray placeholder renders with the personality filled in.
    let fixed = std::fs::read_to_string(&catalog)
        .expect("catalog")
        .replace(" {{ unknown_var }}", "");
    let fixed = write(dir.path(), "fixed.json", &fixed);
    let rendered = run(&[
        "instructions",
        "--model",
        "stray-model",
        "--personality",
        "friendly",
        "--model-catalog",
        arg(&fixed),
    ]);
    assert_eq!(
        (
            rendered.code,
            rendered.stdout.as_str(),
            rendered.stderr.as_str()
        ),
        (Some(0), "You are a coding agent.\n\nWarm.", "")
    );
}
