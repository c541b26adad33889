//! [`ScriptedSession`]: a [`Session`] driven one scripted turn at a time, building each turn's
//! context from configuration and each turn's request as the harness would send it.
//!
//! Ids are reproducible across resumes: with a `seed`, the id generator restarts before the
//! thread's identity is drawn and again before every turn, from a stream chosen by the seed and
//! the turn's position in the thread. A thread resumed from its rollout before turn k therefore
//! draws exactly the ids it would have drawn running straight through.

mod compaction;
mod fork;
mod rollback;
mod spawn;
mod turn_flow;

use std::sync::Arc;

use codex_config::AgentsMdDiscovery;
use codex_config::AgentsMdError;
use codex_config::AgentsMdRequest;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ExtensionHost;
use codex_core::ContentItemKindsPolicy;
use codex_core::HistoryInitialization;
use codex_core::IdGenerator;
use codex_core::PreviousTurnSettings;
use codex_core::ResponsesRequest;
use codex_core::ResumedSession;
use codex_core::Session;
use codex_core::SessionInit;
use codex_core::TurnContext;
use codex_core::WorldStateSnapshot;
use codex_core::build_turn_request;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ReleaseCatalogs;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::SessionMeta;
use codex_protocol::rollout::RolloutLine;
use codex_protocol::rollout::TokenUsageInfo;
use codex_release::CodexRelease;
use codex_rollout::ForkPoint;
use codex_rollout::LineOrdinals;
use codex_rollout::LoadedRollout;
use codex_rollout::ReconstructWarning;
use codex_rollout::ResumedRollout;
use codex_rollout::RolloutDigest;
use codex_rollout::fork;

use super::CodexHome;
use super::RolloutRewrite;
use super::ScriptError;
use super::ScriptSink;
use super::TurnResponder;
use super::TurnScript;
use super::thread::IdStream;
use super::thread::first_session_meta;
use super::thread::identity_stream;
use super::thread::last_turn_context;
use super::thread::report_unread_line_types;
use super::thread::seed_stream;
use codex_core::AgentsMd;
use codex_core::Assembler;
use codex_core::AssemblyError;
use codex_core::BaselineAuthor;
use codex_core::ClientSurface;
use codex_core::GIT_ATTRIBUTION_SECTION_ID;
use codex_core::GitAttributionInputs;
use codex_core::HistoryMode;
use codex_core::MetaWriter;
use codex_core::NewThreadMeta;
use codex_core::RunningSubagent;
use codex_core::SpawnedBy;
use codex_core::ThreadIdentity;
use codex_core::new_thread_meta;
use turn_flow::EventState;

/// What every scripted session runs against besides its settings.
#[derive(Debug, Clone)]
pub struct SessionEnvironment {
    /// The model catalog of each release; a turn uses its release's.
    pub catalogs: ReleaseCatalogs,
    pub templates: TemplateSet,
    pub codex_home: CodexHome,
    /// Which extensions the host installs unasked (the CLI's: the skills extension).
    pub host: ExtensionHost,
    /// The process environment: unpinned date, time zone and shell come from here, and
    /// `current_dir` is the working directory when no setting names one.
    pub config_env: ConfigEnv,
}

/// How a turn tells the model about its settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ContextMode {
    /// Full context on the first turn (and after compaction), then only what changed.
    #[default]
    Diffs,
    /// Full context on every turn, appended as if the session had no baseline: the comparison
    /// point for what diffs save.
    ResendFullContext,
}

/// One request a scripted session sent.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptRequest {
    /// The turn's 0-based position in the thread (every `task_started` of its rollout counts).
    pub turn: usize,
    /// The sampling step within the turn, from 0: a turn whose first response calls tools
    /// sends a second request with their outputs.
    pub step: usize,
    /// The sub-agent whose thread sent it (1-based, in spawn order); `None` for the script's
    /// own thread.
    pub agent: Option<usize>,
    pub body: ResponsesRequest,
    /// The base instructions in effect (layouts show them as a placeholder).
    pub base_instructions: String,
    /// The context window of the model the request is for, when its catalog entry gives one.
    pub context_window: Option<i64>,
    /// The world-state baseline once the turn's context updates were recorded.
    pub world_state: Option<WorldStateSnapshot>,
}

