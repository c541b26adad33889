//! `[sandbox_workspace_write]` on the first request: extra writable roots and network access
//! reach the permissions message and `<environment_context>`'s permission profile, from
//! config.toml and from `-c` alike.

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::PINS;
use crate::support::arg;
use crate::support::message_blocks;
use crate::support::run;
use crate::support::write;

#[test]
fn extra_writable_roots_and_network_reach_the_first_request() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let shared = dir.path().join("shared");
    std::fs::create_dir_all(&project).expect("project");
    // An absolute root, and a relative one (under the config file's folder).
    write(
        &home,
        "config.toml",
        &format!(
            "approval_policy = \"never\"\nsandbox_mode = \"workspace-write\"\n\n\
             [sandbox_workspace_write]\nwritable_roots = [\"{}\", \"cache\"]\n\
             network_access = true\nexclude_tmpdir_env_var = true\nexclude_slash_tmp = true\n",
            shared.display()
        ),
    );
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
    let from_file = run(&args);
    assert_eq!(
        (from_file.code, from_file.stderr.as_str()),
        (Some(0), ""),
        "{from_file:?}"
    );
    let body: Value = serde_json::from_str(&from_file.stdout).expect("JSON body");
    let text = message_blocks(&body)
        .into_iter()
        .filter(|block| block != "user: hello")
        .collect::<Vec<_>>()
        .join("\n---\n")
        .replace(&dir.path().display().to_string(), "<TMP>");
    insta::assert_snapshot!(text);

    // The same settings through `-c`, with no config.toml, give the same request.
    std::fs::remove_file(home.join("config.toml")).expect("remove config.toml");
    let cache = home.join("cache");
    let roots = format!(
        "sandbox_workspace_write.writable_roots=[\"{}\", \"{}\"]",
        shared.display(),
        cache.display()
    );
    args.extend_from_slice(&[
        "-c",
        "approval_policy=never",
        "-c",
        "sandbox_mode=workspace-write",
        "-c",
        &roots,
        "-c",
        "sandbox_workspace_write.network_access=true",
        "-c",
        "sandbox_workspace_write.exclude_tmpdir_env_var=true",
        "-c",
        "sandbox_workspace_write.exclude_slash_tmp=true",
    ]);
    let from_overrides = run(&args);
    assert_eq!(
        (from_overrides.code, from_overrides.stderr.as_str()),
        (Some(0), ""),
        "{from_overrides:?}"
    );
    assert_eq!(from_overrides.stdout, from_file.stdout);
}

#[test]
fn a_value_of_the_wrong_type_is_a_one_line_error_naming_the_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    write(
        &home,
        "config.toml",
        "[sandbox_workspace_write]\nnetwork_access = \"yes\"\n",
    );
    let mut args = vec![
        "request",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(dir.path()),
        "--message",
        "hello",
    ];
    args.extend_from_slice(&PINS);
    let run = run(&args);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(
        run.stderr.contains("config.toml") && run.stderr.contains("sandbox_workspace_write"),
        "{run:?}"
    );
}
