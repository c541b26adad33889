//! Input files that are not regular files, and working directories that do not exist: a
//! one-line error naming them (exit code 2), or a warning when the rest can still be used;
//! never a hang. Every run has a deadline, so a regression fails instead of blocking.

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::bounded::mkfifo;
use crate::bounded::run_in;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::write;

const PINS: [&str; 8] = [
    "--current-date",
    "2026-11-30",
    "--timezone",
    "Etc/UTC",
    "--shell",
    "bash",
    "--seed",
    "1",
];

/// `request` in `dir` with an empty CODEX_HOME, the pins and `extra`.
fn request(dir: &Path, extra: &[&str]) -> crate::support::Run {
    let empty_home = dir.join("empty-home");
    std::fs::create_dir_all(&empty_home).expect("home");
    let mut args = vec![
        "request",
        "--codex-home",
        arg(&empty_home),
        "--message",
        "hi",
    ];
    args.extend(PINS);
    args.extend(extra);
    run_in(dir, &args)
}

#[test]
fn a_named_pipe_is_refused_wherever_a_file_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("home");
    let config = home.join("config.toml");
    mkfifo(&config);
    let pipe = arg(&fifo);
    let refused = |path: &Path| format!("{}: not a regular file (a named pipe)", path.display());
    let instructions = format!("model_instructions_file={pipe}");
    let script = write(
        dir.path(),
        "script.json",
        r#"{"turns": [{"user": "a", "assistant": "b"}]}"#,
    );
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["request", "--codex-home", arg(&home)],
            format!("cannot read {}", refused(&config)),
        ),
        (
            vec!["request", "--model-catalog", pipe],
            format!("failed to read model catalog {}", refused(&fifo)),
        ),
        (
            vec!["models", "--model-catalog", pipe],
            format!("failed to read model catalog {}", refused(&fifo)),
        ),
        (
            vec!["request", "-c", &instructions],
            format!(
                "cannot read model_instructions_file file {}",
                refused(&fifo)
            ),
        ),
        (
            vec!["session", "run", pipe],
            format!("cannot read {}", refused(&fifo)),
        ),
        (
            vec!["session", "run", arg(&script), "--codex-home", arg(&home)],
            format!(
                "{}: turns[0]: cannot read {}",
                script.display(),
                refused(&config)
            ),
        ),
        (
            vec!["inspect", pipe],
            format!(
                "cannot inspect {pipe}: cannot read rollout {}",
                refused(&fifo)
            ),
        ),
        (
            vec!["session", "resume", pipe, "--user", "x"],
            format!("cannot read rollout {}", refused(&fifo)),
        ),
        (
            vec!["session", "fork", pipe, "--user", "x"],
            format!("cannot read rollout {}", refused(&fifo)),
        ),
        (
            vec!["compare", pipe, pipe],
            format!("cannot read {}", refused(&fifo)),
        ),
        (
            vec!["fingerprint", "--role", "user", "--file", pipe],
            format!("cannot read {}", refused(&fifo)),
        ),
        (
            vec!["merge-patch", "diff", pipe, pipe],
            format!("cannot read {}", refused(&fifo)),
        ),
    ];
    for (args, message) in cases {
        let run = run_in(dir.path(), &args);
        assert_user_error(&run, &message);
    }
}

#[test]
fn named_pipes_among_templates_and_agents_md_are_skipped_with_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join("project");
    write(&project, "AGENTS.md", "the project's doc");
    mkfifo(&project.join("AGENTS.override.md"));
    let prompts = dir.path().join("prompts");
    std::fs::create_dir(&prompts).expect("prompts");
    mkfifo(&prompts.join("pipe.md"));
    let run = request(
        dir.path(),
        &["--cwd", arg(&project), "--prompts-dir", arg(&prompts)],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(0),
            format!(
                "codex-context: warning: {} in the prompts directory is neither a file nor a \
                 directory and is ignored\ncodex-context: warning: Project doc skipped: `{}` is not \
                 a regular file.\n",
                prompts.join("pipe.md").display(),
                project.join("AGENTS.override.md").display()
            )
            .as_str()
        )
    );
    // The directory's other candidate is used in the pipe's place.
    assert_eq!(
        agents_md_text(&run.stdout),
        Some(format!(
            "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\nthe project's doc\n</INSTRUCTIONS>",
            project.display()
        ))
    );
}

