//! Running the function calls a live model makes, and the `function_call_output` items that
//! answer them (upstream: the `exec_command` handler in
//! `codex-rs/core/src/tools/handlers/unified_exec.rs`, its output formatted by
//! `response_header`/`response_text` in `codex-rs/core/src/tools/context.rs`, and the router's
//! `unsupported call: NAME` for a tool it has no handler for, in
//! `codex-rs/core/src/tools/registry.rs`).
//!
//! `exec_command` runs `cmd` with `bash -lc` (upstream's default login shell) in the turn's
//! working directory with upstream's fixed variables (C.UTF-8 locale, no pagers or colours),
//! standard input closed, standard output and error read together, for at
//! most [`MAX_RUN_TIME`] (the process group is killed afterwards), and keeps at most
//! [`MAX_OUTPUT_TOKENS`] of its output (head and tail, with the `fragments/truncated.md` notice). This project applies no sandbox of its own:
//! the command runs with the caller's rights.

use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use codex_core::CommandExecution;
use codex_core::IdGenerator;
use codex_fragments::Keep;
use codex_fragments::cap_tokens;
use codex_prompts::TemplateSet;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use serde::Deserialize;

/// The tool this module runs.
pub const EXEC_COMMAND_TOOL: &str = "exec_command";
/// The longest a command may run; upstream's default `yield_time_ms` is 10 s, after which it
/// reports a running session this project cannot keep.
pub const MAX_RUN_TIME: Duration = Duration::from_secs(10);
/// The most output kept, in o200k tokens (upstream's default `max_output_tokens`).
pub const MAX_OUTPUT_TOKENS: usize = 10_000;
/// Upstream's rough token count of the raw output (`approx_token_count`): four bytes a token.
const BYTES_PER_TOKEN: usize = 4;
/// The login shell a command runs in, and its flag (`bash -lc CMD`).
const SHELL: &str = "bash";
const SHELL_FLAG: &str = "-lc";
/// Variables every command runs with, whatever the caller's environment says (upstream's
/// `UNIFIED_EXEC_ENV` in `codex-rs/core/src/unified_exec/process_manager.rs`): no colours or
/// pagers, a UTF-8 C locale.
const EXEC_ENV: [(&str, &str); 10] = [
    ("NO_COLOR", "1"),
    ("TERM", "dumb"),
    ("LANG", "C.UTF-8"),
    ("LC_CTYPE", "C.UTF-8"),
    ("LC_ALL", "C.UTF-8"),
    ("COLORTERM", ""),
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("GH_PAGER", "cat"),
    ("CODEX_CI", "1"),
];
const POLL_INTERVAL: Duration = Duration::from_millis(10);

/// `exec_command`'s arguments this project reads (the others are accepted and ignored).
#[derive(Debug, Deserialize)]
struct ExecCommandArgs {
    cmd: String,
    #[serde(default)]
    workdir: Option<String>,
}

/// Whether `exec_command` calls are run. This project applies no sandbox, so running what a
/// model asks for is the caller's explicit choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandPolicy {
    /// Run the command with the caller's rights.
    Run,
    /// Run nothing; the call's output says so.
    Refuse,
}

/// The output of an `exec_command` call under [`CommandPolicy::Refuse`].
pub const COMMAND_REFUSED: &str =
    "This command was not run: the session runs no commands unless its user allows it.";

/// A function call answered: its output item and, when a command ran, what ran.
#[derive(Debug, Clone)]
pub struct FunctionCallRun {
    pub output: ResponseItem,
    pub execution: Option<CommandExecution>,
}

