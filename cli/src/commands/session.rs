//! `codex-context session run|resume|fork`: play a scripted session, or print the request a
//! resumed or forked thread sends next.

use std::path::Path;
use std::path::PathBuf;

use super::session_forks::ExtraThread;
use super::session_forks::write_fork_rollouts;
use anyhow::Context as _;
use codex_config::ConfigEnv;
use codex_config::ExtensionHost;
use codex_config::Surface;
use codex_config::check_working_directory;
use codex_inspect::RequestStatsAccumulator;
use codex_inspect::render_request_stats;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_release::CodexRelease;
use codex_release::RolloutEvidence;
use codex_release::detect_release;
use codex_rollout::ForkPoint;
use codex_rollout::LineOrdinals;
use codex_rollout::ResumedRollout;
use codex_rollout::read_rollout;
use codex_rollout::read_rollout_for_replay;
use codex_rollout::release_evidence;
use codex_rollout::resume_rollout;
use codex_script::AssistantReply;
use codex_script::CodexHome;
use codex_script::ContextMode;
use codex_script::FailedTurn;
use codex_script::ReadBack;
use codex_script::RequestPrinter;
use codex_script::RequestSink;
use codex_script::RequestsFormat;
use codex_script::Script;
use codex_script::ScriptError;
use codex_script::ScriptRequest;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::ScriptedSession;
use codex_script::SessionEnvironment;
use codex_script::SettingsLayer;
use codex_script::TurnResponder;
use codex_script::TurnScript;
use codex_script::load_continued_config;
use codex_script::play_script;
use codex_script::recorded_settings;
use codex_script::render_requests_layout;
use codex_utils_progress::Display;
use codex_utils_progress::Progress;
use codex_utils_progress::Unit;

use super::request::parse_surface;
use super::request::warn_if_over_context_window;
use crate::catalog::CatalogArgs;
use crate::endpoint::EndpointArgs;
use crate::endpoint::LiveReplies;
use crate::output::Replacing;
use crate::output::check_output;

/// Play scripted sessions; resume or fork a recorded one
///
/// `run` plays a JSON script of turns and prints every request the thread sends; `resume` and
/// `fork` print the request a thread continued from a rollout sends next.
#[derive(Debug, clap::Args)]
pub struct SessionArgs {
    #[command(subcommand)]
    pub command: SessionCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum SessionCommand {
    Run(RunArgs),
    Resume(ResumeArgs),
    Fork(ForkArgs),
}

/// What every session subcommand runs against.
#[derive(Debug, Clone, clap::Args)]
pub struct SessionOptions {
    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// Directory overlaying the bundled templates file by file.
    #[arg(long, value_name = "DIR")]
    pub prompts_dir: Option<PathBuf>,

    /// CODEX_HOME (config.toml, global AGENTS.md); default: an isolated empty home, so nothing
    /// from this machine's configuration leaks in.
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// The upstream Codex release to reproduce (`0.149`, `0.171`). Default: for `resume` and
    /// `fork`, the release that wrote the rollout (its `session_meta.cli_version`, else its line
    /// shapes); for `run`, the script's `codex_version`; else config.toml's, else the latest.
    #[arg(long, value_name = "VERSION")]
    pub codex_version: Option<CodexRelease>,
}

/// Play a session script and print every request it sends
///
/// Each request is printed as soon as it is built, before the model is asked for its response,
/// so a run that fails at a later turn (or is stopped) has printed the requests before it.
///
/// Script: `{"session": {CONFIG}, "turns": [{"set": {CONFIG}, "user": "text", "assistant":
/// "reply", "compact": "summary", "resume": true}]}`. CONFIG holds config.toml keys (`model`,
/// `cwd` relative to the script's folder, `current_date`, `timezone`, `shell`, `seed`,
/// `personality`, `features`, …); `set` (one CONFIG or an array of them: settings operations,
/// recorded once the thread has run a turn) applies from its turn on, `compact` compacts before
/// the turn, `resume` (`true`, or the restarted process's CONFIG) rebuilds the session from its
/// rollout before the turn.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The session script (JSON).
    #[arg(value_name = "SCRIPT.json")]
    pub script: PathBuf,