/// Every text of the input items of a request body printed as JSON, in order.
pub fn input_texts(stdout: &str) -> Vec<String> {
    let body: Value = serde_json::from_str(stdout).expect("a JSON body");
    body["input"]
        .as_array()
        .expect("input")
        .iter()
        .flat_map(|item| item["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|content| content["text"].as_str().map(str::to_string))
        .collect()
}

/// The AGENTS.md instructions message of a request body.
fn agents_md_text(stdout: &str) -> Option<String> {
    input_texts(stdout)
        .into_iter()
        .find(|text| text.starts_with("# AGENTS.md instructions for "))
}

/// One AGENTS.md in a symlink loop used to make discovery drop every project doc, the root's
/// included; now only that candidate is left out, and the warning names it.
#[test]
fn an_agents_md_symlink_loop_costs_only_itself() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("repo");
    write(&root, ".git", "");
    write(&root, "AGENTS.md", "root doc");
    let looped = root.join("middle/AGENTS.md");
    std::fs::create_dir_all(root.join("middle")).expect("mkdir");
    std::os::unix::fs::symlink(&looped, &looped).expect("symlink");
    let leaf = root.join("middle/leaf");
    write(&leaf, "AGENTS.md", "leaf doc");
    let run = request(dir.path(), &["--cwd", arg(&leaf)]);
    let loop_error = std::fs::metadata(&looped).expect_err("a loop");
    assert_eq!(
        (run.code, run.stderr),
        (
            Some(0),
            format!(
                "codex-context: warning: Project doc skipped: cannot inspect `{}`: {loop_error}.\n",
                looped.display()
            )
        )
    );
    assert_eq!(
        agents_md_text(&run.stdout),
        Some(format!(
            "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\nroot doc\n\nleaf doc\n</INSTRUCTIONS>",
            leaf.display()
        ))
    );
}

#[test]
fn a_cwd_that_is_missing_or_not_a_directory_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing");
    let file = write(dir.path(), "passwd", "root:x:0:0");
    assert_user_error(
        &request(dir.path(), &["--cwd", arg(&missing)]),
        &format!(
            "invalid --cwd: working directory {} does not exist",
            missing.display()
        ),
    );
    assert_user_error(
        &request(dir.path(), &["--cwd", arg(&file)]),
        &format!(
            "invalid --cwd: working directory {} is not a directory",
            file.display()
        ),
    );
    assert_user_error(
        &run_in(dir.path(), &["explain", "--cwd", arg(&missing)]),
        &format!(
            "invalid --cwd: working directory {} does not exist",
            missing.display()
        ),
    );
    // A cwd from configuration is checked too; the message names the directory.
    let config_cwd = format!("cwd=\"{}\"", file.display());
    assert_user_error(
        &request(dir.path(), &["-c", &config_cwd]),
        &format!("working directory {} is not a directory", file.display()),
    );
}

#[test]
fn a_deleted_current_directory_asks_for_the_cwd_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let doomed = dir.path().join("doomed");
    std::fs::create_dir(&doomed).expect("mkdir");
    let home = tempfile::tempdir().expect("home");
    // The shell enters the folder, removes it and becomes the binary, whose current directory
    // is then gone.
    let output = std::process::Command::new("sh")
        .args([
            "-c",
            "cd \"$1\" && rmdir \"$1\" && exec \"$2\" request --message hi --codex-home \"$3\"",
            "sh",
        ])
        .arg(&doomed)
        .arg(env!("CARGO_BIN_EXE_codex-context"))
        .arg(home.path())
        .env("HOME", home.path())
        .env_remove("CODEX_HOME")
        .env_remove("RUST_LOG")
        .output()
        .expect("runs");
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned()
        ),
        (
            Some(2),
            String::new(),
            "codex-context: error: no working directory: the current directory no longer \
             exists; pass --cwd DIR or set `cwd`\n"
                .to_string()
        )
    );
}