/// Receives each request of a scripted session as soon as it is built, before the model is
/// asked for its response: a run printing them as they come has shown every request before a
/// failure, a kill or an endpoint that never answers.
///
/// Implementations must take requests in the order given (turn by turn, step by step within a
/// turn) and keep no more of them than they need. An error stops the run; the requests handed
/// over before it stay handed over.
pub trait RequestSink {
    /// Takes the next request.
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError>;

    /// A script turn has been played, every request it sent handed over (a progress bar counts
    /// them). Does nothing unless implemented.
    fn turn_played(&mut self) {}

    /// A script turn failed before sending any request, as the script expected. Does nothing
    /// unless implemented.
    fn turn_failed(&mut self, _failure: &FailedTurn) {}
}

/// Requests kept in memory, in order.
impl RequestSink for Vec<ScriptRequest> {
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError> {
        self.push(request.clone());
        Ok(())
    }
}

/// Where a thread's AGENTS.md comes from.
#[derive(Debug, Clone)]
enum AgentsMdSource {
    /// Discovered for each turn's cwd.
    Discovered,
    /// A sub-agent's: what its parent held when it spawned it (upstream hands a child the
    /// parent's creation-time instructions; the files are not consulted for them again).
    Inherited(Option<codex_config::AgentsMdDiscovery>),
}

impl AgentsMdSource {
    fn of(spawn: Option<&spawn::AgentSpawn>) -> Self {
        match spawn {
            Some(spawn) => AgentsMdSource::Inherited(spawn.agents_md.clone()),
            None => AgentsMdSource::Discovered,
        }
    }
}

/// A turn's context, or the AGENTS.md failure that stops the turn before any request.
enum AssembledTurn {
    Ready(Box<TurnContext>),
    AgentsMdFailed {
        /// What the turn starts under before it fails.
        context: Box<TurnContext>,
        error: AgentsMdError,
    },
}

/// How a played turn ended.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayedTurn {
    /// It sent requests; the first one.
    Sent(Box<ScriptRequest>),
    /// It failed before any request, as the script expected (`expect_failure`): the error.
    FailedBeforeRequest(String),
}

/// A turn that failed before any request, as its script expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedTurn {
    /// The turn's index in the script.
    pub turn: usize,
    pub error: String,
}

/// Whether a turn opens with a `thread_settings_applied` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SettingsAnnouncement {
    None,
    NextTurn,
}

/// A session whose turns come from a script (or the command line).
pub struct ScriptedSession<'env> {
    env: &'env SessionEnvironment,
    session: Session<ScriptSink>,
    ids: Arc<IdGenerator>,
    identity: ThreadIdentity,
    base_instructions: BaseInstructions,
    /// How the thread's rollout records messages: a new thread's scripted rollout is legacy, a
    /// resumed one keeps its rollout's mode.
    history_mode: HistoryMode,
    previous_turn: Option<PreviousTurnSettings>,
    turns_started: usize,
    /// The git-attribution extension, installed when the thread's rollout recorded its section
    /// (the released CLI's host writes one); scripted threads run without it.
    git_attribution: Option<GitAttributionInputs>,
    /// Whose turn metadata the requests carry: the released CLI's on a thread it (or `send`)
    /// started, upstream's core harness's otherwise.
    client_surface: ClientSurface,
    /// Whether the next turn opens with a `thread_settings_applied` event (see
    /// [`ScriptedSession::announce_settings_on_next_turn`]).
    settings_announcement: SettingsAnnouncement,
    mode: ContextMode,
    /// What earlier turns' events left behind (approved prefixes, the last time reminder).
    events: EventState,
    /// Lines of the thread written before this session started (a resumed rollout), which the
    /// sink does not hold; [`ScriptedSession::reload`] reads them with the sink's.
    earlier_lines: Vec<RolloutLine>,
    /// The thread's token usage so far (the last `token_count` info); a resumed thread goes on
    /// from the one its rollout recorded last.
    token_usage: Option<TokenUsageInfo>,
    /// Whether this session started the thread or read it back from its rollout.
    history_initialization: HistoryInitialization,
    /// The AGENTS.md this thread instance loaded, and what it was discovered from (see
    /// [`ScriptedSession::turn_context`]).
    agents_md_loaded: Option<(AgentsMdRequest, AgentsMdDiscovery)>,
    /// The thread and turn that spawned this thread (a sub-agent's), which its requests name.
    spawned_by: Option<SpawnedBy>,
    /// Which sub-agent this thread is (1-based, in spawn order), as its requests say.
    agent_number: Option<usize>,
    /// Where the thread's AGENTS.md comes from: discovered for each turn, or (a sub-agent's)
    /// what its parent held when it spawned it.
    agents_md: AgentsMdSource,
    /// The sub-agents this thread spawned, listed in its environment context.
    subagents: Vec<RunningSubagent>,
    /// The rollouts of the sub-agents' threads once each stopped, with each agent's place
    /// among the thread's sub-agents.
    agent_rollouts: Vec<(usize, Vec<RolloutLine>)>,
}