    /// Also write the session's rollout here: line by line as it happens to a temporary file
    /// beside OUT.jsonl, renamed into place when the last turn ran (a failed run leaves OUT.jsonl
    /// as it was). An existing file is kept unless `--force` is given; never the script or the
    /// catalog read. The threads `fork` steps start are written beside it, as
    /// OUT.fork-1.jsonl, OUT.fork-2.jsonl, … in fork order, and the sub-agents `spawn_agent`
    /// calls start as OUT.agent-1.jsonl, … in spawn order.
    #[arg(long, value_name = "OUT.jsonl")]
    pub rollout: Option<PathBuf>,

    /// Let `--rollout` replace an existing file (re-recording a session).
    #[arg(long, requires = "rollout")]
    pub force: bool,

    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: RunFormat,

    /// Send the full context on every turn instead of only what changed (a comparison baseline).
    #[arg(long)]
    pub resend_full_context: bool,

    /// After the requests, print their token totals by source and each one's prefix reuse (with
    /// `--resend-full-context` as the baseline this shows what world-state diffs save). Counted
    /// as the requests stream past: no request is kept.
    #[arg(long)]
    pub stats: bool,

    /// Answer turns without a scripted `assistant` reply by sending their request to the
    /// endpoint (`--base-url`, else `$OPENAI_BASE_URL`, else the OpenAI API; key from
    /// `--api-key-env`). Tool calls the model makes are recorded, not run.
    #[arg(long)]
    pub live: bool,

    #[command(flatten)]
    pub endpoint: EndpointArgs,

    #[command(flatten)]
    pub options: SessionOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RunFormat {
    /// One request body per line.
    Jsonl,
    /// Each request's input in the layout format under a `## Request N` heading.
    Layout,
    /// One JSON line per request with only what is new since the previous request: the input
    /// items after the prefix they share (its length in items and bytes, and its SHA-1), whether
    /// the previous input was kept or rewritten (compaction), and the other body fields in full
    /// on the first request, afterwards those that changed.
    Delta,
}

/// The next turn of a continued thread.
#[derive(Debug, Clone, clap::Args)]
pub struct NextTurnArgs {
    /// What the user types next.
    #[arg(long, value_name = "TEXT")]
    pub user: String,

    /// The model's reply, recorded after the request (so a written rollout can go on).
    #[arg(long, value_name = "TEXT")]
    pub assistant: Option<String>,

    /// A setting for the next turn, `key=value` as in config.toml (like `-c`); repeatable. Beats
    /// the settings the rollout recorded; a changed value produces the update the model sees.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// The front end the next turn runs under: `interactive` (default: the recorded settings
    /// decide) or `exec` (upstream's `codex exec resume`, which runs the turn with approval
    /// policy `never` whatever the rollout or config.toml say; `--set approval_policy=…` still
    /// beats it).
    #[arg(long, value_name = "SURFACE", default_value = "interactive", value_parser = clap::builder::ValueParser::new(parse_surface))]
    pub surface: Surface,

    /// Working directory of the next turn, instead of the one the rollout recorded. Without it,
    /// a recorded directory that does not exist here (a rollout from another machine) is
    /// replaced by the current directory, with a warning; either way the model is told the
    /// directory changed.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: NextRequestFormat,

    #[command(flatten)]
    pub options: SessionOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NextRequestFormat {
    /// The body as pretty-printed JSON.
    Json,
    /// The input in the layout format under a `## Request N` heading.
    Layout,
}

/// Print the request a resumed thread sends next
///
/// The thread continues with the settings its last `turn_context` recorded (model, cwd,
/// approval policy, sandbox mode, personality, collaboration mode); date, time zone and shell
/// are read afresh unless `--set` pins them. Damaged rollout lines are reported and skipped.
#[derive(Debug, clap::Args)]
pub struct ResumeArgs {
    /// The rollout JSONL file.
    #[arg(value_name = "ROLLOUT.jsonl")]
    pub rollout: PathBuf,

    /// Append the new turn's lines to the rollout (otherwise it is left unchanged).
    #[arg(long)]
    pub write: bool,

    #[command(flatten)]
    pub next: NextTurnArgs,
}

/// Print the first request of a thread forked from a rollout
///
/// The child copies the parent's lines (all of them, or those before turn N) and continues
/// with the settings they last recorded, like `resume`.
#[derive(Debug, clap::Args)]
pub struct ForkArgs {
    /// The parent's rollout JSONL file.
    #[arg(value_name = "ROLLOUT.jsonl")]
    pub rollout: PathBuf,

