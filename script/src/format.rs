//! The script file: `{"session": {CONFIG}, "turns": [TURN, …]}` where a turn is
//! `{"set": {CONFIG}, "user": "text", "reasoning": {REASONING}, "assistant": "reply",
//! "compact": "summary", "resume": true, "rollback": N, "fork": true, "edit": [EDIT],
//! "rewrite_rollout": [REWRITE]}` and CONFIG holds config.toml keys. `set` may also be an array of CONFIG objects (several
//! settings operations in a row), and `resume` a CONFIG object (the settings the restarted
//! process runs with). Keys are checked strictly: an unknown one is an error that names it and
//! where it is (`script.json: turns[2]: unknown key "asistant"`). REASONING is described in
//! [`ScriptedReasoning`](super::ScriptedReasoning). A step `{"fork": …}` without `user`
//! forks the thread and runs no turn (see [`ForkStep`]); EDIT and REWRITE are described in
//! [`FileEdit`] and [`RolloutRewrite`]. A turn may also carry events
//! (`shell`, `tool_calls`, `interrupt`, …): see [`TurnEvents`]; a `spawn_agent` tool call may
//! start a sub-agent (see [`ScriptedAgent`](super::ScriptedAgent)).

use std::num::NonZeroUsize;
use std::path::Path;
use std::path::PathBuf;

use codex_rollout::ForkPoint;
use serde_json::Map;
use serde_json::Value;

use super::EVENT_KEYS;
use super::FileEdit;
use super::RolloutRewrite;
use super::ScriptError;
use super::ScriptedReasoning;
use super::SettingsLayer;
use super::TurnEvents;
use super::agents::SpawnAgentArgs;
use super::reasoning::parse_reasoning;
use super::steps::parse_edits;
use super::steps::parse_rewrites;

/// Keys of the script object.
pub const SCRIPT_KEYS: &[&str] = &["session", "turns"];
/// Keys of one turn object besides its events ([`EVENT_KEYS`]).
pub const TURN_KEYS: &[&str] = &[
    "set",
    "user",
    "reasoning",
    "assistant",
    "compact",
    "resume",
    "rollback",
    "fork",
    "edit",
    "rewrite_rollout",
];

/// A parsed script.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// How messages name the script (the path as given).
    pub name: String,
    /// The script's folder: relative paths in it (`cwd`, …) are resolved here.
    pub base_dir: PathBuf,
    /// Settings every turn starts from (`session`).
    pub session: SettingsLayer,
    pub turns: Vec<TurnScript>,
}

/// One turn of a script. New turn events are new optional fields here (and keys in
/// [`TURN_KEYS`]), handled by [`ScriptedSession::run_turn`](super::ScriptedSession::run_turn).
#[derive(Debug, Clone, PartialEq)]
pub struct TurnScript {
    /// Settings operations applied before the turn, in order (`set`: one CONFIG object, or an
    /// array of them); each changes the settings from this turn on. Empty when the turn sends
    /// only its message. Like upstream's per-turn settings and thread-settings operations, each
    /// one applied once the thread has run a turn is recorded (`thread_settings_applied`), even
    /// when it changes nothing (`"set": {}`). On a `fork` step they are instead the
    /// configuration the new thread is created with, recorded once by the fork.
    pub set: Vec<SettingsLayer>,
    /// What the user types.
    pub user: String,
    /// Reasoning items the model produces before its first output of the turn (`reasoning`):
    /// before its assistant message, or before its tool calls when the turn has some.
    pub reasoning: Vec<ScriptedReasoning>,
    /// The model's answer to the turn's request.
    pub assistant: AssistantReply,
    /// Compact the history before the turn (`compact`).
    pub compact: Option<Compaction>,
    /// Whether the session is rebuilt from its rollout before the turn (`resume`).
    pub continuity: SessionContinuity,
    /// Drop the newest N user turns before the turn (`rollback`): after a `resume`, before
    /// the `set` operations.
    pub rollback: Option<NonZeroUsize>,
    /// What else happens around the turn (shell commands, reminders, tool calls, …).
    pub events: TurnEvents,
    /// Fork the thread first (`fork`); the script goes on in the new thread.
    pub fork: Option<ForkStep>,
    /// Files written or deleted before anything else of the step (`edit`): the run then works
    /// on a temporary copy of the scenario folder.
    pub edits: Vec<FileEdit>,
    /// Rewrites of the thread's rollout lines so far, after the edits and before the step's
    /// `resume` (which it requires: the rewritten lines are what the resume reads).
    pub rewrites: Vec<RolloutRewrite>,
}

