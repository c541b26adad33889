//! Project trust (`[projects."PATH"] trust_level`) on the first request: an untrusted project's
//! AGENTS.md is left out, the global instructions stay, and the trust defaults reach the
//! permissions text.

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::PINS;
use crate::support::arg;
use crate::support::message_blocks;
use crate::support::run;
use crate::support::write;

/// A CODEX_HOME and a project, each with an AGENTS.md, the project untrusted in config.toml;
/// returns (home, project).
fn untrusted_project(dir: &Path) -> (PathBuf, PathBuf) {
    let home = dir.join("home");
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).expect("project");
    write(&home, "AGENTS.md", "global instructions\n");
    write(&project, "AGENTS.md", "project instructions\n");
    write(
        &home,
        "config.toml",
        &format!(
            "[projects.\"{}\"]\ntrust_level = \"untrusted\"\n",
            project.display()
        ),
    );
    (home, project)
}

#[test]
fn an_untrusted_project_sends_only_the_global_instructions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (home, project) = untrusted_project(dir.path());
    let mut args = vec![
        "request",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(&project),
        "--model",
        "gpt-5.5",
        "--message",
        "hello",
    ];
    args.extend_from_slice(&PINS);
    let run = run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    let body: Value = serde_json::from_str(&run.stdout).expect("JSON body");
    let text = message_blocks(&body)
        .join("\n---\n")
        .replace(&dir.path().display().to_string(), "<TMP>");
    assert!(!text.contains("project instructions"), "{text}");
    insta::assert_snapshot!(text);

    // Trusted through `-c`, the same project's instructions are back.
    let trusted = format!("projects.\"{}\".trust_level=trusted", project.display());
    args.extend_from_slice(&["-c", &trusted]);
    let run = crate::support::run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    assert!(
        run.stdout.contains("project instructions"),
        "{}",
        run.stdout
    );
}

#[test]
fn explain_says_an_untrusted_projects_files_were_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (home, project) = untrusted_project(dir.path());
    let mut args = vec![
        "explain",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(&project),
        "--model",
        "gpt-5.5",
        "--message",
        "hello",
    ];
    args.extend_from_slice(&PINS);
    let run = run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    let tmp = dir.path().display().to_string();
    let section = run
        .stdout
        .split("\nAGENTS.md files:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("the AGENTS.md section")
        .replace(&tmp, "<TMP>");
    insta::assert_snapshot!(section);

    // Trusted, nothing is said about skipping.
    let trusted = format!("projects.\"{}\".trust_level=trusted", project.display());
    args.extend_from_slice(&["-c", &trusted]);
    let run = crate::support::run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    assert!(!run.stdout.contains("not read"), "{}", run.stdout);
    let project_file = format!("project {}", project.join("AGENTS.md").display());
    assert!(run.stdout.contains(&project_file), "{}", run.stdout);
}