    /// Keep only the parent's turns before turn N (0-based, rolled-back turns not counted).
    #[arg(long, value_name = "N")]
    pub truncate_before_turn: Option<usize>,

    /// Write the child's rollout (copied lines and the new turn) to this new file: written whole
    /// or not at all, never over an existing file (the parent's included).
    #[arg(long, value_name = "CHILD.jsonl")]
    pub write: Option<PathBuf>,

    #[command(flatten)]
    pub next: NextTurnArgs,
}

pub fn run(args: &SessionArgs) -> anyhow::Result<String> {
    // No vocabulary is loaded ahead: fragments count tokens only when their bytes exceed a cap
    // (every token covers a byte), which a session seldom meets.
    match &args.command {
        SessionCommand::Run(args) => run_session_script(args),
        SessionCommand::Resume(args) => resume(args),
        SessionCommand::Fork(args) => fork(args),
    }
}

fn run_session_script(args: &RunArgs) -> anyhow::Result<String> {
    if !args.live {
        args.endpoint.reject_unused("--live")?;
    }
    let mut script = Script::load(&args.script)?;
    if let Some(release) = args.options.codex_version {
        script.session = script
            .session
            .then(&SettingsLayer::release("--codex-version", release));
    }
    let script_catalog = script.session.path("model_catalog");
    // A turn that reads the lines written so far back (`resume`, `rollback`, `fork`, a sub-agent
    // forked off the thread) finds them in a temporary file, never in memory.
    let read_back = match script.turns.iter().any(TurnScript::reads_rollout_back) {
        true => ReadBack::TemporaryFile,
        false => ReadBack::Never,
    };
    let sink = match &args.rollout {
        Some(path) => {
            let replacing = Replacing::WithForce { force: args.force };
            let mut inputs = vec![("the script", args.script.as_path())];
            inputs.extend(
                args.options
                    .catalog
                    .model_catalog
                    .as_deref()
                    .or(script_catalog.as_deref())
                    .map(|catalog| ("the model catalog", catalog)),
            );
            check_output("--rollout", path, &inputs, replacing)?;
            ScriptSink::new_file(path, replacing.existing(), read_back)?
        }
        None => ScriptSink::new(read_back)?,
    };
    let env = environment(&args.options, script_catalog, Some(script.base_dir.clone()))?;
    let mode = match args.resend_full_context {
        true => ContextMode::ResendFullContext,
        false => ContextMode::Diffs,
    };
    let mut live_replies;
    let responder: &mut dyn TurnResponder = match args.live {
        true => {
            let client = args.endpoint.client(None, args.endpoint.api_key(None)?)?;
            live_replies = LiveReplies::new(client)?;
            &mut live_replies
        }
        false => &mut ScriptedReplies,
    };
    let format = match args.format {
        RunFormat::Jsonl => RequestsFormat::Jsonl,
        RunFormat::Layout => RequestsFormat::Layout,
        RunFormat::Delta => RequestsFormat::Delta,
    };
    let turns = u64::try_from(script.turns.len()).unwrap_or(u64::MAX);
    let mut output = RunOutput {
        printer: RequestPrinter::new(std::io::stdout(), format),
        tokens: RequestStatsAccumulator::new(),
        warned_over_context_window: false,
        progress: Progress::new(
            Some(turns),
            Unit::Items("turns"),
            "session run",
            Display::StderrIfTerminal,
        ),
    };
    let played = play_script(
        &script,
        &env,
        ScriptStart::Beginning,
        sink,
        mode,
        responder,
        &mut output,
    );
    output.progress.finish();
    let played = played?;
    if let Some(path) = &args.rollout {
        let replacing = Replacing::WithForce { force: args.force };
        write_fork_rollouts(path, ExtraThread::Fork, &played.forks, replacing.existing())?;
        write_fork_rollouts(
            path,
            ExtraThread::Agent,
            &played.agents,
            replacing.existing(),
        )?;
    }
    // The requests are on stdout already; the statistics follow them.
    Ok(match args.stats {
        true => format!("\n{}", render_request_stats(&output.tokens.finish())),
        false => String::new(),
    })
}

/// Where `session run` sends each request: printed at once, its tokens counted as it streams
/// past (for `--stats` and the context window; no body is kept but the previous one), and the
/// turns played shown on a progress bar. The first request larger than its model's context
/// window is warned about; later ones are not again (history only grows, so they would repeat
/// the warning).
struct RunOutput<W: std::io::Write> {
    printer: RequestPrinter<W>,
    tokens: RequestStatsAccumulator,
    warned_over_context_window: bool,
    progress: Progress,
}

impl<W: std::io::Write> RequestSink for RunOutput<W> {
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError> {
        // The count carries over the previous request's items, so only new items are
        // tokenized; the warning itself counts the whole request once.
        let tokens = self.tokens.add(&request.body).total_tokens;
        let over_window = request
            .context_window
            .and_then(|window| usize::try_from(window).ok())
            .is_some_and(|window| tokens > window);
        if over_window && !self.warned_over_context_window {
            self.warned_over_context_window = self
                .progress
                .suspend(|| warn_if_over_context_window(&request.body, request.context_window));
        }
        self.printer.request(request)
    }

