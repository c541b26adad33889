//! `codex-context proxy`: a recording pass-through between an agent and its Responses endpoint,
//! printing one line per request as it ends.

use std::collections::HashMap;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use codex_core::ResponsesRequest;
use codex_inspect::ExchangeView;
use codex_inspect::Inspection;
use codex_inspect::TurnCounter;
use codex_inspect::parse_recorded_request;
use codex_inspect::render_exchange_line;
use codex_inspect::render_html;
use codex_inspect::render_json;
use codex_inspect::render_recording_text;
use codex_models_manager::ReleaseCatalogs;
use codex_prompts::TemplateSet;
use codex_proxy::ListenScope;
use codex_proxy::ProxyConfig;
use codex_proxy::ProxyEvent;
use codex_proxy::Recording;
use codex_proxy::UI_PREFIX;
use codex_proxy::Upstream;
use codex_utils_fs::Existing;
use codex_utils_fs::write_atomic;
use tokio::signal::unix::Signal;
use tokio::signal::unix::SignalKind;
use tokio::signal::unix::signal;
use tokio::sync::mpsc::error::TryRecvError;

use super::inspect::InspectArgs;
use super::inspect::InspectFormat;
use super::proxy_check::Checker;
use super::proxy_check::RolloutSource;
use super::proxy_ui::RecordingPages;
use crate::output::Replacing;

/// The file `--check` keeps the whole comparison in, in the recording folder.
const CHECK_REPORT: &str = "check.txt";
/// How often the live view looks for events, and for rollouts that caught up, when idle.
const CHECK_POLL: Duration = Duration::from_millis(200);

/// How long a stop waits for the exchanges under way before it cuts them.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// How many finished exchanges may wait for the live view before some are left out of it.
const LIVE_VIEW_BACKLOG: usize = 256;

/// Record what an agent really sends: forward every request to the upstream and record it
///
/// Point the agent at `http://LISTEN/…` (for Codex: a model provider whose `base_url` is
/// `http://127.0.0.1:PORT/v1`; for other clients `OPENAI_BASE_URL`). Each request goes to
/// `--upstream` with its path appended and its headers (the API key included: it is passed on,
/// never printed or written); the response, event streams included, comes back unchanged as it
/// arrives. Per thread (`prompt_cache_key`, else the session-id header) `--out` gets the exact
/// request bytes, the response lines, and `exchanges.jsonl` (redacted headers, timings, usage,
/// failures). `inspect DIR` reads the recording; `compare` reads a thread folder. Stop with
/// Ctrl-C (or SIGTERM): exchanges under way get up to 10 s to finish (then they are recorded
/// as cut), `--check` gives its last verdicts and a summary, and the proxy exits 0. Every
/// line is on disk as it happens, so even a killed proxy leaves a readable recording.
#[derive(Debug, clap::Args)]
pub struct ProxyArgs {
    /// The address to listen on. Only loopback addresses unless `--allow-remote`.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,

    /// The base URL requests are forwarded to, e.g. `https://api.openai.com/v1` when the agent's
    /// base URL is `http://127.0.0.1:PORT`, or `https://api.openai.com` when it is
    /// `http://127.0.0.1:PORT/v1`.
    #[arg(long, value_name = "URL")]
    pub upstream: String,

    /// The recording folder (created when missing; files in it are never replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Listen on a non-loopback address: anyone who reaches it can use the keys that pass.
    #[arg(long)]
    pub allow_remote: bool,

    /// Seconds the upstream may stay silent (before answering, or mid-stream) before the
    /// exchange is cut and recorded as failed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub idle_timeout: u64,

    /// Serve the report of the recording (`inspect --format html` of it) on the proxy's own
    /// port at `/_codex-context/`, updated as requests arrive. Nothing else leaves the proxy's
    /// forwarding: no other path is answered by it.
    #[arg(long)]
    pub ui: bool,

    /// Check each recorded request against the request this project rebuilds for the same
    /// thread from the agent's rollout (as `compare` does): a verdict line per request once
    /// the rollout holds it (those it never holds when the proxy stops, with a summary), and
    /// the whole comparison in `--out`/check.txt.
    #[arg(long, requires = "codex_home")]
    pub check: bool,

    /// The agent's CODEX_HOME: `--check` finds each thread's rollout under its `sessions`
    /// folder (`rollout-…-THREAD.jsonl`).
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// With `--check`: the agent's rollout, for a session of one thread.
    #[arg(long, value_name = "FILE", requires = "check")]
    pub rollout: Option<PathBuf>,
}

