//! `codex-context request`: the body of a thread's first request, assembled from configuration
//! exactly as the harness would send it. The turn options here are shared with `explain`.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use anyhow::Context;
use codex_config::Config;
use codex_config::ConfigOverrides;
use codex_config::Surface;
use codex_config::check_working_directory;
use codex_core::AgentsMd;
use codex_core::Assembler;
use codex_core::ClientSurface;
use codex_core::FirstTurn;
use codex_core::FirstTurnOptions;
use codex_core::IdGenerator;
use codex_core::ResponsesRequest;
use codex_core::ThreadIdentity;
use codex_core::TurnContext;
use codex_core::build_first_turn_request;
use codex_core::thread_ids;
use codex_inspect::LayoutOptions;
use codex_inspect::context_window_excess;
use codex_inspect::render_request_layout;
use codex_inspect::render_request_stats;
use codex_inspect::request_stats;
use codex_prompts::TemplateSet;
use codex_protocol::AskForApproval;
use codex_protocol::SandboxMode;
use codex_release::CodexRelease;
use tracing::warn;

use crate::catalog::CatalogArgs;
use crate::catalog::configured_catalog;
use crate::config_flags::load_config;
use crate::config_flags::personality_flag;

/// Everything that shapes a first turn: configuration flags, pins for reproducible output and
/// the user's message.
#[derive(Debug, Clone, clap::Args)]
pub struct TurnArgs {
    /// Working directory of the session (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,

    /// Model slug (default: `model` from config, else the catalog's default model).
    #[arg(long, value_name = "SLUG")]
    pub model: Option<String>,

    /// Personality: `none`, `friendly` or `pragmatic`.
    #[arg(long, value_name = "PERSONALITY")]
    pub personality: Option<String>,

    /// Sandbox mode: `read-only`, `workspace-write` or `danger-full-access`.
    #[arg(long, value_name = "MODE")]
    pub sandbox: Option<String>,

    /// Approval policy (the names config.toml's `approval_policy` takes).
    #[arg(
        long,
        value_name = "POLICY",
        help = format!("Approval policy: one of {}", AskForApproval::choosable_names())
    )]
    pub approval: Option<String>,

    /// The front end the turn runs under: `interactive` (config.toml's approval policy) or
    /// `exec` (upstream's headless `codex exec`, which runs every turn with approval policy
    /// `never`, whatever config.toml or `-c` say; `--approval` still beats it). Default: `exec`
    /// for `send`, `interactive` otherwise.
    #[arg(long, value_name = "SURFACE", value_parser = clap::builder::ValueParser::new(parse_surface))]
    pub surface: Option<Surface>,

    /// The upstream Codex release to reproduce (`0.149`, `0.171`; default: `codex_version`
    /// from config, else the latest supported release; the last one given wins).
    #[arg(long, value_name = "VERSION", overrides_with = "codex_version")]
    pub codex_version: Option<CodexRelease>,

    /// Send the request in the Responses Lite shape even if the model does not use it.
    #[arg(long)]
    pub lite: bool,

    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// Directory overlaying the bundled templates file by file.
    #[arg(long, value_name = "DIR")]
    pub prompts_dir: Option<PathBuf>,

    /// CODEX_HOME (config.toml, global AGENTS.md); default `$CODEX_HOME`, else `~/.codex`.
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// A configuration override `key=value` (TOML value), like a config.toml line; repeatable.
    #[arg(short = 'c', long = "config", value_name = "KEY=VALUE")]
    pub config_overrides: Vec<String>,

    /// The user's message, appended after the initial context.
    #[arg(long, value_name = "TEXT")]
    pub message: Option<String>,

    /// Seed for ids and timestamps: the same seed and pins give the same bytes.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Pinned current date (`YYYY-MM-DD`).
    #[arg(long, value_name = "DATE")]
    pub current_date: Option<String>,

    /// Pinned IANA time zone.
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,

    /// Pinned shell name.
    #[arg(long, value_name = "SHELL")]
    pub shell: Option<String>,
}

/// How `request` prints the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RequestFormat {
    /// The body as pretty-printed JSON.
    Json,
    /// One line per input item, long texts cut, context blocks as placeholders.
    Layout,
}

/// Print the first request of a new thread
///
/// The `POST /responses` body the harness sends for the first turn: base instructions, tools and
/// the initial context (developer bundle, contextual user message, …), plus `--message` as the
/// user's message. Works with no configuration at all: bundled catalog, its default model, the
/// current directory.
#[derive(Debug, clap::Args)]
pub struct RequestArgs {
    #[command(flatten)]
    pub turn: TurnArgs,

    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: RequestFormat,

    /// After the request, print its token totals by source and its prefix reuse.
    #[arg(long)]
    pub stats: bool,
}

/// A turn and its first request.
pub struct AssembledTurn {
    pub turn: TurnContext,
    pub first: FirstTurn,
}