    fn turn_played(&mut self) {
        self.progress.inc(1);
    }

    fn turn_failed(&mut self, failure: &FailedTurn) {
        self.progress.suspend(|| {
            eprintln!(
                "session run: turns[{}] failed before any request, as the script expects: {}",
                failure.turn, failure.error
            )
        });
    }
}

fn resume(args: &ResumeArgs) -> anyhow::Result<String> {
    let progress = reading_progress(&args.rollout);
    let resumed = resume_rollout(&args.rollout, Some(&progress))?;
    progress.finish();
    let (env, config) = next_turn_config(&args.next, &resumed, &resumed.digest.release)?;
    let sink = match args.write {
        true => ScriptSink::append_to_file(
            &args.rollout,
            LineOrdinals::after(resumed.digest.last_ordinal),
        )?,
        false => ScriptSink::memory(),
    };
    let mut session = ScriptedSession::resume(&env, resumed, &config, sink, ContextMode::Diffs)?;
    // As `codex exec resume` does, the resumed step opens by recording the settings it runs with.
    session.announce_settings_on_next_turn();
    let request = session.run_turn(&config, &next_turn(&args.next), &mut ScriptedReplies)?;
    session.into_sink().finish()?;
    render_next_request(args.next.format, request)
}

fn fork(args: &ForkArgs) -> anyhow::Result<String> {
    let progress = reading_progress(&args.rollout);
    // Event payloads (and the token usage they carry, which only the child's own token_count
    // lines repeat) matter only when the child's lines are written.
    let parent = match &args.write {
        Some(_) => read_rollout(&args.rollout, Some(&progress))?,
        None => read_rollout_for_replay(&args.rollout, Some(&progress))?,
    };
    progress.finish();
    let point = args
        .truncate_before_turn
        .map_or(ForkPoint::FullHistory, ForkPoint::BeforeUserMessage);
    // What the child continues with: the parent's lines up to the fork point. The session
    // reports what it cannot use when it is forked; this look-ahead stays quiet.
    let kept = &parent.lines[..point.kept_lines(&parent.lines)];
    let view =
        tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
            ResumedRollout::of_lines(kept)
        });
    let evidence = release_evidence(parent.lines.iter().map(|loaded| &loaded.line));
    let (env, config) = next_turn_config(&args.next, &view, &evidence)?;
    drop(view);
    let sink = match &args.write {
        Some(path) => {
            let mut inputs = vec![("the parent rollout", args.rollout.as_path())];
            inputs.extend(
                args.next
                    .options
                    .catalog
                    .model_catalog
                    .as_deref()
                    .map(|catalog| ("the model catalog", catalog)),
            );
            check_output("--write", path, &inputs, Replacing::Never)?;
            ScriptSink::new_file(path, Replacing::Never.existing(), ReadBack::Never)?
        }
        None => ScriptSink::memory(),
    };
    let mut session =
        ScriptedSession::fork(&env, parent, point, &config, sink, ContextMode::Diffs)?;
    let request = session.run_turn(&config, &next_turn(&args.next), &mut ScriptedReplies)?;
    session.into_sink().finish()?;
    render_next_request(args.next.format, request)
}

/// A bar counting the bytes of `rollout` read, drawn on a terminal once reading has taken a
/// second.
pub(crate) fn reading_progress(rollout: &Path) -> Progress {
    let total = std::fs::metadata(rollout).ok().map(|meta| meta.len());
    Progress::new(
        total,
        Unit::Bytes,
        "reading the rollout",
        Display::StderrIfTerminal,
    )
}