impl std::fmt::Debug for ScriptedSession<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedSession")
            .field("session", &self.session)
            .field("identity", &self.identity)
            .field("turns_started", &self.turns_started)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl<'env> ScriptedSession<'env> {
    /// A new thread configured by `config`: draws its identity and writes its `session_meta`.
    pub fn start(
        env: &'env SessionEnvironment,
        config: &Config,
        sink: ScriptSink,
        mode: ContextMode,
    ) -> Result<Self, ScriptError> {
        let ids = identity_stream(config)?;
        let drawn = ids.draw_turn_ids();
        let identity = drawn.identity;
        let base_instructions = env
            .assembler(config)
            .turn_context(config, &identity, drawn.turn_id, None, AgentsMd::Omitted)?
            .base_instructions
            .instructions()
            .clone();
        Self::open(
            env,
            ids,
            identity,
            base_instructions,
            config,
            sink,
            mode,
            None,
        )
    }

    /// A new thread on `identity`: writes its `session_meta` (a sub-agent's when `spawn`
    /// says who spawned it).
    #[allow(clippy::too_many_arguments)]
    fn open(
        env: &'env SessionEnvironment,
        ids: Arc<IdGenerator>,
        identity: ThreadIdentity,
        base_instructions: BaseInstructions,
        config: &Config,
        sink: ScriptSink,
        mode: ContextMode,
        spawn: Option<&spawn::AgentSpawn>,
    ) -> Result<Self, ScriptError> {
        let history_mode = config.history_mode;
        let mut meta = thread_meta(
            &identity,
            config,
            &base_instructions,
            &ids,
            None,
            history_mode,
        );
        if let Some(spawn) = spawn {
            spawn.describe(&mut meta);
        }
        let mut sink = sink;
        sink.number_lines(LineOrdinals::from_start(history_mode));
        let mut session = Session::new(
            session_init(
                env,
                &ids,
                &identity,
                &base_instructions,
                history_mode,
                config.release,
            ),
            sink,
        );
        session.record_session_meta(meta)?;
        Ok(Self {
            env,
            session,
            ids,
            identity,
            base_instructions,
            history_mode,
            previous_turn: None,
            turns_started: 0,
            git_attribution: None,
            client_surface: ClientSurface::CoreHarness,
            settings_announcement: SettingsAnnouncement::None,
            mode,
            events: EventState::default(),
            earlier_lines: Vec::new(),
            token_usage: None,
            history_initialization: HistoryInitialization::New,
            agents_md_loaded: None,
            spawned_by: spawn.map(|spawn| spawn.spawned_by.clone()),
            agent_number: spawn.map(|spawn| spawn.number),
            agents_md: AgentsMdSource::of(spawn),
            subagents: Vec::new(),
            agent_rollouts: Vec::new(),
        })
    }

    /// Continues the thread `rollout` holds, writing new lines to `sink` (which should append
    /// to that rollout, or keep them in memory). `config` is the next turn's configuration.
    /// The reconstructed history is moved into the session.
    pub fn resume(
        env: &'env SessionEnvironment,
        rollout: ResumedRollout,
        config: &Config,
        sink: ScriptSink,
        mode: ContextMode,
    ) -> Result<Self, ScriptError> {
        let ids = identity_stream(config)?;
        let drawn = ids.draw_turn_ids();
        let drawn = env.assembler(config).turn_context(
            config,
            &drawn.identity,
            drawn.turn_id,
            rollout.session.base_instructions.as_ref(),
            AgentsMd::Omitted,
        )?;
        let mut session = Self::continue_from(env, ids, drawn, rollout, sink, mode)?;
        session.history_initialization = HistoryInitialization::ColdResume;
        // The agents the thread spawned are still listed (a fork starts with none).
        session.subagents = spawn::recorded_subagents(session.session.world_state_baseline());
        Ok(session)
    }

    /// A new thread branching off `parent` at `point`: its `session_meta` and the parent's
    /// lines (moved, not copied) go to `sink` first.
    pub fn fork(
        env: &'env SessionEnvironment,
        parent: LoadedRollout,
        point: ForkPoint,
        config: &Config,
        sink: ScriptSink,
        mode: ContextMode,
    ) -> Result<Self, ScriptError> {
        let ids = identity_stream(config)?;
        Self::fork_with_ids(env, ids, parent, point, config, sink, mode, None)
    }

    /// [`ScriptedSession::fork`] with the child's identity drawn from `ids`; a sub-agent's
    /// `session_meta` when `spawn` says who spawned it.
    #[allow(clippy::too_many_arguments)]
    fn fork_with_ids(
        env: &'env SessionEnvironment,
        ids: Arc<IdGenerator>,
        parent: LoadedRollout,
        point: ForkPoint,
        config: &Config,
        mut sink: ScriptSink,
        mode: ContextMode,
        spawn: Option<&spawn::AgentSpawn>,
    ) -> Result<Self, ScriptError> {
        let parent_meta = first_session_meta(&parent);
        let recorded = parent_meta.and_then(|meta| meta.base_instructions.clone());
        let parent_id = parent_meta.map(|meta| meta.id.clone());
        let drawn = ids.draw_turn_ids();
        let identity = ThreadIdentity {
            forked_from: parent_id.clone(),
            ..drawn.identity
        };
        let drawn = env.assembler(config).turn_context(
            config,
            &identity,
            drawn.turn_id,
            recorded.as_ref(),
            AgentsMd::Omitted,
        )?;
        let base_instructions =
            recorded.unwrap_or_else(|| drawn.base_instructions.instructions().clone());
        // A fork keeps its parent's history mode, as upstream's forked history does.
        let history_mode = HistoryMode::of(parent_meta);
        let mut meta = thread_meta(
            &identity,
            config,
            &base_instructions,
            &ids,
            parent_id.as_deref(),
            history_mode,
        );
        if let Some(spawn) = spawn {
            spawn.describe(&mut meta);
        }
        let forked = fork(parent, meta, &ids.rollout_timestamp(), point);
        let digest = RolloutDigest::of(&forked.rollout.lines);
        for loaded in forked.rollout.lines {
            codex_core::RolloutSink::append(&mut sink, loaded.line)
                .map_err(|error| ScriptError::Session(codex_core::SessionError::Rollout(error)))?;
        }
        let resumed = ResumedRollout {
            session: forked.session,
            warnings: Vec::new(),
            digest,
        };
        let mut session = Self::continue_from(env, ids, drawn, resumed, sink, mode)?;
        session.spawned_by = spawn.map(|spawn| spawn.spawned_by.clone());
        session.agent_number = spawn.map(|spawn| spawn.number);
        session.agents_md = AgentsMdSource::of(spawn);
        Ok(session)
    }

    /// Keeps `rollout`'s lines (what this session was resumed from) for a later
    /// [`ScriptedSession::reload`], which re-reads them with the lines the sink holds.
    pub(crate) fn keep_earlier_lines(&mut self, rollout: &LoadedRollout) {
        self.earlier_lines = rollout
            .lines
            .iter()
            .map(|loaded| loaded.line.clone())
            .collect();
    }

    /// The session rebuilt from the lines it wrote so far, as a later `resume` would see them
    /// (read back from its sink's copy: see [`ReadBack`](super::ReadBack)); new lines keep
    /// going to the same sink.
    pub fn reload(self, config: &Config) -> Result<Self, ScriptError> {
        self.reload_rewritten(config, &[], "")
    }

    /// [`ScriptedSession::reload`] after `rewrites` changed the thread's lines so far, in the
    /// rollout file as in the copy the reload reads (as upstream's tests rewrite a rollout
    /// between runs); `location` names the step in messages.
    pub fn reload_rewritten(
        self,
        config: &Config,
        rewrites: &[RolloutRewrite],
        location: &str,
    ) -> Result<Self, ScriptError> {
        let env = self.env;
        let mode = self.mode;
        let mut earlier_lines = self.earlier_lines;
        let mut sink = self.session.into_sink();
        if !rewrites.is_empty() {
            sink.rewrite(|written| {
                let split = earlier_lines.len();
                let mut all = std::mem::take(&mut earlier_lines);
                all.append(written);
                for rewrite in rewrites {
                    rewrite.apply(&mut all, location)?;
                }
                *written = all.split_off(split);
                earlier_lines = all;
                Ok(())
            })?;
        }
        let loaded = read_thread(&earlier_lines, &mut sink)?;
        let resumed = ResumedRollout::of_lines(&loaded.lines);
        drop(loaded);
        let mut session = Self::resume(env, resumed, config, sink, mode)?;
        session.earlier_lines = earlier_lines;
        Ok(session)
    }

    fn continue_from(
        env: &'env SessionEnvironment,
        ids: Arc<IdGenerator>,
        drawn: TurnContext,
        resumed: ResumedRollout,
        sink: ScriptSink,
        mode: ContextMode,
    ) -> Result<Self, ScriptError> {
        let last_settings = last_turn_context(&resumed).cloned();
        let ResumedRollout {
            session: reconstructed,
            digest,
            ..
        } = resumed;
        // New lines go on with the numbering of the lines the thread holds (a paginated
        // rollout's), and carry none after a rollout whose lines have none.
        let mut sink = sink;
        sink.number_lines(LineOrdinals::after(digest.last_ordinal));
        if reconstructed
            .warnings
            .contains(&ReconstructWarning::MissingSessionMeta)
        {
            tracing::warn!(
                "{}; the thread gets a new id and the current model's instructions",
                ReconstructWarning::MissingSessionMeta
            );
        }
        report_unread_line_types(&digest);
        let meta = reconstructed.session_meta.as_ref();
        let identity = ThreadIdentity {
            thread_id: meta.map_or(drawn.thread_id, |meta| meta.id.clone()),
            installation_id: drawn.installation_id,
            window_id: meta
                .and_then(|meta| meta.context_window.as_ref()?.get("window_id")?.as_str())
                .map_or(drawn.token_budget.window_id, str::to_string),
            forked_from: meta.and_then(|meta| meta.forked_from_id.clone()),
        };
        let base_instructions = reconstructed
            .base_instructions
            .clone()
            .unwrap_or_else(|| drawn.base_instructions.instructions().clone());
        let previous_turn = reconstructed
            .previous_turn_settings
            .as_ref()
            .map(|settings| PreviousTurnSettings {
                model: settings.model.clone(),
                personality: last_settings.as_ref().and_then(|item| item.personality),
            });
        let turns_started = digest.turns_started;
        // The recorded model's entry, when the next turn runs another one, re-derives the
        // recorded world state. The look-up stays quiet: for a model the catalog does not know
        // the fallback entry has no catalog texts, which is all the re-derivation reads.
        let baseline_author = BaselineAuthor::of(reconstructed.session_meta.as_ref());
        let history_mode = HistoryMode::of(reconstructed.session_meta.as_ref());
        let context_window = reconstructed.context_window.clone();
        let client_surface = ClientSurface::of_thread_source(
            reconstructed
                .session_meta
                .as_ref()
                .and_then(|meta| meta.thread_source.as_deref()),
        );
        let git_attribution = reconstructed
            .world_state_baseline
            .as_ref()
            .and_then(|baseline| baseline.get(GIT_ATTRIBUTION_SECTION_ID))
            .map(|recorded| GitAttributionInputs {
                enabled: recorded.as_bool().unwrap_or(false),
                attribution: None,
            });
        let recorded_model = reconstructed
            .reference_context_item
            .as_ref()
            .filter(|item| item.model != drawn.model.slug)
            .map(|item| {
                tracing::subscriber::with_default(
                    tracing::subscriber::NoSubscriber::default(),
                    || env.catalog(drawn.release).lookup(&item.model).info,
                )
            });
        let mut session = Session::resume(
            session_init(
                env,
                &ids,
                &identity,
                &base_instructions,
                history_mode,
                drawn.release,
            ),
            ResumedSession {
                history: reconstructed.history,
                reference_context_item: reconstructed.reference_context_item,
                world_state_baseline: reconstructed
                    .world_state_baseline
                    .map(|baseline| baseline.into_iter().collect()),
                recorded_model,
                baseline_author,
            },
            sink,
        );
        session.continue_history_sequence(digest.history_sequence);
        session.continue_context_window(context_window);
        let events = EventState::resumed(session.world_state_baseline());
        let token_usage = digest
            .newest_token_usage
            .and_then(|info| serde_json::from_value(info).ok());
        Ok(Self {
            env,
            session,
            ids,
            identity,
            base_instructions,
            history_mode,
            previous_turn,
            turns_started,
            git_attribution,
            client_surface,
            settings_announcement: SettingsAnnouncement::None,
            mode,
            events,
            earlier_lines: Vec::new(),
            token_usage,
            history_initialization: HistoryInitialization::New,
            agents_md_loaded: None,
            spawned_by: None,
            agent_number: None,
            agents_md: AgentsMdSource::Discovered,
            subagents: Vec::new(),
            agent_rollouts: Vec::new(),
        })
    }

    /// Makes the next turn open with a `thread_settings_applied` event carrying its settings,
    /// written before its `task_started`: what `codex exec resume` writes when it resumes a
    /// thread, whether or not its settings changed.
    pub fn announce_settings_on_next_turn(&mut self) {
        self.settings_announcement = SettingsAnnouncement::NextTurn;
    }

    /// Applies a settings operation: the thread runs under `config` from now on. Once the
    /// thread has run a turn (upstream writes a new thread's rollout with its first turn), the
    /// operation is recorded as a `thread_settings_applied` event, even when it changes
    /// nothing; before that it only shapes the first turn. The event is drawn from the next
    /// turn's id stream, so a resumed thread writes it exactly as a straight run does.
    pub fn apply_settings(&mut self, config: &Config) -> Result<(), ScriptError> {
        if self.turns_started == 0 {
            return Ok(());
        }
        seed_stream(&self.ids, config, IdStream::Turn(self.turns_started))?;
        let turn_id = self.ids.draw_turn_ids().turn_id;
        let mut settings = self.env.assembler(config).turn_context(
            config,
            &self.identity,
            turn_id,
            Some(&self.base_instructions),
            AgentsMd::Omitted,
        )?;
        // The thread keeps its personality setting while the personality feature is off; the
        // feature only keeps it out of the model's context.
        settings.personality = config.effective_personality();
        Ok(self.session.record_thread_settings_applied(&settings)?)
    }

    /// Runs one turn under `config` and returns its first request: compaction when the turn
    /// asks for it, the context updates, the user's message, the model's output from
    /// `responder`, the turn's events and its end. A turn whose first response calls tools
    /// sends more requests; [`ScriptedSession::run_turn_steps`] hands them all over.
    pub fn run_turn(
        &mut self,
        config: &Config,
        turn: &TurnScript,
        responder: &mut dyn TurnResponder,
    ) -> Result<ScriptRequest, ScriptError> {
        // The first request is returned; later steps' requests are not kept.
        let mut unused = Vec::new();
        match self.play_turn(config, turn, responder, &mut unused)? {
            PlayedTurn::Sent(request) => Ok(*request),
            PlayedTurn::FailedBeforeRequest(error) => Err(ScriptError::invalid(
                "turn",
                format!("failed before any request: {error}"),
            )),
        }
    }

    /// The lines written so far by this process.
    pub fn lines(&self) -> &[RolloutLine] {
        self.session.sink().lines()
    }

    pub fn into_sink(self) -> ScriptSink {
        self.session.into_sink()
    }

    pub fn session(&self) -> &Session<ScriptSink> {
        &self.session
    }

    /// Drops the reference turn context and the world-state baseline, so the next turn sends
    /// full context again.
    fn forget_baseline(&mut self) {
        if self.session.reference_context_item().is_none() {
            return;
        }
        let init = session_init(
            self.env,
            &self.ids,
            &self.identity,
            &self.base_instructions,
            self.history_mode,
            self.session.release(),
        );
        let placeholder = Session::new(init.clone(), ScriptSink::memory());
        let session = std::mem::replace(&mut self.session, placeholder);
        let history = session.history().items().to_vec();
        let sequence = session.history_sequence().clone();
        let context_window = session.context_window().cloned();
        self.session = Session::resume(
            init,
            ResumedSession {
                history,
                reference_context_item: None,
                world_state_baseline: None,
                recorded_model: None,
                baseline_author: BaselineAuthor::ThisProject,
            },
            session.into_sink(),
        );
        self.session.continue_history_sequence(sequence);
        self.session.continue_context_window(context_window);
    }

    /// The turn's context: `config` with the AGENTS.md of its cwd, on this thread's identity and
    /// instructions, after the previous turn's settings.
    ///
    /// As upstream's thread keeps the instructions it loaded, the AGENTS.md discovered for a
    /// turn is kept while what discovery reads from (cwd, trust, CODEX_HOME, options) stays the
    /// same: a file edited between turns reaches the next thread (a resume, a fork), not the
    /// next turn of this one.
    fn turn_context(&mut self, config: &Config) -> Result<TurnContext, ScriptError> {
        match self.turn_context_or_failure(config)? {
            AssembledTurn::Ready(turn) => Ok(*turn),
            AssembledTurn::AgentsMdFailed { error, .. } => {
                Err(ScriptError::Assembly(AssemblyError::AgentsMd(error)))
            }
        }
    }

    /// The turn's context as [`ScriptedSession::turn_context`] builds it, or, when its AGENTS.md
    /// cannot be loaded, why, with the context the turn starts under before it fails (the same
    /// turn id, no AGENTS.md). A sub-agent, which holds its parent's instructions, reads no
    /// file and cannot fail so.
    fn turn_context_or_failure(&mut self, config: &Config) -> Result<AssembledTurn, ScriptError> {
        let turn_id = self.ids.draw_turn_ids().turn_id;
        let assembler = self.env.assembler(config);
        let codex_home = self.env.codex_home.agents_md_home();
        let agents_md = AgentsMd::Discover {
            codex_home: codex_home.clone(),
        };
        let recorded = Some(&self.base_instructions);
        let (mut turn, mut failure) = match assembler.turn_context(
            config,
            &self.identity,
            turn_id.clone(),
            recorded,
            agents_md,
        ) {
            Ok(turn) => (turn, None),
            Err(AssemblyError::AgentsMd(error)) => {
                let turn = assembler.turn_context(
                    config,
                    &self.identity,
                    turn_id,
                    recorded,
                    AgentsMd::Omitted,
                )?;
                (turn, Some(error))
            }
            Err(error) => return Err(error.into()),
        };
        let mut request = config.agents_md_request("");
        request.codex_home = codex_home;
        match (&self.agents_md_loaded, &turn.agents_md, &failure) {
            (_, _, Some(_)) => {}
            (Some((loaded_for, loaded)), _, None) if *loaded_for == request => {
                turn.agents_md = Some(loaded.clone());
            }
            (_, Some(discovered), None) => {
                self.agents_md_loaded = Some((request, discovered.clone()));
            }
            (_, None, None) => {}
        }
        turn.previous_turn = self.previous_turn.clone();
        if let Some(window) = self.session.context_window() {
            turn.token_budget.enter(window);
        }
        turn.git_attribution = self.git_attribution.clone();
        turn.client_surface = self.client_surface;
        turn.history_initialization = self.history_initialization;
        turn.spawned_by.clone_from(&self.spawned_by);
        turn.subagents.clone_from(&self.subagents);
        match &self.agents_md {
            AgentsMdSource::Discovered => {}
            AgentsMdSource::Inherited(parent) => {
                turn.agents_md.clone_from(parent);
                failure = None;
            }
        }
        Ok(match failure {
            None => AssembledTurn::Ready(Box::new(turn)),
            Some(error) => AssembledTurn::AgentsMdFailed {
                context: Box::new(turn),
                error,
            },
        })
    }

    fn build_request(&self, turn: &TurnContext) -> Result<ResponsesRequest, ScriptError> {
        Ok(build_turn_request(
            turn,
            self.session.build_prompt_input(),
            turn.builtin_tools(&self.env.templates)?,
            &self.ids,
            ContentItemKindsPolicy::Strip,
        )?)
    }
}