/// `fork`: what upstream's thread fork does between turns. The current thread's rollout ends;
/// a new thread (new id, `forked_from_id` naming the parent) starts a rollout of its own with
/// its `session_meta`, the parent's lines up to the fork point, and the settings it runs with
/// (`thread_settings_applied`). Later steps play in the new thread. `"fork": true` keeps the
/// whole history; `"fork": N` cuts before the parent's N-th (0-based) user message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForkStep {
    pub point: ForkPoint,
    /// Whether a turn follows in the new thread (the step has `user`) or not.
    pub then: AfterFork,
}

/// What a fork step does once the new thread exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFork {
    /// The step's turn runs in the new thread.
    RunTurn,
    /// The step has no `user`: it only forks.
    Nothing,
}

/// Where the model's output of a turn comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AssistantReply {
    /// The script gives no reply: nothing is recorded as the model's output.
    #[default]
    Absent,
    /// `assistant`: recorded as the model's output message.
    Scripted(String),
}

/// How a turn's `compact` compacts the history before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compaction {
    /// `"compact": "summary"`: the history is rewritten with this summary at the start of the
    /// turn; no request is sent and nothing but the `compacted` line is recorded.
    Rewrite(String),
    /// `"compact": {"summary": "summary"}`: a compaction task of its own before the turn, as
    /// upstream's `/compact`: the summarization prompt is sent as a `/responses` request, the
    /// reply (this summary, from a scripted responder) is recorded, then the `compacted` line
    /// and the `context_compacted` event.
    Task(String),
}

/// Keys of the object form of `compact`.
pub const COMPACT_TASK_KEYS: &[&str] = &["summary"];

/// How a turn follows the previous one.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum SessionContinuity {
    /// The same in-memory session goes on.
    #[default]
    Continue,
    /// `"resume": true` or `"resume": {CONFIG}`: before the turn the session is reconstructed
    /// from the rollout lines written so far, as `session resume` does, and continues writing
    /// after them. The script's settings still apply.
    ResumeFromRollout {
        /// Settings the restarted process's configuration changes (the CONFIG object; empty
        /// for `true`). They apply from this turn on like `set`, but as configuration, not as
        /// an operation on the thread: nothing is recorded for them.
        restart: SettingsLayer,
    },
}

impl TurnScript {
    /// Whether playing the turn reads the thread's lines written so far back: a `resume`, a
    /// `rollback`, a `fork`, or a sub-agent spawned with the parent's history.
    pub fn reads_rollout_back(&self) -> bool {
        let forks_an_agent = self.events.tool_calls.iter().any(|call| {
            call.agent.is_some()
                && SpawnAgentArgs::parse(&call.arguments, &call.name)
                    .is_ok_and(|args| args.fork_context)
        });
        self.rollback.is_some()
            || self.fork.is_some()
            || forks_an_agent
            || match self.continuity {
                SessionContinuity::Continue => false,
                SessionContinuity::ResumeFromRollout { .. } => true,
            }
    }

    /// A turn that only sends `text`.
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            set: Vec::new(),
            user: text.into(),
            reasoning: Vec::new(),
            assistant: AssistantReply::Absent,
            compact: None,
            continuity: SessionContinuity::Continue,
            rollback: None,
            events: TurnEvents::default(),
            fork: None,
            edits: Vec::new(),
            rewrites: Vec::new(),
        }
    }
}

