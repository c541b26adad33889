//! Every kind of bad input ends with exit code 2 and one line on stderr that names the input.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::run_with_stdin;
use crate::support::write;

/// The operating system's text for reading a path that does not exist.
fn not_found(path: &Path) -> String {
    std::fs::read(path)
        .expect_err("the path does not exist")
        .to_string()
}

/// Invalid on line 3: the value after `"b":` is missing.
const BROKEN_JSON: &str = "{\n  \"a\": 1,\n  \"b\": ,\n}\n";
const BROKEN_JSON_ERROR: &str = "expected value at line 3 column 8";

#[test]
fn missing_json_inputs_are_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let present = write(dir.path(), "present.json", "{}");
    let missing = dir.path().join("missing.json");
    let message = format!("cannot read {}: {}", missing.display(), not_found(&missing));
    for args in [
        ["merge-patch", "apply", arg(&missing), arg(&present)],
        ["merge-patch", "apply", arg(&present), arg(&missing)],
        ["merge-patch", "diff", arg(&missing), arg(&present)],
        ["merge-patch", "diff", arg(&present), arg(&missing)],
    ] {
        assert_user_error(&run(&args), &message);
    }
}

#[test]
fn missing_fingerprint_file_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("fragment.txt");
    assert_user_error(
        &run(&["fingerprint", "--role", "user", "--file", arg(&missing)]),
        &format!("cannot read {}: {}", missing.display(), not_found(&missing)),
    );
}

#[test]
fn missing_catalog_file_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("models.json");
    let message = format!(
        "failed to read model catalog {}: {}",
        missing.display(),
        not_found(&missing)
    );
    assert_user_error(
        &run(&["models", "--model-catalog", arg(&missing)]),
        &message,
    );
    assert_user_error(
        &run(&[
            "instructions",
            "--model",
            "gpt-5.5",
            "--model-catalog",
            arg(&missing),
        ]),
        &message,
    );
}

#[test]
fn missing_prompts_dir_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("prompts");
    assert_user_error(
        &run(&[
            "instructions",
            "--model",
            "gpt-5.5",
            "--prompts-dir",
            arg(&missing),
        ]),
        &format!(
            "cannot read prompts directory {}: {}",
            missing.display(),
            not_found(&missing)
        ),
    );
}

#[test]
fn invalid_json_inputs_report_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let valid = write(dir.path(), "valid.json", "{}");
    let broken = write(dir.path(), "broken.json", BROKEN_JSON);
    let message = format!("invalid JSON in {}: {BROKEN_JSON_ERROR}", broken.display());
    for args in [
        ["merge-patch", "apply", arg(&broken), arg(&valid)],
        ["merge-patch", "apply", arg(&valid), arg(&broken)],
        ["merge-patch", "diff", arg(&broken), arg(&valid)],
        ["merge-patch", "diff", arg(&valid), arg(&broken)],
    ] {
        assert_user_error(&run(&args), &message);
    }
}

#[test]
fn invalid_json_on_standard_input_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let valid = write(dir.path(), "valid.json", "{}");
    assert_user_error(
        &run_with_stdin(
            &["merge-patch", "apply", "-", arg(&valid)],
            BROKEN_JSON.as_bytes(),
        ),
        &format!("invalid JSON in standard input: {BROKEN_JSON_ERROR}"),
    );
    assert_user_error(
        &run(&["merge-patch", "diff", arg(&valid), "-"]),
        "invalid JSON in standard input: EOF while parsing a value at line 1 column 0",
    );
}

#[test]
fn standard_input_can_feed_only_one_json_input() {
    assert_user_error(
        &run_with_stdin(&["merge-patch", "diff", "-", "-"], b"{}"),
        "only one JSON input can be `-` (standard input is read once)",
    );
}

#[test]
fn invalid_catalogs_report_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = write(dir.path(), "broken.json", BROKEN_JSON);
    assert_user_error(
        &run(&["models", "--model-catalog", arg(&broken)]),
        &format!(
            "invalid model catalog {}: {BROKEN_JSON_ERROR}",
            broken.display()
        ),
    );
    let wrong_shape = write(
        dir.path(),
        "shape.json",
        "{\"models\": [\n  {\"slug\": 5}\n]}",
    );
    assert_user_error(
        &run(&[
            "instructions",
            "--model",
            "x",
            "--model-catalog",
            arg(&wrong_shape),
        ]),
        &format!(
            "invalid model catalog {}: invalid catalog entry: invalid type: integer `5`, expected a string at line 3 column 2",
            wrong_shape.display()
        ),
    );
}

#[test]
fn unknown_personality_is_named() {
    assert_user_error(
        &run(&[
            "instructions",
            "--model",
            "gpt-5.5",
            "--personality",
            "cheerful",
        ]),
        "invalid --personality: unknown personality `cheerful` (expected one of: none, friendly, pragmatic)",
    );
}

#[test]
fn model_missing_from_the_catalog_is_named() {
    assert_user_error(
        &run(&["instructions", "--model", "o3"]),
        "model `o3` is not in the bundled model catalog",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = write(dir.path(), "models.json", r#"{"models": []}"#);
    assert_user_error(
        &run(&[
            "instructions",
            "--model",
            "gpt-5.5",
            "--model-catalog",
            arg(&catalog),
        ]),
        &format!(
            "model `gpt-5.5` is not in the model catalog {}",
            catalog.display()
        ),
    );
}

#[test]
fn non_utf8_fragment_file_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let binary = dir.path().join("binary.txt");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).expect("write");
    assert_user_error(
        &run(&["fingerprint", "--role", "user", "--file", arg(&binary)]),
        &format!("{} is not valid UTF-8", binary.display()),
    );
}

#[test]
fn usage_errors_exit_with_code_2() {
    for args in [
        vec!["bogus"],
        vec!["fingerprint", "--role", "user"],
        vec![
            "fingerprint",
            "--role",
            "user",
            "--text",
            "a",
            "--file",
            "b",
        ],
        vec!["merge-patch", "apply", "only-one.json"],
        vec!["instructions"],
        vec!["models", "--unknown-flag"],
    ] {
        let run = run(&args);
        assert_eq!(
            (
                run.code,
                run.stdout.as_str(),
                run.stderr.starts_with("error: ")
            ),
            (Some(2), "", true),
            "{args:?}: {}",
            run.stderr
        );
    }
}