impl SessionEnvironment {
    /// The catalog of `release`.
    pub fn catalog(&self, release: CodexRelease) -> &ModelCatalog {
        self.catalogs.get(release.profile().catalog)
    }

    /// The assembler a turn configured by `config` is built with: its release's catalog.
    pub fn assembler(&self, config: &Config) -> Assembler<'_> {
        Assembler {
            catalog: self.catalog(config.release),
            templates: &self.templates,
        }
    }
}

/// The `session_meta` of a thread a script starts or forks off `forked_from`.
fn thread_meta(
    identity: &ThreadIdentity,
    config: &Config,
    base_instructions: &BaseInstructions,
    ids: &IdGenerator,
    forked_from: Option<&str>,
    history_mode: HistoryMode,
) -> SessionMeta {
    new_thread_meta(NewThreadMeta {
        identity,
        cwd: config.cwd.clone(),
        model_provider: Some(config.model_provider.id.clone()),
        base_instructions: Some(base_instructions.clone()),
        timestamp: ids.rollout_timestamp(),
        forked_from,
        writer: MetaWriter::Script(history_mode),
        git: None,
        release: config.release,
    })
}

fn session_init(
    env: &SessionEnvironment,
    ids: &Arc<IdGenerator>,
    identity: &ThreadIdentity,
    base_instructions: &BaseInstructions,
    history_mode: HistoryMode,
    release: CodexRelease,
) -> SessionInit {
    SessionInit {
        thread_id: identity.thread_id.clone(),
        base_instructions: base_instructions.clone(),
        templates: env.templates.clone(),
        ids: Arc::clone(ids),
        history_mode,
        release,
    }
}

/// Every line of a thread: `earlier_lines` (written before this process) and the copy `sink`
/// keeps of the rest, read back as a rollout file of them would be.
fn read_thread(
    earlier_lines: &[RolloutLine],
    sink: &mut ScriptSink,
) -> Result<LoadedRollout, ScriptError> {
    let mut earlier = Vec::new();
    for line in earlier_lines {
        serde_json::to_writer(&mut earlier, line)
            .map_err(|error| ScriptError::Reload(error.into()))?;
        earlier.push(b'\n');
    }
    match sink.read_back(&earlier).map_err(ScriptError::Reload)? {
        Some(text) => codex_rollout::parse_rollout(text).map_err(ScriptError::Reload),
        None => Err(ScriptError::Reload(std::io::Error::other(
            "the session keeps no copy of them",
        ))),
    }
}
