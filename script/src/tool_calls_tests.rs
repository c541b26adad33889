use pretty_assertions::assert_eq;

use super::*;

fn call(name: &str, arguments: &str) -> ResponseItem {
    ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: Some("fc_1".to_string()),
        name: name.to_string(),
        namespace: None,
        arguments: arguments.to_string(),
        encrypted_function_args: None,
        call_id: "call_1".to_string(),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn output_text(run: Option<FunctionCallRun>) -> (Option<String>, String) {
    match run.map(|run| run.output) {
        Some(ResponseItem::FunctionCallOutput {
            call_id, output, ..
        }) => (call_id, output.text().unwrap_or_default()),
        other => panic!("not an output: {other:?}"),
    }
}

/// Wall time and chunk id vary; everything else is fixed.
fn without_varying_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with("Wall time: ") && !line.starts_with("Chunk ID: "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn exec_command_runs_in_the_cwd_and_reports_as_upstream() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("marker.txt"), "here\n").expect("write");
    let ids = IdGenerator::seeded(7, jiff::Timestamp::UNIX_EPOCH);
    let run = run_function_call(
        &call(
            "exec_command",
            r#"{"cmd":"cat marker.txt; echo oops >&2; exit 3"}"#,
        ),
        dir.path(),
        CommandPolicy::Run,
        &ids,
        &TemplateSet::embedded(),
    );
    let execution = run
        .as_ref()
        .and_then(|run| run.execution.clone())
        .expect("a command ran");
    assert!(execution.process_id.is_some());
    assert_eq!(
        CommandExecution {
            process_id: None,
            duration: Duration::ZERO,
            ..execution
        },
        CommandExecution {
            call_id: "call_1".to_string(),
            process_id: None,
            command: vec![
                "bash".to_string(),
                "-lc".to_string(),
                "cat marker.txt; echo oops >&2; exit 3".to_string()
            ],
            cmd: "cat marker.txt; echo oops >&2; exit 3".to_string(),
            cwd: dir.path().to_path_buf(),
            output: "here\noops\n".to_string(),
            exit_code: Some(3),
            duration: Duration::ZERO,
        }
    );
    let (call_id, text) = output_text(run);
    assert_eq!(call_id.as_deref(), Some("call_1"));
    assert!(text.starts_with("Chunk ID: "), "{text}");
    assert_eq!(
        without_varying_lines(&text),
        "Process exited with code 3\nOriginal token count: 3\nOutput:\nhere\noops"
    );
}

#[test]
fn unknown_tools_and_bad_arguments_get_upstreams_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ids = IdGenerator::seeded(7, jiff::Timestamp::UNIX_EPOCH);
    let templates = TemplateSet::embedded();
    let unknown_run = run_function_call(
        &call("write_stdin", "{}"),
        dir.path(),
        CommandPolicy::Run,
        &ids,
        &templates,
    );
    assert!(
        unknown_run
            .as_ref()
            .is_some_and(|run| run.execution.is_none())
    );
    let (_, unknown) = output_text(unknown_run);
    assert_eq!(unknown, "unsupported call: write_stdin");
    let (_, bad) = output_text(run_function_call(
        &call("exec_command", "{}"),
        dir.path(),
        CommandPolicy::Run,
        &ids,
        &templates,
    ));
    assert!(
        bad.starts_with("failed to parse function arguments: "),
        "{bad}"
    );
    let message = ResponseItem::message("assistant", vec![]);
    assert!(
        run_function_call(&message, dir.path(), CommandPolicy::Run, &ids, &templates).is_none()
    );
}

#[test]
fn a_refused_command_is_not_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ids = IdGenerator::seeded(7, jiff::Timestamp::UNIX_EPOCH);
    let run = run_function_call(
        &call("exec_command", r#"{"cmd":"touch ran.txt"}"#),
        dir.path(),
        CommandPolicy::Refuse,
        &ids,
        &TemplateSet::embedded(),
    );
    assert!(run.as_ref().is_some_and(|run| run.execution.is_none()));
    assert_eq!(
        output_text(run),
        (Some("call_1".to_string()), COMMAND_REFUSED.to_string())
    );
    assert!(!dir.path().join("ran.txt").exists());
}

#[test]
fn commands_run_with_upstreams_fixed_locale_and_pagers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ids = IdGenerator::seeded(7, jiff::Timestamp::UNIX_EPOCH);
    let run = run_function_call(
        &call(
            "exec_command",
            r#"{"cmd":"printf '%s|%s|%s|%s' \"$LC_ALL\" \"$PAGER\" \"$TERM\" \"$CODEX_CI\""}"#,
        ),
        dir.path(),
        CommandPolicy::Run,
        &ids,
        &TemplateSet::embedded(),
    );
    let execution = run.and_then(|run| run.execution).expect("a command ran");
    assert_eq!(execution.output, "C.UTF-8|cat|dumb|1");
}
