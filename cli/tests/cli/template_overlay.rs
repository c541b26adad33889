//! A `--prompts-dir` overlay of every template file reaches every request that uses it: each
//! overlaid file starts with a marker naming it, the commands assemble requests across the
//! settings and sessions this repository scripts, and every marker must turn up in what they
//! print. The templates no command here reaches are pinned by a reviewed snapshot, so a code path
//! that reads the embedded copy instead of the overlay moves its template into that list and
//! fails the test.

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;

use crate::support::Run;
use crate::support::arg;
use crate::support::run;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate sits in the workspace")
        .to_path_buf()
}

/// Every template file, relative to `prompts/templates/`.
fn template_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read templates") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(root).expect("under root");
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

fn marker(template: &str) -> String {
    format!("[overlay:{template}]")
}

/// A template with its marker: at the start of a text, inside the first description of a JSON
/// tool, as a comment line atop a grammar.
fn marked(file: &str, text: &str) -> String {
    let marker = marker(file);
    if file.ends_with(".json") {
        let at = "\"description\": \"";
        let position = text.find(at).expect("a tool template has a description") + at.len();
        format!("{}{marker} {}", &text[..position], &text[position..])
    } else if file.ends_with(".lark") {
        format!("// {marker}\n{text}")
    } else {
        format!("{marker} {text}")
    }
}

/// An overlay directory where every template carries its marker.
fn marked_overlay(templates: &Path, files: &[String], dir: &Path) {
    for file in files {
        let text = std::fs::read_to_string(templates.join(file)).expect("template");
        let target = dir.join(file);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::write(&target, marked(file, &text)).expect("write");
    }
}

fn stdout_of(run: Run, args: &[&str]) -> String {
    assert_eq!(run.code, Some(0), "{args:?} failed: {}", run.stderr);
    run.stdout
}

/// `request` under the settings that choose different templates.
const REQUEST_SETTINGS: &[&[&str]] = &[
    &[],
    &["--codex-version", "0.149"],
    &["--personality", "friendly", "--model", "gpt-5.5"],
    &["--personality", "pragmatic", "--model", "gpt-5.5"],
    &["--personality", "none", "--model", "gpt-5.5"],
    &["--model", "gpt-5.2"],
    &["--model", "codex-auto-review"],
    &["--sandbox", "read-only", "--approval", "never"],
    &["--sandbox", "workspace-write", "--approval", "on-request"],
    &["--sandbox", "danger-full-access", "--approval", "never"],
    &["-c", "collaboration_mode=\"plan\""],
    &[
        "-c",
        "features.apps=true",
        "-c",
        "features.plugins=true",
        "-c",
        "features.deferred_executor=true",
        "-c",
        "features.multi_agent=true",
        "-c",
        "features.exec_permission_approvals=true",
        "-c",
        "features.request_permissions_tool=true",
    ],
    &["-c", "realtime=true"],
    // 0.171: its default model (catalog role and mode texts, the async user tools and the
    // clock), and a non-Lite one.
    &["--codex-version", "0.171"],
    &["--codex-version", "0.171", "--model", "gpt-5.5"],
];

#[test]
fn an_overlay_of_every_template_reaches_the_requests_that_use_it() {
    let root = workspace();
    let templates = root.join("prompts/templates");
    let files = template_files(&templates);
    let dir = tempfile::tempdir().expect("tempdir");
    let overlay = dir.path().join("prompts");
    marked_overlay(&templates, &files, &overlay);
    let cwd = dir.path().join("work");
    std::fs::create_dir_all(&cwd).expect("cwd");

    let mut printed = String::new();
    for settings in REQUEST_SETTINGS {
        let mut args = vec![
            "request",
            "--cwd",
            arg(&cwd),
            "--prompts-dir",
            arg(&overlay),
            "--message",
            "hello",
        ];
        args.extend_from_slice(settings);
        let plain: Vec<&str> = args
            .iter()
            .copied()
            .filter(|arg| *arg != "--prompts-dir" && !arg.ends_with("prompts"))
            .collect();
        let overlaid = stdout_of(run(&args), &args);
        // Every request changes under the overlay.
        assert_ne!(overlaid, stdout_of(run(&plain), &plain), "{settings:?}");
        printed.push_str(&overlaid);
    }
    let mut scripts: Vec<PathBuf> = ["examples/sessions", "examples/upstream"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(root.join(folder)).expect("examples"))
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    scripts.sort();
    for script in &scripts {
        let mut args = vec![
            "session",
            "run",
            arg(script),
            "--prompts-dir",
            arg(&overlay),
        ];
        // A scenario's CODEX_HOME, as the parity run gives it (its `edit` steps may need it).
        let codex_home = script.with_extension("").join("codex_home");
        if codex_home.is_dir() {
            args.extend(["--codex-home", arg(&codex_home)]);
        }
        printed.push_str(&stdout_of(run(&args), &args));
    }

    // Markers are JSON-escaped in request bodies only where a template starts with a quote or
    // backslash, which none does.
    let unreached: BTreeSet<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|file| !printed.contains(&marker(file)))
        .collect();
    let unreached: Vec<&str> = unreached.into_iter().collect();
    insta::assert_snapshot!(unreached.join("\n"));
}
