use pretty_assertions::assert_eq;

use crate::support::PINS;
use crate::support::arg;
use crate::support::run;
use crate::support::write;

#[test]
fn explain_lists_sources_and_agents_md_truncation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let nested = project.join("crates").join("core");
    std::fs::create_dir_all(project.join(".git")).expect("mkdir");
    write(&home, "AGENTS.md", "Reply in English.\n");
    write(&project, "AGENTS.md", "Run the tests.\n");
    write(&project, "crates/AGENTS.md", "Every crate has a README.\n");
    write(&nested, "AGENTS.md", &"Core code never blocks. ".repeat(4));
    let run = run(&[
        &[
            "explain",
            "--codex-home",
            arg(&home),
            "--cwd",
            arg(&nested),
            "--model",
            "gpt-5.5",
            "-c",
            "project_doc_max_bytes=80",
            "-c",
            "developer_instructions=\"Use tabs.\"",
            "--message",
            "hello",
        ][..],
        &PINS,
    ]
    .concat());
    let redact = |text: &str| text.replace(&dir.path().display().to_string(), "<TMP>");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        redact(&run.stderr),
        "codex-context: warning: Project doc `<TMP>/project/crates/core/AGENTS.md` exceeds the remaining project_doc_max_bytes budget: kept 39 bytes, dropped 57 bytes.\n"
    );
    insta::assert_snapshot!(redact_path_dependent_entries(&redact(&run.stdout)));
}

/// Entries whose text embeds the temporary directory change size and fingerprint with it.
fn redact_path_dependent_entries(text: &str) -> String {
    text.lines()
        .map(|line| {
            let path_dependent = ["agents_md.instructions", "environments.environment_context"]
                .iter()
                .any(|kind| line.trim_start().contains(&format!("] {kind} — ")));
            match (path_dependent, line.split_once(" — ")) {
                (true, Some((head, tail))) => {
                    let source = tail.rsplit_once(", ").map_or("", |(_, source)| source);
                    format!("{head} — <bytes>, fingerprint <fingerprint>, {source}")
                }
                _ => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
