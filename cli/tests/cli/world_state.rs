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
