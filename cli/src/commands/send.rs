//! `codex-context send`: one live turn against a Responses API endpoint.
//!
//! The turn runs through a [`Session`]: the context, the user's message and the model's output
//! are recorded as they happen, and the request is built from the session's history, so the
//! body sent and the rollout written hold the same items and a resumed thread continues the very
//! prefix the endpoint saw.

use std::fs;
use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use codex_client::ResponseEvent;
use codex_client::ResponsesClient;
use codex_client::StreamProgress;
use codex_config::Surface;
use codex_core::GitAttributionInputs;
use codex_core::HistoryMode;
use codex_core::MetaWriter;
use codex_core::NewThreadMeta;
use codex_core::RolloutSink;
use codex_core::Session;
use codex_core::SessionInit;
use codex_core::new_thread_meta;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::TokenUsageInfo;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutWriter;
use codex_script::CommandPolicy;
use tracing::warn;

use super::request::PreparedTurn;
use super::request::TurnArgs;
use super::request::prepare_turn;
use super::request::warn_if_over_context_window;
use sampling::TurnRun;
use sampling::run_sampling_loop;

mod sampling;
use crate::endpoint::EndpointArgs;

/// Send a turn to a Responses API endpoint and stream the answer
///
/// Builds the first request from the same options as `request`, sends it to
/// `{base_url}/responses` with the key from `--api-key-env`, and prints the answer text on stdout
/// as it arrives, followed by one line break. Once the response completed, token usage goes to
/// stderr (`usage: …`), so stdout holds only the answer. A resent request (after a dropped
/// stream) does not print its text twice; a note on stderr says it was resent. With
/// `--rollout FILE` the turn is recorded in a new rollout file, which `session resume` continues.
#[derive(Debug, clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub turn: TurnArgs,

    #[command(flatten)]
    pub endpoint: EndpointArgs,

    /// Record the turn in this new rollout file (an existing file is never overwritten). The
    /// lines are written as the turn runs: a failed request leaves the unanswered turn.
    #[arg(long, value_name = "FILE")]
    pub rollout: Option<PathBuf>,

    /// Run the commands the model asks for (`exec_command`) in the turn's working directory,
    /// with your rights: this project applies no sandbox. Without it no command runs and the
    /// model is told so.
    #[arg(long)]
    pub run_commands: bool,
}

pub fn run(args: &SendArgs) -> anyhow::Result<String> {
    let Some(message) = args.turn.message.as_deref() else {
        anyhow::bail!("send needs the user's message: --message TEXT");
    };
    let prepared = prepare_turn(&args.turn, Surface::Exec)?;
    let key = args
        .endpoint
        .api_key(Some(&prepared.config.model_provider))?;
    let client = args
        .endpoint
        .client(Some(&prepared.config.model_provider), key)?;
    let commands = match args.run_commands {
        true => CommandPolicy::Run,
        false => CommandPolicy::Refuse,
    };
    match &args.rollout {
        Some(path) => run_turn(prepared, message, &client, commands, create_rollout(path)?),
        None => run_turn(prepared, message, &client, commands, Vec::new()),
    }?;
    // Everything for stdout was streamed already.
    Ok(String::new())
}

/// A new, empty rollout file at `path` opened for appending.
fn create_rollout(path: &Path) -> anyhow::Result<RolloutWriter> {
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create rollout {}", path.display()))?;
    Ok(RolloutWriter::open_existing(
        path,
        LineOrdinals::Sequential { next: 0 },
    )?)
}

fn run_turn<S: RolloutSink>(
    prepared: PreparedTurn,
    message: &str,
    client: &ResponsesClient,
    commands: CommandPolicy,
    sink: S,
) -> anyhow::Result<()> {
    let PreparedTurn {
        config,
        identity,
        mut turn,
        templates,
        ids,
    } = prepared;
    // The released CLI installs the git-attribution extension; its policy comes from the
    // account, so without one it is off (and the model is told nothing).
    turn.git_attribution = Some(GitAttributionInputs::default());
    let tools = turn.builtin_tools(&templates)?;
    let mut session = Session::new(
        SessionInit {
            thread_id: turn.thread_id.clone(),
            base_instructions: turn.base_instructions.instructions().clone(),
            templates: templates.clone(),
            ids: Arc::clone(&ids),
            history_mode: HistoryMode::Paginated,
            release: turn.release,
        },
        sink,
    );
    // Written as `codex exec` writes a new thread: paginated history (numbered lines,
    // `item_completed` events) and the repository's git state.
    let git = codex_utils_git::git_info(&turn.cwd)
        .map(serde_json::to_value)
        .transpose()?;
    session.record_session_meta(new_thread_meta(NewThreadMeta {
        identity: &identity,
        cwd: turn.cwd.clone(),
        model_provider: Some(config.model_provider.id.clone()),
        base_instructions: Some(turn.base_instructions.instructions().clone()),
        timestamp: ids.rollout_timestamp(),
        forked_from: None,
        writer: MetaWriter::Exec,
        git,
        release: turn.release,
    }))?;
    session.start_turn(&turn)?;
    session.record_context_updates_and_set_reference_context_item(&turn)?;
    session.record_user_message(message)?;
    session.record_injected_items(turn.turn_input_contributions(&templates))?;

    let mut printer = AnswerPrinter::new(std::io::stdout());
    let run = TurnRun {
        config: &config,
        turn: &turn,
        tools,
        templates: &templates,
        ids: &ids,
        client,
        commands,
    };
    let usage = run_sampling_loop(&run, &mut session, &mut printer)?;
    session.complete_turn()?;
    eprintln!("{}", usage_line(usage.as_ref()));
    printer.into_result()
}

