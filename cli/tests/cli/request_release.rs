//! `request --codex-version 0.171`: the body shape of the 0.171.0 release, summarised (keys in
//! order, each input item's type, id shape, role and first line, the turn metadata) for a
//! Lite model and a non-Lite one; 0.149 (the default) keeps its own shape.

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::PINS;
use crate::support::arg;
use crate::support::run;

/// `request` in a fresh CODEX_HOME and project, every pin set, under the `codex exec` surface.
fn request(extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).expect("mkdir home");
    std::fs::create_dir_all(&project).expect("mkdir project");
    let mut args = vec![
        "request",
        "--surface",
        "exec",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(&project),
        "--message",
        "hello",
    ];
    args.extend_from_slice(&PINS);
    args.extend_from_slice(extra);
    let run = run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    let text = run
        .stdout
        .replace(&dir.path().display().to_string(), "<TMP>");
    serde_json::from_str(&text).expect("stdout is a JSON body")
}

/// An id as its prefix and UUID version (`msg_<v7>`), or `-`.
fn id_shape(item: &Value) -> String {
    let Some(id) = item.get("id").and_then(Value::as_str) else {
        return "-".to_string();
    };
    let (prefix, uuid) = id.split_once('_').expect("prefixed id");
    let version = uuid::Uuid::parse_str(uuid).expect("uuid").get_version_num();
    format!("{prefix}_<v{version}>")
}

/// The body as reviewable text: keys in order, one line per input item, the turn metadata.
fn summary(body: &Value) -> String {
    let mut lines = vec![format!(
        "keys: {}",
        body.as_object()
            .expect("object")
            .keys()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    )];
    for (index, item) in body["input"].as_array().expect("input").iter().enumerate() {
        let first_line = item["content"]
            .as_array()
            .and_then(|content| content.first())
            .and_then(|part| part["text"].as_str())
            .map(|text| {
                text.lines()
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .take(50)
                    .collect()
            })
            .unwrap_or_else(|| format!("{} tools", item["tools"].as_array().map_or(0, Vec::len)));
        lines.push(format!(
            "input[{index}]: {} {} {} | {first_line}",
            item["type"].as_str().unwrap_or_default(),
            id_shape(item),
            item["role"].as_str().unwrap_or_default(),
        ));
    }
    let metadata: Value = serde_json::from_str(
        body["client_metadata"]["x-codex-turn-metadata"]
            .as_str()
            .expect("turn metadata"),
    )
    .expect("turn metadata JSON");
    lines.push(format!(
        "turn metadata: {}",
        serde_json::to_string_pretty(&metadata).expect("json")
    ));
    lines.join("\n")
}

#[test]
fn release_0_171_sends_base_instructions_as_the_first_developer_message() {
    let body = request(&["--codex-version", "0.171", "--model", "gpt-5.5"]);
    insta::assert_snapshot!("non_lite_0_171", summary(&body));
}

#[test]
fn release_0_171_lite_body_starts_with_the_recorded_items_with_ids() {
    let body = request(&["--codex-version", "0.171", "--model", "gpt-5.6-sol"]);
    insta::assert_snapshot!("lite_0_171", summary(&body));
}

#[test]
fn release_0_149_keeps_the_instructions_field_and_stream_after_store() {
    let body = request(&["--model", "gpt-5.5"]);
    let keys: Vec<&str> = body
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "model",
            "instructions",
            "input",
            "tools",
            "tool_choice",
            "parallel_tool_calls",
            "reasoning",
            "store",
            "stream",
            "include",
            "prompt_cache_key",
            "text",
            "client_metadata",
        ]
    );
}
