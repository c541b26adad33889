//! Running a whole script, or the rest of one from a rollout.

use codex_models_manager::ModelCatalog;
use codex_protocol::RolloutLine;
use codex_rollout::LoadedRollout;
use codex_rollout::ResumedRollout;

use super::AfterFork;
use super::CodexHome;
use super::ContextMode;
use super::EditRoot;
use super::FailedTurn;
use super::PlayedTurn;
use super::RequestSink;
use super::Scratch;
use super::Script;
use super::ScriptError;
use super::ScriptRequest;
use super::ScriptSink;
use super::ScriptedSession;
use super::SessionContinuity;
use super::SessionEnvironment;
use super::SettingsLayer;
use super::TurnResponder;
use super::TurnScript;
use super::load_config;

/// What a script run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptRun {
    /// One request per turn run, in order.
    pub requests: Vec<ScriptRequest>,
    /// Every rollout line this run wrote to the script's first thread, in order.
    pub rollout: Vec<RolloutLine>,
    /// The rollout of each thread a `fork` step started, in the order they were forked.
    pub forks: Vec<Vec<RolloutLine>>,
    /// The rollout of each sub-agent a `spawn_agent` call started, in the order they were
    /// spawned.
    pub agents: Vec<Vec<RolloutLine>>,
    /// The turns that failed before any request, as the script expected (`expect_failure`).
    pub failed_turns: Vec<FailedTurn>,
}

/// What [`run_script`] keeps of a run as it goes.
#[derive(Default)]
struct KeptRun {
    requests: Vec<ScriptRequest>,
    failed_turns: Vec<FailedTurn>,
}

impl RequestSink for KeptRun {
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError> {
        self.requests.push(request.clone());
        Ok(())
    }

    fn turn_failed(&mut self, failure: &FailedTurn) {
        self.failed_turns.push(failure.clone());
    }
}

/// The rollouts a script played: its first thread's and those of the threads it forked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlayedRollouts {
    /// The lines written to the sink the run was given (the first thread's).
    pub rollout: Vec<RolloutLine>,
    /// Each forked thread's lines (kept in memory), in the order they were forked.
    pub forks: Vec<Vec<RolloutLine>>,
    /// Each sub-agent's lines (kept in memory), in the order they were spawned.
    pub agents: Vec<Vec<RolloutLine>>,
}

/// How a run starts.
#[derive(Debug, Clone, Copy)]
pub enum ScriptStart<'a> {
    /// A new thread from the first turn.
    Beginning,
    /// Continue the thread `rollout` holds (written by turns before `turn`) at `turn`.
    Resume {
        rollout: &'a LoadedRollout,
        turn: usize,
    },
}

/// Runs `script` from `start` to its end, keeping every request; lines go to `sink`. See
/// [`play_script`].
pub fn run_script(
    script: &Script,
    env: &SessionEnvironment,
    start: ScriptStart<'_>,
    sink: ScriptSink,
    mode: ContextMode,
    responder: &mut dyn TurnResponder,
) -> Result<ScriptRun, ScriptError> {
    let mut kept = KeptRun::default();
    let played = play_script(script, env, start, sink, mode, responder, &mut kept)?;
    Ok(ScriptRun {
        requests: kept.requests,
        rollout: played.rollout,
        forks: played.forks,
        agents: played.agents,
        failed_turns: kept.failed_turns,
    })
}

