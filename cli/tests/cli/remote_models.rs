//! `remote_models`: a provider's `/models` answer merged into the catalog in use, from
//! config.toml, `-c` or a session script.

use crate::support::PINS;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::catalog_entry;
use crate::support::run;
use crate::support::write;

/// A served model with its own template and personality texts.
fn served_models() -> String {
    let entry = catalog_entry(
        "served-model",
        1,
        serde_json::json!({
            "model_messages": {
                "instructions_template": "Served base.\n{{ personality }}\n",
                "instructions_variables": {
                    "personality_default": "Served default style.",
                    "personality_friendly": "Served friendly style.",
                    "personality_pragmatic": "Served pragmatic style."
                }
            }
        }),
    );
    serde_json::to_string_pretty(&serde_json::json!({ "models": [entry] })).expect("serializes")
}

#[test]
fn config_toml_remote_models_serve_the_first_turn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".git")).expect("mkdir project");
    write(&home, "served.json", &served_models());
    write(
        &home,
        "config.toml",
        "remote_models = \"served.json\"\nmodel = \"served-model\"\npersonality = \"friendly\"\n\n[features]\npersonality = true\n",
    );
    let mut args = vec![
        "request",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(&project),
        "--message",
        "hello",
    ];
    args.extend_from_slice(&PINS);
    let run = run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let body: serde_json::Value = serde_json::from_str(&run.stdout).expect("a request body");
    let root = dir.path().to_str().expect("utf-8 temp dir");
    let shown = format!(
        "model: {}\ninstructions: {}\n{}",
        body["model"],
        body["instructions"],
        crate::support::message_blocks(&body)
            .into_iter()
            .filter(|block| block.starts_with("user: "))
            .collect::<Vec<_>>()
            .join("\n")
    );
    insta::assert_snapshot!(shown.replace(root, "<TMP>"));
}

#[test]
fn a_script_names_the_models_its_endpoint_serves() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "served.json", &served_models());
    std::fs::create_dir_all(dir.path().join("work")).expect("mkdir work");
    let script = write(
        dir.path(),
        "script.json",
        r#"{"session": {"codex_version": "0.149", "cwd": "work", "remote_models": "served.json",
            "model": "served-model", "features": {"personality": true},
            "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 3},
           "turns": [{"user": "hello"}, {"set": {"personality": "friendly"}, "user": "again"}]}"#,
    );
    let run = run(&["session", "run", arg(&script)]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let bodies: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a request line"))
        .collect();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["model"], "served-model");
    assert_eq!(
        bodies[0]["instructions"],
        "Served base.\nServed pragmatic style.\n"
    );
    // The second turn's change of personality is stated in the served model's words.
    let second = crate::support::message_blocks(&bodies[1]).join("\n");
    assert!(second.contains("Served friendly style."), "{second}");
}

#[test]
fn a_missing_remote_models_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("absent.json");
    let setting = format!("remote_models={}", missing.display());
    let mut args = vec!["request", "--cwd", arg(dir.path()), "-c", &setting];
    args.extend_from_slice(&PINS);
    assert_user_error(
        &run(&args),
        &format!(
            "invalid remote_models {0}: failed to read model catalog {0}: No such file or directory (os error 2)",
            missing.display()
        ),
    );
}

/// Records a one-turn session on the served model; returns the rollout.
fn served_session(dir: &std::path::Path) -> std::path::PathBuf {
    write(dir, "served.json", &served_models());
    std::fs::create_dir_all(dir.join("work")).expect("mkdir work");
    let script = write(
        dir,
        "script.json",
        r#"{"session": {"codex_version": "0.149", "cwd": "work", "remote_models": "served.json",
            "model": "served-model", "features": {"personality": true},
            "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 3},
           "turns": [{"user": "hello", "assistant": "hi"}]}"#,
    );
    let rollout = dir.join("served.jsonl");
    let recorded = run(&["session", "run", arg(&script), "--rollout", arg(&rollout)]);
    assert_eq!((recorded.code, recorded.stderr.as_str()), (Some(0), ""));
    rollout
}

#[test]
fn inspect_and_models_take_the_served_models_with_remote_models() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = served_session(dir.path());
    let served = dir.path().join("served.json");
    let without = run(&["inspect", arg(&rollout)]);
    assert_eq!(
        (without.code, without.stderr.as_str()),
        (
            Some(0),
            "codex-context: warning: model `served-model` is not in the catalog, so fallback model metadata is used\n"
        )
    );
    let inspected = run(&["inspect", arg(&rollout), "--remote-models", arg(&served)]);
    assert_eq!((inspected.code, inspected.stderr.as_str()), (Some(0), ""));
    // The report's head: the model's instructions and tools come from the served entry (the
    // items below count tokens of the temporary folder's path, which differs run to run).
    let head: Vec<&str> = inspected.stdout.lines().take(7).collect();
    insta::assert_snapshot!("inspect_with_remote_models", head.join("\n"));
    let listed = run(&["models", "--remote-models", arg(&served)]);
    assert_eq!((listed.code, listed.stderr.as_str()), (Some(0), ""));
    insta::assert_snapshot!("models_with_remote_models", listed.stdout);
}

#[test]
fn session_resume_merges_config_toml_remote_models() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = served_session(dir.path());
    let home = dir.path().join("home");
    write(&home, "served.json", &served_models());
    write(&home, "config.toml", "remote_models = \"served.json\"\n");
    let resumed = run(&[
        "session",
        "resume",
        arg(&rollout),
        "--codex-home",
        arg(&home),
        "--user",
        "again",
        "--set",
        "personality=\"friendly\"",
        "--set",
        "current_date=\"2026-11-30\"",
        "--set",
        "timezone=\"Etc/UTC\"",
    ]);
    assert_eq!((resumed.code, resumed.stderr.as_str()), (Some(0), ""));
    let body: serde_json::Value = serde_json::from_str(&resumed.stdout).expect("a request body");
    let root = dir.path().to_str().expect("utf-8 temp dir");
    // The change of personality is stated in the served model's words, not the fallback's.
    let blocks = crate::support::message_blocks(&body);
    let first_turn = blocks
        .iter()
        .position(|block| block == "user: hello")
        .expect("the recorded first turn");
    insta::assert_snapshot!(
        "session_resume_with_config_remote_models",
        blocks[first_turn..].join("\n").replace(root, "<TMP>")
    );
}