impl Script {
    /// Reads and parses the script at `path`; relative paths in it resolve against its folder.
    pub fn load(path: &Path) -> Result<Script, ScriptError> {
        let text =
            codex_utils_fs::read_regular_to_string(path).map_err(|source| ScriptError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        let folder = path.parent().unwrap_or(Path::new(""));
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        let base_dir = std::path::absolute(folder).map_err(|source| ScriptError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string(), &base_dir)
    }

    /// Parses script text. `name` prefixes every message; `base_dir` must be absolute.
    pub fn parse(text: &str, name: &str, base_dir: &Path) -> Result<Script, ScriptError> {
        let document: Value = serde_json::from_str(text).map_err(|source| ScriptError::Json {
            name: name.to_string(),
            source,
        })?;
        let Value::Object(document) = document else {
            return Err(ScriptError::invalid(
                name,
                "a script is a JSON object with \"turns\"",
            ));
        };
        check_keys(&document, SCRIPT_KEYS, name)?;
        let session = match document.get("session") {
            Some(Value::Object(config)) => {
                SettingsLayer::from_json(&format!("{name}: session"), config, base_dir)?
            }
            Some(_) => {
                return Err(ScriptError::invalid(
                    format!("{name}: session"),
                    "must be an object of config keys",
                ));
            }
            None => SettingsLayer::empty(format!("{name}: session")),
        };
        let turns = match document.get("turns") {
            Some(Value::Array(turns)) => turns,
            Some(_) => {
                return Err(ScriptError::invalid(
                    format!("{name}: turns"),
                    "must be an array of turn objects",
                ));
            }
            None => return Err(ScriptError::invalid(name, "missing key \"turns\"")),
        };
        let turns = turns
            .iter()
            .enumerate()
            .map(|(index, turn)| parse_turn(turn, &format!("{name}: turns[{index}]"), base_dir))
            .collect::<Result<Vec<_>, _>>()?;
        if turns.first().is_some_and(|turn| turn.rollback.is_some()) {
            return Err(ScriptError::invalid(
                format!("{name}: turns[0].rollback"),
                "the thread has run no turn to roll back",
            ));
        }
        if turns.first().is_some_and(|turn| !turn.rewrites.is_empty()) {
            return Err(ScriptError::invalid(
                format!("{name}: turns[0].rewrite_rollout"),
                "the thread has written no rollout to rewrite",
            ));
        }
        if turns.first().is_some_and(|turn| turn.fork.is_some()) {
            return Err(ScriptError::invalid(
                format!("{name}: turns[0].fork"),
                "the thread has run no turn to fork",
            ));
        }
        Ok(Script {
            name: name.to_string(),
            base_dir: base_dir.to_path_buf(),
            session,
            turns,
        })
    }
}

fn parse_turn(turn: &Value, location: &str, base_dir: &Path) -> Result<TurnScript, ScriptError> {
    let Value::Object(turn) = turn else {
        return Err(ScriptError::invalid(location, "a turn must be an object"));
    };
    let known: Vec<&str> = TURN_KEYS.iter().chain(EVENT_KEYS).copied().collect();
    check_keys(turn, &known, location)?;
    let text = |key: &str| match turn.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be a string",
        )),
    };
    let fork = parse_fork(turn, location)?;
    let user = match (text("user")?, fork) {
        (Some(user), _) => user,
        (None, Some(_)) => String::new(),
        (None, None) => return Err(ScriptError::invalid(location, "missing key \"user\"")),
    };
    let edits = match turn.get("edit") {
        None => Vec::new(),
        Some(value) => parse_edits(value, &format!("{location}.edit"))?,
    };
    let rewrites = match turn.get("rewrite_rollout") {
        None => Vec::new(),
        Some(value) => parse_rewrites(value, &format!("{location}.rewrite_rollout"))?,
    };

    let set = match turn.get("set") {
        None => Vec::new(),
        Some(Value::Object(config)) => vec![SettingsLayer::from_json(
            &format!("{location}.set"),
            config,
            base_dir,
        )?],
        Some(Value::Array(operations)) => operations
            .iter()
            .enumerate()
            .map(|(index, operation)| {
                let origin = format!("{location}.set[{index}]");
                match operation {
                    Value::Object(config) => SettingsLayer::from_json(&origin, config, base_dir),
                    _ => Err(ScriptError::invalid(
                        origin,
                        "must be an object of config keys",
                    )),
                }
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(ScriptError::invalid(
                format!("{location}.set"),
                "must be an object of config keys or an array of them",
            ));
        }
    };
    let resume_origin = format!("{location}.resume");
    let continuity = match turn.get("resume") {
        None | Some(Value::Bool(false)) => SessionContinuity::Continue,
        Some(Value::Bool(true)) => SessionContinuity::ResumeFromRollout {
            restart: SettingsLayer::empty(resume_origin),
        },
        Some(Value::Object(config)) => SessionContinuity::ResumeFromRollout {
            restart: SettingsLayer::from_json(&resume_origin, config, base_dir)?,
        },
        Some(_) => {
            return Err(ScriptError::invalid(
                resume_origin,
                "must be true, false or an object of config keys",
            ));
        }
    };
    let rollback = match turn.get("rollback") {
        None => None,
        Some(value) => Some(
            value
                .as_u64()
                .and_then(|turns| usize::try_from(turns).ok())
                .and_then(NonZeroUsize::new)
                .ok_or_else(|| {
                    ScriptError::invalid(
                        format!("{location}.rollback"),
                        "must be a positive number of user turns",
                    )
                })?,
        ),
    };
    if !rewrites.is_empty() && continuity == SessionContinuity::Continue {
        return Err(ScriptError::invalid(
            format!("{location}.rewrite_rollout"),
            "a rewritten rollout is read by a resume: the step must also have \"resume\"",
        ));
    }
    Ok(TurnScript {
        set,
        user,
        reasoning: match turn.get("reasoning") {
            None => Vec::new(),
            Some(value) => parse_reasoning(value, &format!("{location}.reasoning"))?,
        },
        assistant: text("assistant")?.map_or(AssistantReply::Absent, AssistantReply::Scripted),
        compact: parse_compact(turn.get("compact"), location)?,
        continuity,
        rollback,
        events: TurnEvents::parse(turn, location)?,
        fork,
        edits,
        rewrites,
    })
}

