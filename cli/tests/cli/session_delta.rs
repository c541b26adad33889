//! `session run --format delta`: one line per request with what it adds to the one before.
//! Replaying the lines rebuilds every body `--format jsonl` prints, byte for byte; the
//! snapshots show the lines themselves (with the checkout's path, and the prefix lengths and
//! hashes that depend on it, replaced).

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Map;
use serde_json::Value;
use sha1::Digest as _;
use sha1::Sha1;

use crate::support::arg;
use crate::support::run;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate sits in the workspace")
        .join("examples")
        .join("sessions")
        .join(format!("{name}.json"))
}

/// The lines `session run SCRIPT --format FORMAT` prints, parsed.
fn printed(script: &Path, format: &str) -> Vec<Value> {
    let run = run(&["session", "run", arg(script), "--format", format]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{format}");
    run.stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Items as JSON lines: the bytes a shared prefix's length and hash cover.
fn json_lines(items: &[Value]) -> Vec<u8> {
    let mut text = Vec::new();
    for item in items {
        serde_json::to_writer(&mut text, item).expect("serializes");
        text.push(b'\n');
    }
    text
}

fn sha1_hex(bytes: &[u8]) -> String {
    Sha1::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Applies each delta line to the body before it and checks the result is the full body, and
/// that each shared prefix's length and hash are those of the previous input's leading items.
fn check_replay(deltas: &[Value], bodies: &[Value]) {
    assert_eq!(deltas.len(), bodies.len());
    let mut input: Vec<Value> = Vec::new();
    let mut fields: Map<String, Value> = Map::new();
    for (number, (delta, body)) in deltas.iter().zip(bodies).enumerate() {
        assert_eq!(delta["request"], number + 1);
        let shared = delta["shared_prefix"]["items"].as_u64().expect("items") as usize;
        let body_input = body["input"].as_array().expect("input");
        let common = input
            .iter()
            .zip(body_input)
            .take_while(|(before, now)| before == now)
            .count();
        assert_eq!(shared, common, "request {}", number + 1);
        let previous_kind = delta["previous_input"]["kind"].as_str().expect("kind");
        let expected_kind = match (number, shared == input.len()) {
            (0, _) => "none",
            (_, true) => "extended",
            (_, false) => "rewritten",
        };
        assert_eq!(previous_kind, expected_kind, "request {}", number + 1);
        if previous_kind == "rewritten" {
            assert_eq!(
                delta["previous_input"]["replaced_items"],
                input.len() - shared
            );
        }
        let prefix = json_lines(&input[..shared]);
        assert_eq!(
            (
                delta["shared_prefix"]["bytes"].as_u64(),
                delta["shared_prefix"]["sha1"].as_str()
            ),
            (Some(prefix.len() as u64), Some(sha1_hex(&prefix).as_str())),
            "request {}",
            number + 1
        );
        input.truncate(shared);
        input.extend(delta["new_items"].as_array().expect("new_items").clone());
        for (key, value) in delta["fields"].as_object().expect("fields") {
            fields.insert(key.clone(), value.clone());
        }
        if let Some(removed) = delta.get("removed_fields") {
            for key in removed.as_array().expect("removed_fields") {
                fields.shift_remove(key.as_str().expect("a key"));
            }
        }
        let mut rebuilt = fields.clone();
        rebuilt.insert("input".to_string(), Value::Array(input.clone()));
        let mut expected = body.as_object().expect("a body").clone();
        // Key order aside (the body writes `input` third), the rebuilt body is the body.
        expected.sort_keys();
        rebuilt.sort_keys();
        assert_eq!(Value::Object(rebuilt), Value::Object(expected));
    }
}

/// The delta lines as reviewed: pretty-printed, the checkout's path as `<WORKSPACE>`, the
/// prefix lengths and hashes (which cover that path; [`check_replay`] checks them) and the
/// first request's base instructions and tools as placeholders.
fn reviewed(deltas: &[Value]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .display()
        .to_string();
    let mut out = String::new();
    for delta in deltas {
        let mut delta = delta.clone();
        delta["shared_prefix"]["bytes"] = Value::from("<BYTES>");
        delta["shared_prefix"]["sha1"] = Value::from("<SHA1>");
        if let Some(fields) = delta["fields"].as_object_mut() {
            if fields.contains_key("instructions") {
                fields.insert("instructions".into(), Value::from("<BASE_INSTRUCTIONS>"));
            }
            if let Some(Value::Array(tools)) = fields.get("tools") {
                let names: Vec<Value> = tools
                    .iter()
                    .map(|tool| {
                        tool.get("name")
                            .or(tool.get("type"))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .collect();
                fields.insert("tools".into(), Value::Array(names));
            }
        }
        let text = serde_json::to_string_pretty(&delta).expect("serializes");
        out.push_str(&text.replace(&root, "<WORKSPACE>"));
        out.push('\n');
    }
    out
}

#[test]
fn delta_lines_rebuild_every_body_of_a_compacted_session() {
    let script = example("compaction");
    let deltas = printed(&script, "delta");
    check_replay(&deltas, &printed(&script, "jsonl"));
    insta::assert_snapshot!("delta_compaction", reviewed(&deltas));
}

#[test]
fn delta_lines_rebuild_every_body_of_a_resumed_session_that_switched_models() {
    let script = example("resume_after_model_change");
    let deltas = printed(&script, "delta");
    check_replay(&deltas, &printed(&script, "jsonl"));
    insta::assert_snapshot!("delta_resume_after_model_change", reviewed(&deltas));
}
