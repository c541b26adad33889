use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn edit_error(value: Value) -> String {
    match parse_edits(&value, "script.json: turns[1].edit") {
        Ok(edits) => panic!("parsed: {edits:?}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn edits_parse_one_entry_or_many() {
    assert_eq!(
        parse_edits(
            &json!([{"codex_home": "AGENTS.md", "write": "text"}, {"cwd": "a/b.md", "delete": true}]),
            "s: turns[1].edit",
        )
        .expect("parses"),
        vec![
            FileEdit {
                root: EditRoot::CodexHome,
                path: PathBuf::from("AGENTS.md"),
                change: FileChange::Write("text".to_string()),
                location: "s: turns[1].edit[0]".to_string(),
            },
            FileEdit {
                root: EditRoot::Cwd,
                path: PathBuf::from("a/b.md"),
                change: FileChange::Delete,
                location: "s: turns[1].edit[1]".to_string(),
            },
        ]
    );
}

#[test]
fn edit_paths_never_leave_their_folder() {
    assert_eq!(
        edit_error(json!({"cwd": "../AGENTS.md", "write": "x"})),
        "script.json: turns[1].edit.cwd: \"../AGENTS.md\" leaves the folder: give a relative path without \"..\""
    );
    assert_eq!(
        edit_error(json!([{"codex_home": "/etc/passwd", "delete": true}])),
        "script.json: turns[1].edit[0].codex_home: \"/etc/passwd\" leaves the folder: give a relative path without \"..\""
    );
    assert_eq!(
        edit_error(json!({"cwd": "a", "codex_home": "b", "delete": true})),
        "script.json: turns[1].edit: names its file with exactly one of \"cwd\" or \"codex_home\""
    );
    assert_eq!(
        edit_error(json!({"cwd": "a", "write": "x", "delete": true})),
        "script.json: turns[1].edit: needs exactly one of \"write\": \"text\" or \"delete\": true"
    );
    assert_eq!(
        edit_error(json!({"cwd": "a", "wirte": "x"})),
        "script.json: turns[1].edit: unknown key \"wirte\" (expected one of: cwd, codex_home, write, delete)"
    );
}

#[test]
fn an_edit_through_a_link_out_of_the_copy_is_refused() {
    let outside = tempfile::tempdir().expect("temp");
    let copy = tempfile::tempdir().expect("temp");
    let edit = |path: &str| FileEdit {
        root: EditRoot::Cwd,
        path: PathBuf::from(path),
        change: FileChange::Write("new".to_string()),
        location: "s: turns[1].edit".to_string(),
    };
    edit("sub/AGENTS.md")
        .apply(copy.path(), copy.path())
        .expect("inside");
    assert_eq!(
        std::fs::read_to_string(copy.path().join("sub/AGENTS.md")).expect("written"),
        "new"
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), copy.path().join("link")).expect("link");
        let error = edit("link/AGENTS.md")
            .apply(copy.path(), copy.path())
            .expect_err("refused");
        assert!(
            error
                .to_string()
                .ends_with("is outside the run's copy of the scenario folder"),
            "{error}"
        );
        assert!(!outside.path().join("AGENTS.md").exists());
    }
}

fn line(text: Value) -> RolloutLine {
    serde_json::from_value(text).expect("line")
}

#[test]
fn a_world_state_section_is_dropped_from_every_line() {
    let mut lines = vec![
        line(
            json!({"timestamp": "t", "type": "world_state", "payload": {"full": true, "state": {"agents_md": {"text": "a"}, "cwd": "x"}}}),
        ),
        line(
            json!({"timestamp": "t", "type": "world_state", "payload": {"full": false, "state": {"cwd": "y"}}}),
        ),
    ];
    RolloutRewrite::DropWorldStateSection("agents_md".to_string())
        .apply(&mut lines, "s")
        .expect("dropped");
    assert_eq!(
        serde_json::to_value(&lines[0]).expect("json")["payload"]["state"],
        json!({"cwd": "x"})
    );
    assert_eq!(
        RolloutRewrite::DropWorldStateSection("agents_md".to_string())
            .apply(&mut lines, "s: turns[1].rewrite_rollout")
            .expect_err("nothing to drop")
            .to_string(),
        "s: turns[1].rewrite_rollout: no world_state line holds the section \"agents_md\""
    );
}

#[test]
fn the_nth_compacted_checkpoint_is_replaced() {
    let compacted = |message: &str| {
        line(
            json!({"timestamp": "t", "type": "compacted", "payload": {"message": message, "replacement_history": []}}),
        )
    };
    let mut lines = vec![compacted("first"), compacted("second")];
    let rewrite = parse_rewrites(
        &json!({"compacted": 1, "set": {"replacement_history_metadata": [{"client_authored": false}]}}),
        "s",
    )
    .expect("parses");
    rewrite[0].apply(&mut lines, "s").expect("replaced");
    let payload = |line: &RolloutLine| serde_json::to_value(line).expect("json")["payload"].clone();
    assert_eq!(payload(&lines[0]).get("replacement_history_metadata"), None);
    assert_eq!(
        payload(&lines[1])["replacement_history_metadata"],
        json!([{"client_authored": false}])
    );
    assert_eq!(
        RolloutRewrite::ReplaceCompacted {
            nth: 2,
            fields: Map::new()
        }
        .apply(&mut lines, "s")
        .expect_err("no third")
        .to_string(),
        "s: the thread has 2 compacted lines, not 3"
    );
}
