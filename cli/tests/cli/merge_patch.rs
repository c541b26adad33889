use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::support::arg;
use crate::support::assert_success;
use crate::support::run;
use crate::support::run_with_stdin;
use crate::support::write;

/// RFC 7386 appendix A: (original, patch, result).
fn rfc7386_vectors() -> Vec<(Value, Value, Value)> {
    vec![
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (
            json!({"a": "b"}),
            json!({"b": "c"}),
            json!({"a": "b", "b": "c"}),
        ),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (
            json!({"a": "b", "b": "c"}),
            json!({"a": null}),
            json!({"b": "c"}),
        ),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
        (
            json!({"a": {"b": "c"}}),
            json!({"a": {"b": "d", "c": null}}),
            json!({"a": {"b": "d"}}),
        ),
        (
            json!({"a": [{"b": "c"}]}),
            json!({"a": [1]}),
            json!({"a": [1]}),
        ),
        (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
        (json!({"a": "b"}), json!(["c"]), json!(["c"])),
        (json!({"a": "foo"}), json!(null), json!(null)),
        (json!({"a": "foo"}), json!("bar"), json!("bar")),
        (
            json!({"e": null}),
            json!({"a": 1}),
            json!({"e": null, "a": 1}),
        ),
        (
            json!([1, 2]),
            json!({"a": "b", "c": null}),
            json!({"a": "b"}),
        ),
        (
            json!({}),
            json!({"a": {"bb": {"ccc": null}}}),
            json!({"a": {"bb": {}}}),
        ),
    ]
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("serializes") + "\n"
}

fn write_json(dir: &std::path::Path, name: &str, value: &Value) -> std::path::PathBuf {
    write(dir, name, &pretty(value))
}

#[test]
fn apply_reproduces_every_rfc7386_vector() {
    let vectors = rfc7386_vectors();
    assert_eq!(vectors.len(), 15);
    let dir = tempfile::tempdir().expect("tempdir");
    for (index, (original, patch, result)) in vectors.iter().enumerate() {
        let original = write_json(dir.path(), &format!("{index}-doc.json"), original);
        let patch = write_json(dir.path(), &format!("{index}-patch.json"), patch);
        assert_success(
            &run(&["merge-patch", "apply", arg(&original), arg(&patch)]),
            &pretty(result),
        );
    }
}

#[test]
fn diff_then_apply_round_trips_every_rfc7386_vector() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (index, (original, _, result)) in rfc7386_vectors().iter().enumerate() {
        let original_path = write_json(dir.path(), &format!("{index}-doc.json"), original);
        let result_path = write_json(dir.path(), &format!("{index}-result.json"), result);
        let diff = run(&[
            "merge-patch",
            "diff",
            arg(&original_path),
            arg(&result_path),
        ]);
        assert_eq!((diff.code, diff.stderr.as_str()), (Some(0), ""));
        let patch_path = write(dir.path(), &format!("{index}-diff.json"), &diff.stdout);
        let applied = run(&[
            "merge-patch",
            "apply",
            arg(&original_path),
            arg(&patch_path),
        ]);
        assert_eq!(applied.code, Some(0));
        let applied: Value = serde_json::from_str(&applied.stdout).expect("apply prints JSON");
        assert_eq!(&applied, result, "vector {index}");
    }
}

#[test]
fn diff_prints_removals_then_changes_in_document_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let previous = write_json(
        dir.path(),
        "prev.json",
        &json!({"z": 1, "keep": {"x": 1, "y": 2}, "b": true}),
    );
    let current = write_json(
        dir.path(),
        "curr.json",
        &json!({"keep": {"x": 1, "y": 3}, "new": [1]}),
    );
    assert_success(
        &run(&["merge-patch", "diff", arg(&previous), arg(&current)]),
        "{\n  \"z\": null,\n  \"b\": null,\n  \"keep\": {\n    \"y\": 3\n  },\n  \"new\": [\n    1\n  ]\n}\n",
    );
}

#[test]
fn diff_of_equal_documents_is_the_literal_null() {
    let dir = tempfile::tempdir().expect("tempdir");
    let previous = write(dir.path(), "prev.json", r#"{"a": {"b": [1, 2]}}"#);
    let current = write(dir.path(), "curr.json", "{ \"a\" : { \"b\" : [1,2] } }\n");
    assert_success(
        &run(&["merge-patch", "diff", arg(&previous), arg(&current)]),
        "null\n",
    );
}

#[test]
fn dash_reads_either_input_from_standard_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let patch = write(dir.path(), "patch.json", r#"{"a": null, "c": 3}"#);
    assert_success(
        &run_with_stdin(
            &["merge-patch", "apply", "-", arg(&patch)],
            br#"{"a": 1, "b": 2}"#,
        ),
        "{\n  \"b\": 2,\n  \"c\": 3\n}\n",
    );
    let previous = write(dir.path(), "prev.json", r#"{"a": 1}"#);
    assert_success(
        &run_with_stdin(
            &["merge-patch", "diff", arg(&previous), "-"],
            br#"{"a": 2}"#,
        ),
        "{\n  \"a\": 2\n}\n",
    );
}