/// Runs `script` from `start` to its end; each request goes to `requests` as it is produced,
/// rollout lines go to `sink`, which is finished (a new rollout file renamed into place) once
/// the last turn ran. Returns the rollout lines written: a `fork` step finishes the current
/// thread's sink and goes on in a new thread whose lines are kept in memory.
///
/// The thread is created under the script's `session` settings (and a first turn's `resume`
/// settings), as upstream creates a thread from configuration: a first turn's `set` is then
/// applied as an operation on the new thread, so the thread keeps the instructions of the model
/// it was created with. Before each turn, the settings of a `resume` object apply first (the
/// restarted process's configuration), then its `rollback` drops user turns, then each `set`
/// operation applies in order; turn `i` runs under `session` and everything turns `0..=i` set.
/// A `fork` comes before all of these, its step's `set` being the configuration the new thread
/// is created with. A step's `edit`s come first of all (on the [`Scratch`] copy), and its
/// `rewrite_rollout` rewrites the lines its `resume` then reads.
pub fn play_script(
    script: &Script,
    env: &SessionEnvironment,
    start: ScriptStart<'_>,
    sink: ScriptSink,
    mode: ContextMode,
    responder: &mut dyn TurnResponder,
    requests: &mut dyn RequestSink,
) -> Result<PlayedRollouts, ScriptError> {
    // Steps that edit files run on a temporary copy of the scenario folder.
    let scratch = Scratch::prepare(script, env)?;
    let (script, env) = match &scratch {
        Some(scratch) => (&scratch.script, &scratch.env),
        None => (script, env),
    };
    let first_turn = match start {
        ScriptStart::Beginning => 0,
        ScriptStart::Resume { turn, .. } => turn,
    };
    let mut layers: Vec<&SettingsLayer> = vec![&script.session];
    for turn in script.turns.iter().take(first_turn) {
        if let SessionContinuity::ResumeFromRollout { restart } = &turn.continuity {
            layers.push(restart);
        }
        layers.extend(&turn.set);
    }
    // The provider's `/models` answer joins the catalogs before the thread starts, as
    // upstream's models manager refreshes before the first turn.
    let with_remote;
    let env = match remote_models(script, env, &layers, first_turn)? {
        Some(merged) => {
            with_remote = merged;
            &with_remote
        }
        None => env,
    };
    let mut state = RunState::Pending(sink);
    // The first thread's lines once a fork ended it, then each forked thread's.
    let mut first: Option<Vec<RolloutLine>> = None;
    let mut forks = Vec::new();
    let mut agents = Vec::new();
    for (index, turn) in script.turns.iter().enumerate().skip(first_turn) {
        let location = format!("{}: turns[{index}]", script.name);
        let configured = |layers: &[&SettingsLayer]| {
            load_config(
                layers,
                &env.codex_home,
                env.host,
                &env.config_env,
                &location,
            )
        };
        if let SessionContinuity::ResumeFromRollout { restart } = &turn.continuity {
            layers.push(restart);
        }
        let mut config = configured(&layers)?;
        if let Some(scratch) = &scratch
            && !turn.edits.is_empty()
        {
            apply_edits(turn, &config, env, scratch)?;
            // An edit may have changed CODEX_HOME's config.toml.
            config = configured(&layers)?;
        }
        let mut session = match (state, start) {
            (RunState::Running(session), _) => match turn.continuity {
                SessionContinuity::Continue => *session,
                SessionContinuity::ResumeFromRollout { .. } => session.reload_rewritten(
                    &config,
                    &turn.rewrites,
                    &format!("{location}.rewrite_rollout"),
                )?,
            },
            (RunState::Pending(_), ScriptStart::Resume { .. }) if !turn.rewrites.is_empty() => {
                return Err(ScriptError::invalid(
                    format!("{location}.rewrite_rollout"),
                    "only the run that wrote a rollout rewrites it: run the script from the start",
                ));
            }
            (RunState::Pending(sink), ScriptStart::Beginning) => {
                ScriptedSession::start(env, &config, sink, mode)?
            }
            (RunState::Pending(sink), ScriptStart::Resume { rollout, .. }) => {
                let mut session = ScriptedSession::resume(
                    env,
                    ResumedRollout::of_lines(&rollout.lines),
                    &config,
                    sink,
                    mode,
                )?;
                // A later turn may reload the thread: it re-reads these lines too.
                session.keep_earlier_lines(rollout);
                session
            }
        };
        // A fork step's `set` is the configuration the new thread is created with (upstream's
        // fork takes a configuration of its own), not operations on it.
        let operations: &[SettingsLayer] = match turn.fork {
            Some(_) => &[],
            None => &turn.set,
        };
        if let Some(fork) = turn.fork {
            if !turn.set.is_empty() {
                layers.extend(&turn.set);
                config = configured(&layers)?;
            }
            let (finished, child) =
                session.fork_thread(&config, fork.point, ScriptSink::memory())?;
            match first {
                None => first = Some(finished),
                Some(_) => forks.push(finished),
            }
            session = child;
            if fork.then == AfterFork::Nothing {
                state = RunState::Running(Box::new(session));
                continue;
            }
        }
        if let Some(turns) = turn.rollback {
            session = session.rollback(&config, turns.get())?;
        }
        for operation in operations {
            layers.push(operation);
            config = configured(&layers)?;
            session.apply_settings(&config)?;
        }
        let played = session.run_turn_steps(&config, turn, responder, requests)?;
        agents.extend(session.take_agent_rollouts());
        match (played, &turn.events.expect_failure) {
            (PlayedTurn::Sent(_), None) => {}
            (PlayedTurn::FailedBeforeRequest(error), Some(expected))
                if error.contains(expected) =>
            {
                requests.turn_failed(&FailedTurn { turn: index, error });
            }
            (PlayedTurn::FailedBeforeRequest(error), _) => {
                return Err(ScriptError::invalid(
                    format!("{location}.expect_failure"),
                    format!(
                        "the turn failed with an error that does not contain the text: {error}"
                    ),
                ));
            }
            (PlayedTurn::Sent(_), Some(_)) => {
                return Err(ScriptError::invalid(
                    format!("{location}.expect_failure"),
                    "the turn was expected to fail before any request, but it sent one",
                ));
            }
        }
        requests.turn_played();
        state = RunState::Running(Box::new(session));
    }
    let sink = match state {
        RunState::Pending(sink) => sink,
        RunState::Running(session) => session.into_sink(),
    };
    let lines = sink.finish()?;
    Ok(match first {
        None => PlayedRollouts {
            rollout: lines,
            forks,
            agents,
        },
        Some(rollout) => {
            forks.push(lines);
            PlayedRollouts {
                rollout,
                forks,
                agents,
            }
        }
    })
}