pub fn run(args: &ProxyArgs) -> anyhow::Result<String> {
    let upstream = Upstream::parse(&args.upstream)?;
    let mut config = ProxyConfig::new(args.listen, upstream, args.out.clone());
    config.scope = match args.allow_remote {
        true => ListenScope::AllowRemote,
        false => ListenScope::LoopbackOnly,
    };
    config.idle_timeout = Duration::from_secs(args.idle_timeout.max(1));
    config.drain_timeout = DRAIN_TIMEOUT;
    if args.ui {
        config.ui = Some(Arc::new(RecordingPages::new(args.out.clone())));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut signals = {
        let _entered = runtime.enter();
        StopSignals::catch()?
    };
    let (sender, mut receiver) = tokio::sync::mpsc::channel(LIVE_VIEW_BACKLOG);
    let proxy = runtime.block_on(codex_proxy::start(config, Some(sender)))?;
    eprintln!(
        "codex-context proxy: listening on http://{}, forwarding to {}, recording in {}",
        proxy.local_addr(),
        args.upstream.trim_end_matches('/'),
        args.out.display()
    );
    if args.ui {
        eprintln!(
            "codex-context proxy: report at http://{}{UI_PREFIX}",
            proxy.local_addr()
        );
    }
    let mut checker = match (args.check, &args.rollout, &args.codex_home) {
        (true, Some(rollout), _) => Some(RolloutSource::File(rollout.clone())),
        (true, None, Some(home)) => Some(RolloutSource::CodexHome(home.clone())),
        (true, None, None) | (false, _, _) => None,
    }
    .map(|source| {
        ReleaseCatalogs::bundled(&TemplateSet::embedded())
            .map(|catalogs| Checker::new(source, catalogs))
    })
    .transpose()?;
    let report_path = args.out.join(CHECK_REPORT);
    // Counting tokens takes a while on long threads: the live view has a thread of its own.
    // Its channel closes once the proxy has stopped and every exchange has ended.
    let printer = std::thread::spawn(move || {
        let mut threads: HashMap<String, (Option<ResponsesRequest>, TurnCounter)> = HashMap::new();
        loop {
            let verdicts = match receiver.try_recv() {
                Ok(event) => {
                    print_event(&event, threads.entry(event.thread.clone()).or_default());
                    checker
                        .as_mut()
                        .map(|checker| checker.exchange_ended(&event))
                }
                Err(TryRecvError::Empty) => {
                    std::thread::sleep(CHECK_POLL);
                    checker.as_mut().map(Checker::poll)
                }
                Err(TryRecvError::Disconnected) => {
                    if let Some(checker) = checker.as_mut() {
                        print_lines(&checker.finish());
                        write_report(checker, &report_path);
                    }
                    break;
                }
            };
            if let Some(checker) = checker.as_mut() {
                for note in checker.take_notes() {
                    eprintln!("codex-context proxy: {note}");
                }
                if let Some(verdicts) = verdicts.filter(|verdicts| !verdicts.is_empty()) {
                    print_lines(&verdicts);
                    write_report(checker, &report_path);
                }
            }
        }
    });
    let signal = runtime.block_on(signals.first());
    eprintln!("codex-context proxy: {signal}: stopping");
    let stopped = runtime.block_on(proxy.shutdown());
    match stopped.cut {
        0 if stopped.under_way > 0 => eprintln!(
            "codex-context proxy: the {} exchanges under way ended",
            stopped.under_way
        ),
        0 => {}
        cut => eprintln!(
            "codex-context proxy: {cut} of the {} exchanges under way did not end within {} s and were cut (recorded as failed)",
            stopped.under_way,
            DRAIN_TIMEOUT.as_secs()
        ),
    }
    if printer.join().is_err() {
        anyhow::bail!("the live view failed");
    }
    Ok(String::new())
}

/// The signals that stop the proxy, caught from before it says it listens.
struct StopSignals {
    interrupt: Signal,
    terminate: Signal,
}

impl StopSignals {
    /// Catches SIGINT and SIGTERM; needs the runtime entered.
    fn catch() -> anyhow::Result<Self> {
        Ok(Self {
            interrupt: signal(SignalKind::interrupt())
                .context("cannot listen for SIGINT (Ctrl-C)")?,
            terminate: signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
        })
    }

    /// Waits for the first of them and names it.
    async fn first(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }
}

/// Writes `--check`'s whole comparison, as it stands, to `path` (the proxy's own file).
fn write_report(checker: &mut Checker, path: &Path) {
    if let Err(error) = write_atomic(path, checker.report().as_bytes(), Existing::Replace) {
        eprintln!("codex-context proxy: {}: {error}", path.display());
    }
}

/// Prints `event`'s line; `thread` holds its thread's previous Responses request and turns.
fn print_event(event: &ProxyEvent, thread: &mut (Option<ResponsesRequest>, TurnCounter)) {
    let (previous, turns) = thread;
    let request = event.request.as_ref().and_then(parse_recorded_request);
    let line = render_exchange_line(&ExchangeView {
        thread: &event.thread,
        number: event.number,
        turn: turns.turn(event.turn_id.as_deref()),
        request: request.as_ref(),
        previous: previous.as_ref(),
        status: event.status,
        usage: event.usage.as_ref(),
        total_ms: Some(event.total_ms),
        failure: event.failure.as_deref(),
    });
    print_lines(&line);
    if request.is_some() {
        *previous = request;
    }
}

fn print_lines(lines: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(lines.as_bytes());
    let _ = stdout.flush();
}

/// `inspect DIR` on a recording: as text, per thread one line per exchange, as the live view
/// printed it; as JSON or HTML, the inspection report of the bodies as sent.
pub(super) fn inspect_recording(args: &InspectArgs) -> anyhow::Result<String> {
    let recording = codex_proxy::read_recording(&args.rollout)?;
    let report = match args.format {
        InspectFormat::Text => render_recording_text(&recording),
        InspectFormat::Json => render_json(&recording_inspection(&recording, &args.rollout))?,
        InspectFormat::Html => render_html(&recording_inspection(&recording, &args.rollout))?,
        InspectFormat::Ndjson => anyhow::bail!(
            "{}: a proxy recording is reported as text, json or html (not ndjson)",
            args.rollout.display()
        ),
    };
    match &args.out {
        Some(path) => {
            let replacing = Replacing::WithForce { force: args.force };
            write_atomic(path, report.as_bytes(), replacing.existing())
                .with_context(|| format!("--out {}", path.display()))?;
            Ok(String::new())
        }
        None => Ok(report),
    }
}

/// The recording as an inspection, its folder named as the user gave it.
pub(super) fn recording_inspection(recording: &Recording, folder: &Path) -> Inspection {
    codex_inspect::inspect_recording(recording, &folder.display().to_string())
}
