//! What this project builds for a scenario, run with the `codex-context` binary on the same
//! working directory and CODEX_HOME after the real run:
//!
//! - `request --surface exec` (the first request), and `send` of the same turn to the run's
//!   mock, reached through config.toml's `mock` provider as the release reaches it and replaying
//!   the scenario's replies (every request of the turn as sent, headers included, tool round
//!   trips and compactions too, and the rollout this project writes);
//! - per later step, `session resume --surface exec` of the real rollout as it was before the
//!   step (what a resumed thread sends), and `session resume --surface exec --write` of this
//!   project's own rollout (the steps played by this project alone, answered with
//!   [`DEFAULT_REPLY_TEXT`]: the replies the scenarios give are all used up by step 1).
//!
//! Every invocation runs under the `exec` surface, because the release runs `codex exec`.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use codex_release::CodexRelease;
use serde_json::Value;

use super::mock::DEFAULT_REPLY_TEXT;
use super::mock::MockServer;
use super::mock::RecordedRequest;
use super::process::RunLimits;
use super::process::run_with_timeout;
use super::real_run::RealRun;
use super::real_run::isolated_env;
use super::scenario::CODEX_HOME_DIR;
use super::scenario::Scenario;

const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// How `send`'s usage report on standard error starts: not a warning.
const USAGE_LINE: &str = "usage: ";
/// The front end every invocation emulates: `codex exec`.
const SURFACE_ARGS: [&str; 2] = ["--surface", "exec"];
/// The rollout `send` and `session resume --write` build, inside the run folder.
pub const OURS_ROLLOUT: &str = "ours/rollout.jsonl";

/// One `codex-context` invocation's result.
#[derive(Debug, Clone, Default)]
pub struct Invocation {
    /// What the invocation is, e.g. `request`, `session resume (step 2)`.
    pub label: String,
    /// The request body it printed or sent, when it got that far.
    pub body: Option<Value>,
    /// Why it failed (a non-zero exit, output that is not JSON), as one line.
    pub failure: Option<String>,
    /// Every non-empty line it wrote to standard error.
    pub warnings: Vec<String>,
}

/// Everything this project produced for one scenario.
#[derive(Debug, Clone, Default)]
pub struct OursRun {
    /// `request` of the first step.
    pub request: Invocation,
    /// `send` of the first step, with the first request its mock received.
    pub send: Invocation,
    pub send_request: Option<RecordedRequest>,
    /// Every `/responses` body `send` sent, in order (tool round trips, compactions).
    pub send_bodies: Vec<Value>,
    /// Per later step: `session resume` of the real rollout after the step before.
    pub resumes: Vec<Invocation>,
    /// Per later step: `session resume --write` of this project's rollout.
    pub chain: Vec<Invocation>,
    /// The rollout `send` and the chain wrote (absent when `send` failed).
    pub rollout: Option<PathBuf>,
}

