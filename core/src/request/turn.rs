//! The Responses request of one turn of a thread, built from its [`TurnContext`]: every request
//! of a thread (first turns, scripted sessions, `send`) is built here, so they cannot drift
//! apart.

use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::SandboxPolicy;

use std::collections::BTreeMap;

use super::ClientMetadata;
use super::ClientSurface;
use super::CompactionMetadata;
use super::ContentItemKindsPolicy;
use super::ModelProviderKind;
use super::ParallelToolCalls;
use super::RequestBuildError;
use super::RequestKind;
use super::ResponsesRequest;
use super::ResponsesRequestInputs;
use super::TurnMetadata;
use super::TurnMetadataWorkspace;
use super::TurnTrigger;
use super::build_responses_request;
use crate::ids::IdGenerator;
use crate::session::THREAD_SOURCE_USER;
use crate::turn_context::SUBAGENT_HEADER_COLLAB_SPAWN;
use crate::turn_context::SUBAGENT_KIND_THREAD_SPAWN;
use crate::turn_context::THREAD_SOURCE_SUBAGENT;
use crate::turn_context::TurnContext;
use codex_release::TurnMetadataKeys;
use codex_tools::ToolSpec;

/// Why a turn's request could not be built.
#[derive(Debug, thiserror::Error)]
pub enum TurnRequestError {
    #[error("cannot encode the turn metadata: {0}")]
    TurnMetadata(#[source] serde_json::Error),
    #[error(transparent)]
    Request(#[from] RequestBuildError),
}

/// The Responses request of one turn of `turn`'s thread: `input` (the initial context or the
/// session's history) and `tools` are moved into the body.
pub fn build_turn_request(
    turn: &TurnContext,
    input: Vec<ResponseItem>,
    tools: Vec<ToolSpec>,
    ids: &IdGenerator,
    content_item_kinds: ContentItemKindsPolicy,
) -> Result<ResponsesRequest, TurnRequestError> {
    let metadata = turn_metadata(turn, ids);
    build_request_with_metadata(
        turn,
        input,
        tools,
        ParallelToolCalls::Allowed,
        &metadata,
        content_item_kinds,
    )
}

/// When a local compaction runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactionPhase {
    /// Automatically, in the middle of a turn whose token usage passed the limit.
    MidTurn,
    /// As a task of its own between turns, because the user asked (`/compact`).
    StandaloneTask,
}

impl CompactionPhase {
    fn metadata(self) -> CompactionMetadata {
        match self {
            Self::MidTurn => CompactionMetadata::AUTO_MID_TURN,
            Self::StandaloneTask => CompactionMetadata::MANUAL_STANDALONE,
        }
    }
}

/// The summary request of a local compaction in `turn` (upstream:
/// `run_compact_task_inner_impl` in `codex-rs/core/src/compact.rs`): `input` is the history so
/// far with the compaction prompt appended as a user message; the request offers no tools,
/// disallows parallel tool calls and is marked `request_kind: compaction` with the compaction's
/// details (`phase`) in the turn metadata. A standalone compaction task is no root turn.
pub fn build_compaction_request(
    turn: &TurnContext,
    input: Vec<ResponseItem>,
    ids: &IdGenerator,
    content_item_kinds: ContentItemKindsPolicy,
    phase: CompactionPhase,
) -> Result<ResponsesRequest, TurnRequestError> {
    let mut metadata = turn_metadata(turn, ids);
    metadata.request_kind = RequestKind::Compaction;
    // A compaction request names no model or effort of its own.
    metadata.model = None;
    metadata.reasoning_effort = None;
    match phase {
        CompactionPhase::MidTurn => {}
        CompactionPhase::StandaloneTask => metadata.root_turn_id = None,
    }
    metadata.compaction =
        Some(serde_json::to_value(phase.metadata()).map_err(TurnRequestError::TurnMetadata)?);
    build_request_with_metadata(
        turn,
        input,
        Vec::new(),
        ParallelToolCalls::Disallowed,
        &metadata,
        content_item_kinds,
    )
}

fn build_request_with_metadata(
    turn: &TurnContext,
    input: Vec<ResponseItem>,
    tools: Vec<ToolSpec>,
    parallel_tool_calls: ParallelToolCalls,
    metadata: &TurnMetadata,
    content_item_kinds: ContentItemKindsPolicy,
) -> Result<ResponsesRequest, TurnRequestError> {
    let mut client_metadata =
        ClientMetadata::from_turn_metadata(metadata).map_err(TurnRequestError::TurnMetadata)?;
    let spawned = turn.spawned_by.as_ref();
    client_metadata.subagent = spawned.map(|_| SUBAGENT_HEADER_COLLAB_SPAWN.to_string());
    let mut inputs = ResponsesRequestInputs::new(
        &turn.model,
        turn.base_instructions.text(),
        &[],
        &[],
        spawned.map_or(&turn.thread_id, |spawned| &spawned.session_id),
    )
    .with_owned_input(input)
    .with_owned_tools(tools);
    inputs.parallel_tool_calls = parallel_tool_calls;
    inputs.reasoning_effort = turn.reasoning_effort.clone();
    inputs.reasoning_summary = turn.reasoning_summary;
    inputs.verbosity = turn.verbosity;
    inputs.client_metadata = Some(client_metadata);
    inputs.provider = ModelProviderKind::from_provider_id(&turn.provider_id);
    inputs.content_item_kinds = content_item_kinds;
    inputs.release = turn.release;
    Ok(build_responses_request(inputs)?)
}

/// The `x-codex-turn-metadata` of a root thread's turn request (the first one here; scripted
/// sessions use it for every turn).
pub fn turn_metadata(turn: &TurnContext, ids: &IdGenerator) -> TurnMetadata {
    let sandbox = match &turn.sandbox_policy {
        SandboxPolicy::DangerFullAccess | SandboxPolicy::ExternalSandbox { .. } => "none",
        SandboxPolicy::ReadOnly { .. } | SandboxPolicy::WorkspaceWrite { .. } => "seccomp",
    };
    let settings = match turn.profile().turn_metadata {
        TurnMetadataKeys::Base => false,
        TurnMetadataKeys::WithTurnSettings => true,
    };
    let (context_window_id, thread_source, workspaces) = match turn.client_surface {
        ClientSurface::CoreHarness => (Some(turn.token_budget.window_id.clone()), None, None),
        ClientSurface::ExecCli => (
            settings.then(|| turn.token_budget.window_id.clone()),
            Some(THREAD_SOURCE_USER.to_string()),
            codex_utils_git::workspace_git(&turn.cwd).map(|workspace| {
                BTreeMap::from([(
                    workspace.root.display().to_string(),
                    TurnMetadataWorkspace {
                        latest_git_commit_hash: workspace.latest_git_commit_hash,
                        has_changes: workspace.has_changes,
                    },
                )])
            }),
        ),
    };
    let spawned = turn.spawned_by.as_ref();
    let thread_source = match spawned {
        Some(_) => Some(THREAD_SOURCE_SUBAGENT.to_string()),
        None => thread_source,
    };
    TurnMetadata {
        installation_id: turn.installation_id.clone(),
        session_id: spawned
            .map_or(&turn.thread_id, |spawned| &spawned.session_id)
            .clone(),
        thread_id: turn.thread_id.clone(),
        agent_name: turn.token_budget.agent_path.clone(),
        turn_id: turn.turn_id.clone(),
        window_id: format!("{}:{}", turn.thread_id, turn.token_budget.window_number),
        window_number: settings.then_some(turn.token_budget.window_number),
        context_window_id,
        request_kind: RequestKind::Turn,
        forked_from_thread_id: turn.forked_from_thread_id.clone(),
        parent_thread_id: spawned.map(|spawned| spawned.parent_thread_id.clone()),
        parent_turn_id: spawned.map(|spawned| spawned.parent_turn_id.clone()),
        history_initialization: settings.then_some(turn.history_initialization),
        root_turn_id: Some(
            spawned
                .map_or(&turn.turn_id, |spawned| &spawned.root_turn_id)
                .clone(),
        ),
        subagent_kind: spawned.map(|_| SUBAGENT_KIND_THREAD_SPAWN.to_string()),
        turn_trigger: match turn.client_surface {
            ClientSurface::CoreHarness => None,
            ClientSurface::ExecCli => settings.then_some(TurnTrigger::Exec),
        },
        thread_source,
        sandbox: sandbox.to_string(),
        sandbox_mode: turn.sandbox_policy.mode(),
        auto_review_enabled: turn.approvals_reviewer
            == codex_protocol::ApprovalsReviewer::AutoReview,
        node_repl_auto_review_required: turn.model.node_repl_auto_review_required,
        node_repl_disabled: turn.model.node_repl_disabled,
        workspaces,
        turn_started_at_unix_ms: ids.now().as_millisecond(),
        analytics_enabled: settings.then_some(turn.analytics_enabled),
        compaction: None,
        model: settings.then(|| turn.model.slug.clone()),
        reasoning_effort: settings
            .then(|| {
                turn.reasoning_effort
                    .clone()
                    .or_else(|| turn.model.default_reasoning_level.clone())
            })
            .flatten(),
    }
}

#[cfg(test)]
#[path = "turn_tests.rs"]
mod tests;

/// The text of the newest assistant message among `items` (upstream's
/// `get_last_assistant_message_from_turn`): what a compaction's reply gives as its summary;
/// empty without one.
pub fn last_assistant_text(items: &[ResponseItem]) -> String {
    items
        .iter()
        .rev()
        .find_map(|item| match item {
            ResponseItem::Message { role, content, .. } if role == "assistant" => {
                Some(content.iter().filter_map(ContentItem::text).collect())
            }
            ResponseItem::Message { .. }
            | ResponseItem::Reasoning { .. }
            | ResponseItem::LocalShellCall { .. }
            | ResponseItem::FunctionCall { .. }
            | ResponseItem::FunctionCallOutput { .. }
            | ResponseItem::CustomToolCall { .. }
            | ResponseItem::CustomToolCallOutput { .. }
            | ResponseItem::WebSearchCall { .. }
            | ResponseItem::Compaction { .. }
            | ResponseItem::AdditionalTools { .. }
            | ResponseItem::Other(_) => None,
        })
        .unwrap_or_default()
}