/// Applies the step's edits, each under the step's cwd or the run's CODEX_HOME (which must lie
/// in the scratch copy).
fn apply_edits(
    turn: &TurnScript,
    config: &codex_config::Config,
    env: &SessionEnvironment,
    scratch: &Scratch,
) -> Result<(), ScriptError> {
    for edit in &turn.edits {
        let root = match (edit.root, &env.codex_home) {
            (EditRoot::Cwd, _) => config.cwd.clone(),
            (EditRoot::CodexHome, CodexHome::Dir(home)) => home.clone(),
            (EditRoot::CodexHome, CodexHome::Isolated) => {
                return Err(ScriptError::invalid(
                    &edit.location,
                    "the run has no CODEX_HOME to edit (give one with --codex-home)",
                ));
            }
        };
        edit.apply(&root, scratch.folder())?;
    }
    Ok(())
}

/// Before the first turn run the sink waits; afterwards the session owns it.
enum RunState<'env> {
    Pending(ScriptSink),
    Running(Box<ScriptedSession<'env>>),
}

/// `env` with the `remote_models` file of the thread's starting settings merged into every
/// catalog; `None` when no setting names one.
fn remote_models(
    script: &Script,
    env: &SessionEnvironment,
    layers: &[&SettingsLayer],
    first_turn: usize,
) -> Result<Option<SessionEnvironment>, ScriptError> {
    let mut starting = layers.to_vec();
    if let Some(SessionContinuity::ResumeFromRollout { restart }) =
        script.turns.get(first_turn).map(|turn| &turn.continuity)
    {
        starting.push(restart);
    }
    let location = format!("{}: turns[{first_turn}]", script.name);
    let config = load_config(
        &starting,
        &env.codex_home,
        env.host,
        &env.config_env,
        &location,
    )?;
    let Some(path) = &config.remote_models else {
        return Ok(None);
    };
    let remote = ModelCatalog::from_path(path).map_err(|error| {
        ScriptError::invalid(format!("{location}: remote_models"), error.to_string())
    })?;
    Ok(Some(SessionEnvironment {
        catalogs: env.catalogs.clone().with_remote_models(remote.models()),
        ..env.clone()
    }))
}
