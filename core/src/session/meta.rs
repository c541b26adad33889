//! The `session_meta` line that opens a thread's rollout, for every command that starts one.

use std::path::PathBuf;

use codex_protocol::BaseInstructions;
use codex_protocol::SessionMeta;
use codex_release::CodexRelease;
use codex_release::RolloutCliVersion;
use codex_release::SessionMetaRecord;
use serde_json::Value;
use serde_json::json;

use super::HistoryMode;

use crate::ids::ThreadIdentity;

/// Which command writes the thread, which decides the fields that say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaWriter {
    /// `session run/resume/fork`: this project's own originator, and the thread's history mode
    /// when it is paginated (a legacy thread's line leaves it out, which reads as legacy).
    Script(HistoryMode),
    /// `send`: written as `codex exec` writes a thread it sends (originator, `exec` source,
    /// paginated history mode, session id, a thread the user started, the repository's git
    /// state).
    Exec,
}

/// What a `session_meta` line records about a new thread.
#[derive(Debug, Clone)]
pub struct NewThreadMeta<'a> {
    pub identity: &'a ThreadIdentity,
    pub cwd: PathBuf,
    pub model_provider: Option<String>,
    pub base_instructions: Option<BaseInstructions>,
    pub timestamp: String,
    /// The thread this one was forked from.
    pub forked_from: Option<&'a str>,
    pub writer: MetaWriter,
    /// The repository the thread starts in (`session_meta.git`); `None` outside one.
    pub git: Option<Value>,
    /// The release whose rollout shape the line takes.
    pub release: CodexRelease,
}

/// `thread_source` of a thread the user started (upstream's `ThreadSource::User`).
pub const THREAD_SOURCE_USER: &str = "user";

/// `originator` of the `session_meta` lines scripted sessions write.
const SCRIPT_ORIGINATOR: &str = "codex_context";
/// `originator` of the lines `send` writes (what `codex exec` writes).
const EXEC_ORIGINATOR: &str = "codex_exec";

/// Who rendered a resumed thread's recorded world-state baseline, which decides whether the
/// fingerprints of prose it holds can be compared with this project's renderings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BaselineAuthor {
    /// This project's scripted sessions: the fingerprints are of this project's own text, so they
    /// compare as they are and a template edited between runs is noticed.
    #[default]
    ThisProject,
    /// Another renderer (a released CLI, or the exec-style rollouts `send` writes): the
    /// fingerprints of prose are re-derived from the recorded settings before the diff.
    Other,
}

impl BaselineAuthor {
    /// The author of a rollout whose first `session_meta` is `meta` (none: another renderer).
    pub fn of(meta: Option<&SessionMeta>) -> Self {
        match meta.and_then(|meta| meta.originator.as_deref()) {
            Some(SCRIPT_ORIGINATOR) => BaselineAuthor::ThisProject,
            Some(_) | None => BaselineAuthor::Other,
        }
    }
}

/// The `session_meta` of a new thread.
pub fn new_thread_meta(inputs: NewThreadMeta<'_>) -> SessionMeta {
    let (originator, source, history_mode, session_id, thread_source) = match inputs.writer {
        MetaWriter::Script(history_mode) => {
            let history_mode = match history_mode {
                HistoryMode::Legacy => None,
                HistoryMode::Paginated => Some(history_mode.as_str().to_string()),
            };
            (SCRIPT_ORIGINATOR, "cli", history_mode, None, None)
        }
        MetaWriter::Exec => (
            EXEC_ORIGINATOR,
            "exec",
            Some(HistoryMode::Paginated.as_str().to_string()),
            Some(inputs.identity.thread_id.clone()),
            Some(THREAD_SOURCE_USER.to_string()),
        ),
    };
    let profile = inputs.release.profile();
    let (account_scoped, runtime_workspace_roots) = match profile.session_meta {
        SessionMetaRecord::CwdOnly => (None, None),
        SessionMetaRecord::AccountScopedWithWorkspaceRoots => {
            (Some(true), Some(vec![inputs.cwd.clone()]))
        }
    };
    let cli_version = match profile.rollout_cli_version {
        RolloutCliVersion::ThisProject => env!("CARGO_PKG_VERSION"),
        RolloutCliVersion::ObservedRelease => inputs.release.observed_version(),
    };
    SessionMeta {
        account_scoped,
        session_id,
        id: inputs.identity.thread_id.clone(),
        forked_from_id: inputs.forked_from.map(str::to_string),
        forked_from_ordinal_exclusive: None,
        parent_thread_id: None,
        timestamp: inputs.timestamp,
        cwd: inputs.cwd,
        runtime_workspace_roots,
        originator: Some(originator.to_string()),
        cli_version: Some(cli_version.to_string()),
        source: Some(json!(source)),
        thread_source,
        agent_nickname: None,
        agent_role: None,
        agent_path: None,
        model_provider: inputs.model_provider,
        base_instructions: inputs.base_instructions,
        instructions: None,
        dynamic_tools: None,
        selected_capability_roots: None,
        memory_mode: None,
        history_mode,
        history_base: None,
        subagent_history_start_ordinal: None,
        multi_agent_version: None,
        context_window: Some(json!({ "window_id": inputs.identity.window_id })),
        git: inputs.git,
        extra: serde_json::Map::new(),
    }
}