/// A configured turn before any request is built (what `send` runs a session from).
pub struct PreparedTurn {
    pub config: Config,
    /// The thread the turn starts.
    pub identity: ThreadIdentity,
    pub turn: TurnContext,
    pub templates: TemplateSet,
    /// The generator the turn's ids came from; items and rollout lines continue from it.
    pub ids: Arc<IdGenerator>,
}

/// Loads configuration, discovers AGENTS.md and builds the first request. Configuration and
/// AGENTS.md warnings (truncated files included) go to stderr.
pub fn assemble(args: &TurnArgs) -> anyhow::Result<AssembledTurn> {
    let PreparedTurn {
        turn,
        templates,
        ids,
        ..
    } = prepare_turn(args, Surface::Interactive)?;
    let tools = turn.builtin_tools(&templates)?;
    let first = build_first_turn_request(
        &turn,
        tools,
        &templates,
        &ids,
        FirstTurnOptions {
            user_message: args.message.as_deref(),
            ..FirstTurnOptions::default()
        },
    )?;
    warn_if_over_context_window(&first.request, turn.model.context_window);
    Ok(AssembledTurn { turn, first })
}

/// Warns when `request` is larger than its model's `context_window` (the endpoint would refuse
/// it); says whether it warned.
pub fn warn_if_over_context_window(
    request: &ResponsesRequest,
    context_window: Option<i64>,
) -> bool {
    let Some(tokens) = context_window_excess(request, context_window) else {
        return false;
    };
    warn!(
        "the request is {tokens} tokens, more than the {}-token context window of model `{}`",
        context_window.unwrap_or_default(),
        request.model
    );
    true
}

/// `--surface`'s value.
pub fn parse_surface(value: &str) -> Result<Surface, String> {
    value.parse()
}

/// Loads configuration, discovers AGENTS.md and builds the turn context (warnings go to stderr,
/// as for [`assemble`]); `default_surface` applies without `--surface`.
pub fn prepare_turn(args: &TurnArgs, default_surface: Surface) -> anyhow::Result<PreparedTurn> {
    let personality = personality_flag(args.personality.as_deref())?;
    // Parsed here rather than by clap so that a bad value is a one-line error like the others.
    let sandbox_mode = args
        .sandbox
        .as_deref()
        .map(SandboxMode::from_str)
        .transpose()
        .context("invalid --sandbox")?;
    let approval_policy = args
        .approval
        .as_deref()
        .map(AskForApproval::from_choice)
        .transpose()
        .context("invalid --approval")?
        .or(args.surface.unwrap_or(default_surface).approval_policy());
    let flags = ConfigOverrides {
        codex_home: args.codex_home.clone(),
        cwd: args.cwd.clone(),
        model: args.model.clone(),
        personality,
        sandbox_mode,
        approval_policy,
        model_catalog: args.catalog.model_catalog.clone(),
        current_date: args.current_date.clone(),
        timezone: args.timezone.clone(),
        shell: args.shell.clone(),
        seed: args.seed,
        codex_version: args.codex_version,
        ..ConfigOverrides::default()
    };
    let config = load_config(&flags, &args.config_overrides)?;
    // `--cwd` beats `-c cwd=…` and config.toml, so a bad one is always the flag's.
    check_working_directory(&config.cwd).map_err(|error| match &args.cwd {
        Some(_) => anyhow::Error::new(error).context("invalid --cwd"),
        None => anyhow::Error::new(error),
    })?;

    let templates = match &args.prompts_dir {
        Some(dir) => TemplateSet::from_dir(dir)?,
        None => TemplateSet::embedded(),
    };
    let catalog = configured_catalog(&config, &templates)?;
    let ids = thread_ids(&config)?;
    let drawn = ids.draw_turn_ids();
    let mut turn = Assembler {
        catalog: &catalog,
        templates: &templates,
    }
    .turn_context(
        &config,
        &drawn.identity,
        drawn.turn_id,
        None,
        AgentsMd::from_config(&config),
    )?;
    if args.lite {
        turn.model.use_responses_lite = true;
    }
    // The first turn of a thread the user starts in the released CLI (`codex exec`).
    turn.client_surface = ClientSurface::ExecCli;
    Ok(PreparedTurn {
        config,
        identity: drawn.identity,
        turn,
        templates,
        ids: Arc::new(ids),
    })
}

pub fn run(args: &RequestArgs) -> anyhow::Result<String> {
    let AssembledTurn { turn, first } = assemble(&args.turn)?;
    let request = match args.format {
        RequestFormat::Json => serde_json::to_string_pretty(&first.request)? + "\n",
        RequestFormat::Layout => {
            let options = LayoutOptions {
                known_texts: vec![(
                    turn.base_instructions.text().to_string(),
                    "<BASE_INSTRUCTIONS>".to_string(),
                )],
                ..LayoutOptions::default()
            };
            render_request_layout(&first.request, &options)? + "\n"
        }
    };
    Ok(match args.stats {
        true => {
            let stats = request_stats(std::slice::from_ref(&first.request));
            format!("{request}\n{}", render_request_stats(&stats))
        }
        false => request,
    })
}
