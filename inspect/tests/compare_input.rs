//! Loading `compare` inputs: each kind is recognised from its contents; bad input is one error
//! naming the input.

#![allow(clippy::expect_used)]

mod compare_support;

use std::fs;

use codex_inspect::CompareError;
use codex_inspect::InputKind;
use codex_inspect::InspectOptions;
use codex_inspect::load_compare_input;
use codex_inspect::parse_compare_input;
use compare_support::catalog;
use compare_support::request_body;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

fn numbered(number: u64) -> Value {
    json!({"input": [], "request_number": number})
}

fn numbers(requests: &[Value]) -> Vec<u64> {
    requests
        .iter()
        .map(|request| request["request_number"].as_u64().expect("numbered"))
        .collect()
}

#[test]
fn a_pretty_printed_request_body_is_one_request() {
    let text = serde_json::to_string_pretty(&request_body()).expect("serializes");

    let input = parse_compare_input("request-01.json", &text, &InspectOptions::new(&catalog()))
        .expect("loads");

    assert_eq!(
        (input.kind, input.requests, input.rollout),
        (InputKind::RequestBody, vec![request_body()], None)
    );
}

#[test]
fn a_folder_holds_requests_in_the_order_of_their_numbers() {
    let folder = tempfile::tempdir().expect("tempdir");
    for number in [10, 2, 1] {
        fs::write(
            folder.path().join(format!("request-{number:02}.json")),
            numbered(number).to_string(),
        )
        .expect("write");
    }
    fs::write(folder.path().join("SCENARIO.md"), "# notes").expect("write");
    fs::write(folder.path().join("rollout-1.jsonl"), "not read").expect("write");

    let input = load_compare_input(folder.path(), &InspectOptions::new(&catalog())).expect("loads");

    assert_eq!(
        (input.kind, numbers(&input.requests)),
        (InputKind::RequestFolder, vec![1, 2, 10])
    );
}

#[test]
fn json_lines_hold_one_request_per_line() {
    let text = format!("{}\n\n{}\n", numbered(1), numbered(2));

    let input = parse_compare_input("session.jsonl", &text, &InspectOptions::new(&catalog()))
        .expect("loads");

    assert_eq!(
        (input.kind, numbers(&input.requests)),
        (InputKind::RequestLines, vec![1, 2])
    );
}

#[test]
fn bad_inputs_are_one_line_errors_naming_the_input() {
    let folder = tempfile::tempdir().expect("tempdir");
    let missing = folder.path().join("missing.json");
    let cases: Vec<(Result<_, CompareError>, String)> = vec![
        (
            load_compare_input(&missing, &InspectOptions::new(&catalog())),
            format!(
                "cannot read {}: No such file or directory (os error 2)",
                missing.display()
            ),
        ),
        (
            load_compare_input(folder.path(), &InspectOptions::new(&catalog())),
            format!(
                "{}: folder holds no request-NN.json files",
                folder.path().display()
            ),
        ),
        (
            parse_compare_input("a.json", "{\n  \"input\": [\n    1,\n  ]\n}", &InspectOptions::new(&catalog())),
            "invalid JSON in a.json at line 4 column 3: trailing comma".to_string(),
        ),
        (
            parse_compare_input("a.jsonl", "{\"input\": []}\n{\"input\": []}\n{\"input\": ]}\n", &InspectOptions::new(&catalog())),
            "invalid JSON in a.jsonl at line 3 column 11: expected value".to_string(),
        ),
        (
            parse_compare_input("a.jsonl", "{\"input\": []}\n{\"model\": \"x\"}\n", &InspectOptions::new(&catalog())),
            "a.jsonl line 2: not a request body like the lines before it".to_string(),
        ),
        (
            parse_compare_input("a.json", "{\"model\": \"x\"}", &InspectOptions::new(&catalog())),
            "a.json: not a request body, a folder of request-NN.json files, JSON lines of requests or a rollout".to_string(),
        ),
        (
            parse_compare_input("a.json", "", &InspectOptions::new(&catalog())),
            "invalid JSON in a.json at line 1 column 0: EOF while parsing a value".to_string(),
        ),
    ];

    let (actual, expected): (Vec<String>, Vec<String>) = cases
        .into_iter()
        .map(|(result, expected)| (result.expect_err("bad input").to_string(), expected))
        .unzip();
    assert_eq!(actual, expected);
}

#[test]
fn a_folder_with_an_invalid_request_names_the_file() {
    let folder = tempfile::tempdir().expect("tempdir");
    let path = folder.path().join("request-01.json");
    fs::write(&path, "{\"input\": [}").expect("write");

    let error =
        load_compare_input(folder.path(), &InspectOptions::new(&catalog())).expect_err("invalid");

    assert_eq!(
        error.to_string(),
        format!(
            "invalid JSON in {} at line 1 column 12: expected value",
            path.display()
        )
    );
}