/// The answer to `call` when it is a function call (`None` for anything else): `exec_command`
/// is run in `cwd` (under [`CommandPolicy::Run`]), any other tool gets upstream's
/// `unsupported call: NAME`.
pub fn run_function_call(
    call: &ResponseItem,
    cwd: &Path,
    policy: CommandPolicy,
    ids: &IdGenerator,
    templates: &TemplateSet,
) -> Option<FunctionCallRun> {
    let ResponseItem::FunctionCall {
        name,
        namespace,
        arguments,
        call_id,
        ..
    } = call
    else {
        return None;
    };
    let (text, execution) = match (namespace, name.as_str()) {
        (None, EXEC_COMMAND_TOOL) => match serde_json::from_str::<ExecCommandArgs>(arguments) {
            Ok(args) => match policy {
                CommandPolicy::Run => {
                    let (text, execution) = exec_command(&args, call_id, cwd, ids, templates);
                    (text, Some(execution))
                }
                CommandPolicy::Refuse => {
                    tracing::warn!(
                        "The model asked to run `{}`; it was not run (pass --run-commands to run \
                         the model's commands, without a sandbox).",
                        args.cmd
                    );
                    (COMMAND_REFUSED.to_string(), None)
                }
            },
            Err(error) => (format!("failed to parse function arguments: {error}"), None),
        },
        (Some(namespace), _) => (format!("unsupported call: {namespace}.{name}"), None),
        (None, _) => (format!("unsupported call: {name}"), None),
    };
    Some(FunctionCallRun {
        output: ResponseItem::FunctionCallOutput {
            id: None,
            call_id: Some(call_id.clone()),
            name: None,
            namespace: None,
            output: FunctionCallOutputPayload::from_text(text),
            internal_chat_message_metadata_passthrough: None,
        },
        execution,
    })
}

/// Runs the command; returns what it printed formatted as upstream's `exec_command` does, and
/// the run as the rollout records it.
fn exec_command(
    args: &ExecCommandArgs,
    call_id: &str,
    cwd: &Path,
    ids: &IdGenerator,
    templates: &TemplateSet,
) -> (String, CommandExecution) {
    let dir = match &args.workdir {
        Some(workdir) => cwd.join(workdir),
        None => cwd.to_path_buf(),
    };
    let started = Instant::now();
    let run = run_bounded(&args.cmd, &dir);
    let duration = started.elapsed();
    let wall_time = duration.as_secs_f64();
    let mut execution = CommandExecution {
        call_id: call_id.to_string(),
        process_id: None,
        command: vec![SHELL.to_string(), SHELL_FLAG.to_string(), args.cmd.clone()],
        cmd: args.cmd.clone(),
        cwd: dir.clone(),
        output: String::new(),
        exit_code: None,
        duration,
    };
    let chunk_id: String = ids.uuid_v4().simple().to_string().chars().take(6).collect();
    let mut sections = vec![
        format!("Chunk ID: {chunk_id}"),
        format!("Wall time: {wall_time:.4} seconds"),
    ];
    match run {
        Ok(run) => {
            execution.process_id = Some(run.process_id);
            execution.exit_code = run.exit_code;
            execution.output = String::from_utf8_lossy(&run.output).into_owned();
            if let Some(code) = run.exit_code {
                sections.push(format!("Process exited with code {code}"));
            }
            sections.push(format!(
                "Original token count: {}",
                run.output.len().div_ceil(BYTES_PER_TOKEN)
            ));
            sections.push("Output:".to_string());
            let output = String::from_utf8_lossy(&run.output);
            sections.push(
                cap_tokens(&output, MAX_OUTPUT_TOKENS, Keep::HeadAndTail, templates).into_owned(),
            );
        }
        Err(error) => {
            sections.push("Output:".to_string());
            sections.push(format!("cannot run the command: {error}"));
        }
    }
    (sections.join("\n"), execution)
}

/// What a finished (or stopped) command left.
struct CommandRun {
    process_id: u32,
    /// `None` when it was stopped after [`MAX_RUN_TIME`] or killed by a signal.
    exit_code: Option<i32>,
    output: Vec<u8>,
}

fn run_bounded(cmd: &str, dir: &Path) -> std::io::Result<CommandRun> {
    let (mut reader, writer) = std::io::pipe()?;
    let mut command = Command::new(SHELL);
    command
        .arg(SHELL_FLAG)
        .arg(cmd)
        .current_dir(dir)
        .envs(EXEC_ENV)
        .stdin(Stdio::null())
        .stdout(writer.try_clone()?)
        .stderr(writer);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn()?;
    let process_id = child.id();
    // The pipe's write ends now belong to the child only, so reading ends when it exits.
    drop(command);
    let reading = std::thread::spawn(move || {
        let mut output = Vec::new();
        let _ = reader.read_to_end(&mut output);
        output
    });
    let deadline = Instant::now() + MAX_RUN_TIME;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            kill_group(&mut child);
            break None;
        }
        std::thread::sleep(POLL_INTERVAL);
    };
    let output = reading.join().unwrap_or_default();
    Ok(CommandRun {
        process_id,
        exit_code: status.and_then(|status| status.code()),
        output,
    })
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // The whole group, so nothing the command started keeps the pipe open.
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg(format!("-{pid}"))
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
#[path = "tool_calls_tests.rs"]
mod tests;