/// Runs this project's side of `scenario`; `send` goes to `mock` (reset after the real run),
/// which config.toml's provider names.
pub fn run_ours(
    codex_context: &Path,
    release: CodexRelease,
    scenario: &Scenario,
    run_dir: &Path,
    cwd: &Path,
    real: &RealRun,
    mock: &MockServer,
) -> OursRun {
    let codex_home = run_dir.join(CODEX_HOME_DIR);
    let home_flag = codex_home.display().to_string();
    let ours_rollout = run_dir.join(OURS_ROLLOUT);
    if let Some(parent) = ours_rollout.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let Some(first) = scenario.steps.first() else {
        return OursRun::default();
    };
    // The release is named for the requests `request` and `send` build; `session resume` finds
    // it in the rollout it reads (`session_meta.cli_version`).
    let mut turn_args: Vec<String> = vec![
        "--codex-version".into(),
        release.name().into(),
        "--cwd".into(),
        cwd.display().to_string(),
        "--codex-home".into(),
        home_flag.clone(),
        "--message".into(),
        first.prompt.clone(),
    ];
    turn_args.extend(first.ours.iter().cloned());

    let invoke = |label: &str, args: &[String]| {
        let mut command = Command::new(codex_context);
        isolated_env(&mut command, run_dir);
        command.current_dir(cwd).args(args);
        invocation(label, &mut command)
    };

    let surface: Vec<String> = SURFACE_ARGS.iter().map(ToString::to_string).collect();
    let request = invoke(
        "request",
        &[
            vec!["request".to_string()],
            surface.clone(),
            turn_args.clone(),
        ]
        .concat(),
    );

    let mut args = vec!["send".to_string()];
    args.extend(turn_args.iter().cloned());
    args.extend(["--rollout".into(), ours_rollout.display().to_string()]);
    // The release runs the model's commands (in its sandbox); `send` runs them only when told.
    args.push("--run-commands".into());
    let mut send = invoke("send", &args);
    let sent: Vec<RecordedRequest> = mock
        .recorded()
        .into_iter()
        .filter(RecordedRequest::is_responses)
        .collect();
    let send_bodies: Vec<Value> = sent.iter().map(|request| request.body.clone()).collect();
    let send_request = sent.into_iter().next();
    send.body = send_request.as_ref().map(|request| request.body.clone());
    if send.body.is_none() && send.failure.is_none() {
        send.failure = Some("send made no /responses request".to_string());
    }

    let mut resumes = Vec::new();
    let mut chain = Vec::new();
    for (index, step) in scenario.steps.iter().enumerate().skip(1) {
        let number = index + 1;
        let resume_args = |rollout: &Path| {
            let mut args: Vec<String> = vec![
                "session".into(),
                "resume".into(),
                rollout.display().to_string(),
                "--user".into(),
                step.prompt.clone(),
                "--codex-home".into(),
                home_flag.clone(),
            ];
            args.extend(surface.iter().cloned());
            args.extend(step.ours.iter().cloned());
            args
        };
        if let Some(previous) = real.rollouts.get(index - 1) {
            resumes.push(invoke(
                &format!("session resume (step {number})"),
                &resume_args(previous),
            ));
        }
        let mut args = resume_args(&ours_rollout);
        args.extend([
            "--assistant".into(),
            DEFAULT_REPLY_TEXT.into(),
            "--write".into(),
        ]);
        chain.push(invoke(
            &format!("session resume --write (step {number})"),
            &args,
        ));
    }
    OursRun {
        request,
        send,
        send_request,
        send_bodies,
        resumes,
        chain,
        rollout: ours_rollout.is_file().then_some(ours_rollout),
    }
}

/// Runs `command` and reads a JSON body from its standard output.
fn invocation(label: &str, command: &mut Command) -> Invocation {
    let mut result = Invocation {
        label: label.to_string(),
        ..Invocation::default()
    };
    let outcome = match run_with_timeout(command, RunLimits::new(COMMAND_TIMEOUT)) {
        Ok(outcome) => outcome,
        Err(error) => {
            result.failure = Some(format!("cannot run codex-context: {error}"));
            return result;
        }
    };
    result.warnings = outcome
        .stderr
        .lines()
        .map(str::trim)
        // `send` reports the turn's token usage on standard error.
        .filter(|line| !line.is_empty() && !line.starts_with(USAGE_LINE))
        .map(str::to_string)
        .collect();
    if !outcome.succeeded() {
        let last = result.warnings.last().cloned().unwrap_or_default();
        result.failure = Some(format!("{} ({last})", outcome.status_text()));
        return result;
    }
    // `send` prints the answer, not a body.
    if label != "send" {
        match serde_json::from_str::<Value>(&outcome.stdout) {
            Ok(body) => result.body = Some(body),
            Err(error) => result.failure = Some(format!("output is not a request body: {error}")),
        }
    }
    result
}