/// Templates, catalog, CODEX_HOME and process environment; `current_dir` replaces the
/// process's working directory (the folder a script's settings are relative to).
pub(crate) fn environment(
    options: &SessionOptions,
    script_catalog: Option<PathBuf>,
    current_dir: Option<PathBuf>,
) -> anyhow::Result<SessionEnvironment> {
    let templates = match &options.prompts_dir {
        Some(dir) => TemplateSet::from_dir(dir)?,
        None => TemplateSet::embedded(),
    };
    let catalogs = CatalogArgs {
        model_catalog: options.catalog.model_catalog.clone().or(script_catalog),
        remote_models: options.catalog.remote_models.clone(),
    }
    .load_all(&templates)?;
    let mut config_env = ConfigEnv::from_process();
    if current_dir.is_some() {
        config_env.current_dir = current_dir;
    }
    Ok(SessionEnvironment {
        catalogs,
        templates,
        codex_home: options
            .codex_home
            .clone()
            .map_or(CodexHome::Isolated, CodexHome::Dir),
        host: ExtensionHost::Cli,
        config_env,
    })
}

/// The environment and the next turn's configuration: the settings `recorded` (a rollout, up to
/// the fork point) last ran with, then `--set`; the release is `--codex-version`, else the one
/// `evidence` names.
fn next_turn_config(
    next: &NextTurnArgs,
    recorded: &ResumedRollout,
    evidence: &RolloutEvidence,
) -> anyhow::Result<(SessionEnvironment, codex_config::Config)> {
    let env = environment(&next.options, None, None)?;
    let recorded = recorded_settings(recorded, "recorded turn_context")?;
    let base_dir = env.config_env.current_dir.clone().unwrap_or_default();
    let cwd = match &next.cwd {
        Some(dir) => {
            check_working_directory(dir).context("invalid --cwd")?;
            SettingsLayer::cwd("--cwd", &base_dir.join(dir))
        }
        None => SettingsLayer::empty("--cwd"),
    };
    let surface_origin = format!("--surface {}", next.surface.name());
    let surface_settings: Vec<String> = next
        .surface
        .approval_policy()
        .map(|policy| format!("approval_policy={}", policy.as_str()))
        .into_iter()
        .collect();
    let surface = SettingsLayer::from_assignments(&surface_origin, &surface_settings, &base_dir)?;
    // The release: `--codex-version`, else the one that wrote the rollout.
    let release = match next.options.codex_version {
        Some(release) => Some((release, "--codex-version".to_string())),
        None => {
            detect_release(evidence).map(|(release, why)| (release, format!("the rollout ({why})")))
        }
    };
    let release_layer = match &release {
        Some((release, origin)) => SettingsLayer::release(origin.as_str(), *release),
        None => SettingsLayer::empty("the rollout's release"),
    };
    let set = SettingsLayer::from_assignments("--set", &next.set, &base_dir)?;
    let config = load_continued_config(
        &recorded,
        &[&release_layer, &cwd, &surface, &set],
        &env.codex_home,
        env.host,
        &env.config_env,
        "recorded settings and --set",
    )?;
    // config.toml's `remote_models` (the `--remote-models` flag beats it).
    let env = match (&config.remote_models, &next.options.catalog.remote_models) {
        (Some(path), None) => {
            let remote = ModelCatalog::from_path(path)
                .with_context(|| format!("invalid remote_models {}", path.display()))?;
            SessionEnvironment {
                catalogs: env.catalogs.with_remote_models(remote.models()),
                ..env
            }
        }
        (None, _) | (Some(_), Some(_)) => env,
    };
    Ok((env, config))
}

fn next_turn(next: &NextTurnArgs) -> TurnScript {
    TurnScript {
        assistant: next
            .assistant
            .clone()
            .map_or(AssistantReply::Absent, AssistantReply::Scripted),
        ..TurnScript::user(next.user.clone())
    }
}

fn render_next_request(
    format: NextRequestFormat,
    request: ScriptRequest,
) -> anyhow::Result<String> {
    warn_if_over_context_window(&request.body, request.context_window);
    Ok(match format {
        NextRequestFormat::Json => serde_json::to_string_pretty(&request.body)? + "\n",
        NextRequestFormat::Layout => render_requests_layout(&[request])?,
    })
}