/// `usage: 1200 input tokens (1000 cached), 34 output tokens (12 reasoning), 1234 total`.
fn usage_line(info: Option<&TokenUsageInfo>) -> String {
    match info {
        Some(info) => {
            let usage = &info.last_token_usage;
            format!(
                "usage: {} input tokens ({} cached), {} output tokens ({} reasoning), {} total",
                usage.input_tokens,
                usage.cached_input_tokens,
                usage.output_tokens,
                usage.reasoning_output_tokens,
                usage.total_tokens,
            )
        }
        None => "usage: not reported by the server".to_string(),
    }
}

/// Prints answer text as it streams in, response by response. A resent request streams its text
/// again from the start; only what goes beyond the text already shown is printed.
pub struct AnswerPrinter<W: Write> {
    out: W,
    /// Text of the current response printed so far.
    shown: String,
    /// Text of the current attempt.
    attempt: String,
    output: OutputState,
}

/// Whether stdout still takes text.
enum OutputState {
    Open,
    /// The reader went away (`| head`): the turn still completes and is recorded.
    Closed,
    Failed(std::io::Error),
}

impl<W: Write> AnswerPrinter<W> {
    fn new(out: W) -> Self {
        Self {
            out,
            shown: String::new(),
            attempt: String::new(),
            output: OutputState::Open,
        }
    }

    /// A new response begins: its text is printed from its start.
    fn start_response(&mut self) {
        self.shown.clear();
        self.attempt.clear();
    }

    fn report(&mut self, progress: &StreamProgress<'_>) {
        match progress {
            StreamProgress::Event(event) => {
                if let ResponseEvent::OutputTextDelta { delta } = event {
                    self.show_delta(delta);
                }
            }
            StreamProgress::Retrying {
                retry,
                max_retries,
                delay,
                error,
            } => {
                self.attempt.clear();
                warn!(
                    "{error}; resending the request in {:.1} s (retry {retry} of {max_retries})",
                    delay.as_secs_f64()
                );
            }
        }
    }

    fn show_delta(&mut self, delta: &str) {
        self.attempt.push_str(delta);
        let agrees = self.attempt.starts_with(&self.shown) || self.shown.starts_with(&self.attempt);
        if !agrees {
            self.write("\n");
            warn!(
                "the resent response differs from the text already printed; printing it from its start"
            );
            self.shown.clear();
        }
        if self.attempt.len() > self.shown.len() {
            let new = self.attempt[self.shown.len()..].to_string();
            self.write(&new);
            self.shown.push_str(&new);
        }
    }

    /// Prints the assistant text of `items` when the server streamed no text deltas, then the
    /// closing line break; a response without text (only tool calls) prints nothing.
    fn finish(&mut self, items: &[ResponseItem]) {
        if self.shown.is_empty() {
            let text: String = items
                .iter()
                .filter_map(|item| {
                    if let ResponseItem::Message { role, content, .. } = item
                        && role == "assistant"
                    {
                        Some(
                            content
                                .iter()
                                .filter_map(ContentItem::text)
                                .collect::<String>(),
                        )
                    } else {
                        None
                    }
                })
                .collect();
            if text.is_empty() {
                return;
            }
            self.write(&text);
        }
        self.write("\n");
    }

    fn write(&mut self, text: &str) {
        if !matches!(self.output, OutputState::Open) {
            return;
        }
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        match written {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::BrokenPipe => {
                self.output = OutputState::Closed;
            }
            Err(error) => self.output = OutputState::Failed(error),
        }
    }

    fn into_result(self) -> anyhow::Result<()> {
        match self.output {
            OutputState::Open | OutputState::Closed => Ok(()),
            OutputState::Failed(error) => {
                Err(anyhow::Error::new(error).context("cannot write to standard output"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use codex_client::ClientError;
    use pretty_assertions::assert_eq;

    use super::*;

    fn delta(printer: &mut AnswerPrinter<Vec<u8>>, text: &str) {
        printer.report(&StreamProgress::Event(&ResponseEvent::OutputTextDelta {
            delta: text.to_string(),
        }));
    }

    fn resend(printer: &mut AnswerPrinter<Vec<u8>>) {
        printer.report(&StreamProgress::Retrying {
            retry: 1,
            max_retries: 5,
            delay: Duration::from_millis(200),
            error: &ClientError::StreamClosedEarly,
        });
    }

    fn printed(printer: AnswerPrinter<Vec<u8>>) -> String {
        String::from_utf8(printer.out).expect("UTF-8")
    }

    #[test]
    fn a_resent_answer_prints_only_what_goes_beyond_the_shown_text() {
        let mut printer = AnswerPrinter::new(Vec::new());
        delta(&mut printer, "Hel");
        delta(&mut printer, "lo");
        resend(&mut printer);
        delta(&mut printer, "H");
        delta(&mut printer, "ello th");
        delta(&mut printer, "ere");
        printer.finish(&[]);
        assert_eq!(printed(printer), "Hello there\n");
    }

    #[test]
    fn a_resent_answer_that_differs_starts_on_a_new_line() {
        let mut printer = AnswerPrinter::new(Vec::new());
        delta(&mut printer, "Hello");
        resend(&mut printer);
        delta(&mut printer, "Hi");
        delta(&mut printer, " there");
        printer.finish(&[]);
        assert_eq!(printed(printer), "Hello\nHi there\n");
    }

    #[test]
    fn without_deltas_the_final_assistant_text_is_printed() {
        let mut printer = AnswerPrinter::new(Vec::new());
        printer.finish(&[
            ResponseItem::message("user", vec![ContentItem::input_text("ignored")]),
            ResponseItem::message("assistant", vec![ContentItem::output_text("Done.")]),
        ]);
        assert_eq!(printed(printer), "Done.\n");
    }
}
