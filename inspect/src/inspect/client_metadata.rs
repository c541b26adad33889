//! The `client_metadata` of a rebuilt request. Rollouts do not record it, so it is rebuilt from
//! what they do record: the thread's id, source, context window and release (`session_meta`),
//! its repository (`session_meta.git`), and each request's turn and settings (`turn_context`).
//! What no line records is left empty, zero or false (the installation id, the turn's start
//! time, whether the work tree had changes, whether analytics were on), and every request counts
//! as one of a new thread's (`history_initialization`); `compare` reads only the key sets, which
//! depend on none of them.

use std::collections::BTreeMap;

use codex_core::ClientMetadata;
use codex_core::ClientSurface;
use codex_core::HistoryInitialization;
use codex_core::ROOT_AGENT_NAME;
use codex_core::TurnMetadata;
use codex_core::TurnMetadataWorkspace;
use codex_core::TurnTrigger;
use codex_models_manager::ModelInfo;
use codex_protocol::SandboxPolicy;
use codex_protocol::SessionMeta;
use codex_protocol::config_types::ApprovalsReviewer;
use codex_protocol::rollout::TurnContextItem;
use codex_release::CodexRelease;
use codex_release::TurnMetadataKeys;

use super::model::RequestKind;

/// What a rollout's `session_meta` says about the requests of its thread.
#[derive(Debug, Clone, Default)]
pub(super) struct RecordedThread {
    thread_id: String,
    thread_source: Option<String>,
    context_window_id: Option<String>,
    /// The recorded working directory (the repository root is not recorded).
    cwd: String,
    commit_hash: Option<String>,
    /// The release that wrote the rollout: which keys the turn metadata has.
    release: CodexRelease,
}

impl RecordedThread {
    pub fn of(meta: &SessionMeta, release: CodexRelease) -> Self {
        Self {
            release,
            thread_id: meta.id.clone(),
            thread_source: meta.thread_source.clone(),
            context_window_id: meta
                .context_window
                .as_ref()
                .and_then(|window| window.get("window_id")?.as_str())
                .map(str::to_string),
            cwd: meta.cwd.display().to_string(),
            commit_hash: meta
                .git
                .as_ref()
                .and_then(|git| git.get("commit_hash")?.as_str())
                .map(str::to_string),
        }
    }

    /// The `client_metadata` of a request of kind `kind` in turn `turn_id` made under
    /// `turn_context`.
    pub fn client_metadata(
        &self,
        kind: RequestKind,
        turn_id: Option<&str>,
        turn_context: Option<&TurnContextItem>,
        model: &ModelInfo,
    ) -> Result<ClientMetadata, serde_json::Error> {
        let turn_id = turn_id.unwrap_or_default().to_string();
        let surface = ClientSurface::of_thread_source(self.thread_source.as_deref());
        let settings = match self.release.profile().turn_metadata {
            TurnMetadataKeys::Base => false,
            TurnMetadataKeys::WithTurnSettings => true,
        };
        let (context_window_id, workspaces) = match surface {
            ClientSurface::CoreHarness => (self.context_window_id.clone(), None),
            ClientSurface::ExecCli => (
                settings.then(|| self.context_window_id.clone()).flatten(),
                self.commit_hash.as_ref().map(|hash| {
                    BTreeMap::from([(
                        self.cwd.clone(),
                        TurnMetadataWorkspace {
                            latest_git_commit_hash: Some(hash.clone()),
                            has_changes: None,
                        },
                    )])
                }),
            ),
        };
        let policy = turn_context.map(|context| &context.sandbox_policy);
        let sandbox = match policy {
            Some(SandboxPolicy::DangerFullAccess | SandboxPolicy::ExternalSandbox { .. }) => "none",
            Some(SandboxPolicy::ReadOnly { .. } | SandboxPolicy::WorkspaceWrite { .. }) | None => {
                "seccomp"
            }
        };
        let metadata = TurnMetadata {
            installation_id: String::new(),
            session_id: self.thread_id.clone(),
            thread_id: self.thread_id.clone(),
            agent_name: ROOT_AGENT_NAME.to_string(),
            turn_id: turn_id.clone(),
            window_id: format!("{}:0", self.thread_id),
            window_number: settings.then_some(0),
            context_window_id,
            request_kind: match kind {
                RequestKind::Turn => codex_core::RequestKind::Turn,
                RequestKind::Compaction => codex_core::RequestKind::Compaction,
            },
            forked_from_thread_id: None,
            parent_thread_id: None,
            parent_turn_id: None,
            // Whether a request came from a resumed process is not told apart here.
            history_initialization: settings.then_some(HistoryInitialization::New),
            root_turn_id: Some(turn_id),
            subagent_kind: None,
            thread_source: self.thread_source.clone(),
            turn_trigger: match surface {
                ClientSurface::CoreHarness => None,
                ClientSurface::ExecCli => settings.then_some(TurnTrigger::Exec),
            },
            sandbox: sandbox.to_string(),
            sandbox_mode: policy.map(SandboxPolicy::mode).unwrap_or_default(),
            auto_review_enabled: turn_context.and_then(|context| context.approvals_reviewer)
                == Some(ApprovalsReviewer::AutoReview),
            node_repl_auto_review_required: model.node_repl_auto_review_required,
            node_repl_disabled: model.node_repl_disabled,
            workspaces,
            turn_started_at_unix_ms: 0,
            analytics_enabled: settings.then_some(false),
            // The rollout does not record why a compaction ran; the compactions `inspect`
            // recognises (a summary inside a task, before its `compacted` line) are the
            // automatic mid-turn ones.
            compaction: match kind {
                RequestKind::Turn => None,
                RequestKind::Compaction => Some(serde_json::to_value(
                    codex_core::CompactionMetadata::AUTO_MID_TURN,
                )?),
            },
            model: match kind {
                RequestKind::Turn => settings.then(|| model.slug.clone()),
                RequestKind::Compaction => None,
            },
            reasoning_effort: match kind {
                RequestKind::Turn => settings
                    .then(|| {
                        turn_context
                            .and_then(|context| context.effort.clone())
                            .or_else(|| model.default_reasoning_level.clone())
                    })
                    .flatten(),
                RequestKind::Compaction => None,
            },
        };
        ClientMetadata::from_turn_metadata(&metadata)
    }
}
