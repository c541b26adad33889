//! Values from a closed set: a wrong one is one error line listing the valid ones (derived
//! from the code that accepts them), and a flag that would be ignored is an error.

use std::path::Path;

use codex_core::catalog_section_ids;
use codex_fragments::fragment_roles;
use codex_prompts::TemplateId;
use pretty_assertions::assert_eq;

use crate::not_a_rollout::recorded_rollout_text;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::write;

/// `request` with an empty CODEX_HOME and project, plus `extra`.
fn request(home: &Path, extra: &[&str]) -> Run {
    let project = tempfile::tempdir().expect("tempdir");
    let mut args = vec![
        "request",
        "--codex-home",
        arg(home),
        "--cwd",
        arg(project.path()),
        "--current-date",
        "2026-11-30",
        "--timezone",
        "Etc/UTC",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

const CHOOSABLE: &str = "expected one of: on-request, never";

#[test]
fn approval_untrusted_is_refused_as_upstream_refuses_it_on_every_path() {
    let home = tempfile::tempdir().expect("tempdir");
    assert_user_error(
        &request(home.path(), &["--approval", "untrusted"]),
        &format!(
            "invalid --approval: approval policy `untrusted` is no longer supported ({CHOOSABLE})"
        ),
    );
    assert_user_error(
        &request(home.path(), &["-c", "approval_policy=untrusted"]),
        &format!(
            "-c approval_policy=untrusted: approval policy `untrusted` is no longer supported \
             ({CHOOSABLE})"
        ),
    );
    let config = write(
        home.path(),
        "config.toml",
        "approval_policy = \"untrusted\"\n",
    );
    assert_user_error(
        &request(home.path(), &[]),
        &format!(
            "{}:1: key `approval_policy`: approval policy `untrusted` is no longer supported \
             ({CHOOSABLE})",
            config.display()
        ),
    );
}

#[test]
fn approval_flag_help_and_config_list_the_same_values() {
    let home = tempfile::tempdir().expect("tempdir");
    assert_user_error(
        &request(home.path(), &["--approval", "sometimes"]),
        &format!("invalid --approval: unknown approval policy `sometimes` ({CHOOSABLE})"),
    );
    let config = write(
        home.path(),
        "config.toml",
        "approval_policy = \"sometimes\"\n",
    );
    assert_user_error(
        &request(home.path(), &[]),
        &format!(
            "{}:1:19: key `approval_policy`: unknown approval policy `sometimes` ({CHOOSABLE})",
            config.display()
        ),
    );
    let help = run(&["request", "--help"]);
    let approval_help: Vec<&str> = help
        .stdout
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("--approval"))
        .take(2)
        .collect();
    assert_eq!(
        approval_help,
        vec![
            "      --approval <POLICY>",
            "          Approval policy: one of on-request, never"
        ]
    );
}

/// A thread recorded by an older release with `approval_policy = "untrusted"` still resumes
/// with that policy.
#[test]
fn a_rollout_recorded_with_untrusted_still_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = recorded_rollout_text(dir.path(), r#"[{"user": "one", "assistant": "1"}]"#);
    let older = text.replace(
        r#""approval_policy":"on-request""#,
        r#""approval_policy":"untrusted""#,
    );
    assert_ne!(older, text, "the rollout records the approval policy");
    let older_path = write(dir.path(), "older.jsonl", &older);
    let resumed = run(&[
        "session",
        "resume",
        arg(&older_path),
        "--user",
        "two",
        "--set",
        "current_date=2026-11-30",
        "--set",
        "timezone=Etc/UTC",
        // Another sandbox restates the permissions; the recorded policy alone would not, since
        // the recorded turn ran with it.
        "--set",
        "sandbox_mode=\"workspace-write\"",
    ]);
    assert_eq!((resumed.code, resumed.stderr.as_str()), (Some(0), ""));
    // The restated permissions tell the model the recorded policy (its template's first line,
    // as JSON text).
    let first_line = TemplateId::ApprovalUnlessTrusted
        .embedded_file()
        .lines()
        .next()
        .expect("the template has a line");
    let quoted = serde_json::to_string(first_line).expect("JSON");
    assert!(
        resumed.stdout.contains(&quoted[1..quoted.len() - 1]),
        "{}",
        resumed.stdout
    );
}

#[test]
fn fingerprint_role_must_be_a_fragment_role() {
    let roles = fragment_roles().join(", ");
    assert_user_error(
        &run(&["fingerprint", "--role", "system", "--text", "x"]),
        &format!("invalid --role: unknown role `system` (expected one of: {roles})"),
    );
    assert_eq!(roles, "user, developer, assistant");
    let assistant = run(&["fingerprint", "--role", "assistant", "--text", "x"]);
    assert_eq!(
        (assistant.code, assistant.stdout),
        (
            Some(0),
            format!(
                "{}\n",
                codex_context_fragments::fingerprint("assistant", "x")
            )
        )
    );
}

#[test]
fn an_unknown_world_state_section_lists_the_valid_ids() {
    let ids: Vec<&str> = catalog_section_ids().collect();
    assert_user_error(
        &run(&[
            "world-state",
            "diff",
            "--section",
            "modle",
            "--previous",
            "absent",
            "--current",
            "{}",
        ]),
        &format!(
            "unknown world-state section ID `modle` (expected one of: {})",
            ids.join(", ")
        ),
    );
    assert_eq!(&ids[..3], ["model", "personality", "context_window"]);
}

#[test]
fn endpoint_flags_without_the_switch_that_uses_them_are_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = write(dir.path(), "script.json", r#"{"turns": [{"user": "a"}]}"#);
    let rollout = dir.path().join("never-written.jsonl");
    assert_user_error(
        &run(&[
            "session",
            "run",
            arg(&script),
            "--rollout",
            arg(&rollout),
            "--base-url",
            "http://127.0.0.1:9/v1",
        ]),
        "--base-url needs --live: without it no endpoint is asked",
    );
    assert!(!rollout.exists(), "nothing is written before the check");
    assert_user_error(
        &run(&["session", "run", arg(&script), "--api-key-env", "MY_KEY"]),
        "--api-key-env needs --live: without it no endpoint is asked",
    );
    assert_user_error(
        &run(&["models", "--base-url", "http://127.0.0.1:9/v1"]),
        "--base-url needs --refresh: without it no endpoint is asked",
    );
}
