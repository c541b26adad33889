use crate::support::assert_success;
use crate::support::run;

#[test]
fn unchanged_section_prints_none() {
    assert_success(
        &run(&[
            "world-state",
            "diff",
            "--section",
            "realtime",
            "--previous",
            r#"{"active": true}"#,
            "--current",
            r#"{"active": true}"#,
        ]),
        "None\n",
    );
}

#[test]
fn absent_previous_state_renders_the_fragment_with_its_role() {
    assert_success(
        &run(&[
            "world-state",
            "diff",
            "--section",
            "managed_developer_instructions",
            "--previous",
            "absent",
            "--current",
            r#"{"instructions": "Never upload source code."}"#,
        ]),
        "(role - developer)\n<managed_developer_instructions>\nNever upload source code.\n</managed_developer_instructions>\n",
    );
}

#[test]
fn unknown_section_is_an_error() {
    let run = run(&[
        "world-state",
        "diff",
        "--section",
        "nonexistent",
        "--previous",
        "absent",
        "--current",
        "{}",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.starts_with("codex-context: error: "), "{run:?}");
}

fn diff(section: &str, previous: &str, current: &str) -> crate::support::Run {
    run(&[
        "world-state",
        "diff",
        "--section",
        section,
        "--previous",
        previous,
        "--current",
        current,
    ])
}

/// `environments` as a rollout's `world_state` line records it (environments keyed by ID).
const RECORDED_ENVIRONMENTS: &str = r#"{"current_date":"2026-11-30","environments":{"local":{"cwd":"/repo","shell":"bash","status":"available"}},"timezone":"Etc/UTC"}"#;

#[test]
fn a_recorded_snapshot_is_accepted_as_the_previous_state() {
    // `true` is how a rollout records a guidance section that was shown.
    assert_success(
        &diff("apps_instructions", "true", r#"{"available": true}"#),
        "None\n",
    );
    let same = r#"{"environments": [{"id": "local", "cwd": "/repo", "shell": "bash"}], "current_date": "2026-11-30", "timezone": "Etc/UTC"}"#;
    assert_success(&diff("environments", RECORDED_ENVIRONMENTS, same), "None\n");
    let next_day = same.replace("2026-11-30", "2026-12-01");
    assert_success(
        &diff("environments", RECORDED_ENVIRONMENTS, &next_day),
        "(role - user)\n<environment_context>\n  <current_date>2026-12-01</current_date>\n  <timezone>Etc/UTC</timezone>\n</environment_context>\n",
    );
}

#[test]
fn a_recorded_snapshot_is_accepted_as_the_current_state_when_it_holds_what_is_rendered() {
    assert_success(
        &diff("environments", "absent", RECORDED_ENVIRONMENTS),
        "(role - user)\n<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  <current_date>2026-11-30</current_date>\n  <timezone>Etc/UTC</timezone>\n</environment_context>\n",
    );
    assert_success(&diff("apps_instructions", "true", "true"), "None\n");
    let run = diff(
        "permissions",
        "absent",
        r#"{"approved_command_prefixes":[],"instructions":"32ca25d6d85edaeb6f1e19b2a5cc4e08d2a631cd"}"#,
    );
    crate::support::assert_user_error(
        &run,
        "a recorded snapshot of world-state section permissions cannot be its current state: it \
         holds a fingerprint of the permissions text, not the policies it is rendered from; give \
         the section's inputs instead",
    );
}

#[test]
fn json_that_is_neither_inputs_nor_a_snapshot_names_both_readings() {
    let run = diff("realtime", "absent", r#"{"live": true}"#);
    crate::support::assert_user_error(
        &run,
        "JSON for world-state section realtime is neither its inputs (unknown field `live`, \
         expected one of `active`, `start_instructions`, `end_instructions`) \
         nor a recorded snapshot of it (missing field `active`)",
    );
}