/// `fork`: `true` (the whole history) or N (before the N-th user message). A step without
/// `user` only forks and takes no other key; `resume` does not go with `fork`.
fn parse_fork(turn: &Map<String, Value>, location: &str) -> Result<Option<ForkStep>, ScriptError> {
    let origin = format!("{location}.fork");
    let point = match turn.get("fork") {
        None | Some(Value::Bool(false)) => return Ok(None),
        Some(Value::Bool(true)) => ForkPoint::FullHistory,
        Some(value) => value
            .as_u64()
            .and_then(|nth| usize::try_from(nth).ok())
            .map(ForkPoint::BeforeUserMessage)
            .ok_or_else(|| {
                ScriptError::invalid(
                    &origin,
                    "must be true (the whole history) or the 0-based user message to cut before",
                )
            })?,
    };
    if turn.contains_key("resume") {
        return Err(ScriptError::invalid(
            origin,
            "a fork starts a new thread: resume it in a later turn, not with the fork",
        ));
    }
    let then = match turn.contains_key("user") {
        true => AfterFork::RunTurn,
        false => {
            if let Some(key) = turn.keys().find(|key| key.as_str() != "fork") {
                return Err(ScriptError::invalid(
                    location,
                    format!("a fork step without \"user\" runs no turn: unexpected key \"{key}\""),
                ));
            }
            AfterFork::Nothing
        }
    };
    Ok(Some(ForkStep { point, then }))
}

/// `compact`: a summary string, or `{"summary": "…"}` for a compaction task.
fn parse_compact(value: Option<&Value>, location: &str) -> Result<Option<Compaction>, ScriptError> {
    let origin = format!("{location}.compact");
    match value {
        None => Ok(None),
        Some(Value::String(summary)) => Ok(Some(Compaction::Rewrite(summary.clone()))),
        Some(Value::Object(task)) => {
            check_keys(task, COMPACT_TASK_KEYS, &origin)?;
            match task.get("summary") {
                Some(Value::String(summary)) => Ok(Some(Compaction::Task(summary.clone()))),
                _ => Err(ScriptError::invalid(
                    format!("{origin}.summary"),
                    "must be the summary text (a string)",
                )),
            }
        }
        Some(_) => Err(ScriptError::invalid(
            origin,
            "must be a summary string or an object {\"summary\": \"…\"}",
        )),
    }
}

/// The first key of `object` (in file order) that is not in `known`, as an error.
pub(crate) fn check_keys(
    object: &Map<String, Value>,
    known: &[&str],
    location: &str,
) -> Result<(), ScriptError> {
    match object.keys().find(|key| !known.contains(&key.as_str())) {
        Some(key) => Err(ScriptError::invalid(
            location,
            format!(
                "unknown key \"{key}\" (expected one of: {})",
                known.join(", ")
            ),
        )),
        None => Ok(()),
    }
}
