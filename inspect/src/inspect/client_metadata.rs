//! The `client_metadata` of a rebuilt request. Rollouts do not record it, so it is rebuilt from
//! what they do record: the thread's id, source and context window (`session_meta`), its
//! repository (`session_meta.git`), and each request's turn and settings (`turn_context`). What
//! no line records is left empty or zero (the installation id, the turn's start time, whether
//! the work tree had changes); `compare` reads only the key sets, which depend on none of them.

use std::collections::BTreeMap;

use codex_core::ClientMetadata;
use codex_core::ClientSurface;
use codex_core::ROOT_AGENT_NAME;
use codex_core::TurnMetadata;
use codex_core::TurnMetadataWorkspace;
use codex_models_manager::ModelInfo;
use codex_protocol::SandboxPolicy;
use codex_protocol::SessionMeta;
use codex_protocol::config_types::ApprovalsReviewer;
use codex_protocol::rollout::TurnContextItem;

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
}

impl RecordedThread {
    pub fn of(meta: &SessionMeta) -> Self {
        Self {
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
        let (context_window_id, workspaces) = match surface {
            ClientSurface::CoreHarness => (self.context_window_id.clone(), None),
            ClientSurface::ExecCli => (
                None,
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
            context_window_id,
            request_kind: match kind {
                RequestKind::Turn => codex_core::RequestKind::Turn,
                RequestKind::Compaction => codex_core::RequestKind::Compaction,
            },
            forked_from_thread_id: None,
            parent_thread_id: None,
            parent_turn_id: None,
            root_turn_id: Some(turn_id),
            subagent_kind: None,
            thread_source: self.thread_source.clone(),
            sandbox: sandbox.to_string(),
            sandbox_mode: policy.map(SandboxPolicy::mode).unwrap_or_default(),
            auto_review_enabled: turn_context.and_then(|context| context.approvals_reviewer)
                == Some(ApprovalsReviewer::AutoReview),
            node_repl_auto_review_required: model.node_repl_auto_review_required,
            node_repl_disabled: model.node_repl_disabled,
            workspaces,
            turn_started_at_unix_ms: 0,
            // The rollout does not record why a compaction ran; the compactions `inspect`
            // recognises (a summary inside a task, before its `compacted` line) are the
            // automatic mid-turn ones.
            compaction: match kind {
                RequestKind::Turn => None,
                RequestKind::Compaction => Some(serde_json::to_value(
                    codex_core::CompactionMetadata::AUTO_MID_TURN,
                )?),
            },
        };
        ClientMetadata::from_turn_metadata(&metadata)
    }
}
