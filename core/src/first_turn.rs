//! The whole first-turn request: world state for the step, initial context, the user's
//! message, the turn's tools and session ids, put through `build_responses_request`.
//!
//! Items are stamped as they would be recorded (client-made `msg_` ids, turn id,
//! `create_time`), so the body matches what upstream sends on a thread's first request. With a
//! seeded [`IdGenerator`] and pinned date, timezone and shell the bytes are reproducible.

use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;
use codex_protocol::ResponseItem;
use codex_protocol::SandboxPolicy;

use crate::base_instructions::BaseInstructionsSource;
use crate::context::initial_context::ContextSource;
use crate::context::initial_context::build_initial_context_with_world_state;
use crate::context::world_state::WorldStateError;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::ids::IdGenerator;
use crate::request::ClientMetadata;
use crate::request::ContentItemKindsPolicy;
use crate::request::ModelProviderKind;
use crate::request::RequestBuildError;
use crate::request::RequestKind;
use crate::request::ResponsesRequest;
use crate::request::ResponsesRequestInputs;
use crate::request::TurnMetadata;
use crate::request::build_responses_request;
use crate::request::stamp_recorded_item;
use crate::tools::ToolSpec;
use crate::turn_context::TurnContext;
use codex_fragments::USER_TEXT_KIND;
use codex_fragments::base_instructions::BASE_INSTRUCTIONS;
use codex_fragments::user_text_message;

/// Where one item of the request's `input` came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestItemSource {
    /// The Responses Lite `additional_tools` item (the built-in tool catalog).
    LiteToolCatalog,
    /// The Responses Lite base-instructions message.
    LiteBaseInstructions(BaseInstructionsSource),
    /// An initial-context message; one source per content entry.
    Context(Vec<ContextSource>),
    /// The user's message (`--message`).
    UserMessage,
}

/// One item of the request's `input`: where it came from and the content kind of each of its
/// content entries (kept here even when the body itself leaves kinds out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestItemOrigin {
    pub source: RequestItemSource,
    pub content_kinds: Vec<ContentItemKind>,
}

/// Options of [`build_first_turn_request`].
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstTurnOptions<'a> {
    /// Appended after the initial context as the user's message.
    pub user_message: Option<&'a str>,
    /// Whether `content_item_kinds` stay in the body (upstream strips them).
    pub content_item_kinds: ContentItemKindsPolicy,
}

/// The first-turn request and what it was assembled from.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstTurn {
    pub request: ResponsesRequest,
    /// Index-aligned with `request.input`.
    pub item_origins: Vec<RequestItemOrigin>,
}

#[derive(Debug, thiserror::Error)]
pub enum FirstTurnError {
    #[error("cannot build the world state: {0}")]
    WorldState(#[from] WorldStateError),
    #[error("cannot encode the turn metadata: {0}")]
    TurnMetadata(#[source] serde_json::Error),
    #[error(transparent)]
    Request(#[from] RequestBuildError),
}

/// Builds the first request of a thread for `turn`, offering `tools` (usually
/// [`TurnContext::builtin_tools`]), which are moved into the body.
pub fn build_first_turn_request(
    turn: &TurnContext,
    tools: Vec<ToolSpec>,
    templates: &TemplateSet,
    ids: &IdGenerator,
    options: FirstTurnOptions<'_>,
) -> Result<FirstTurn, FirstTurnError> {
    let world_state = build_world_state_for_step(turn, templates)?;
    let context = build_initial_context_with_world_state(turn, &world_state);

    let mut input = Vec::new();
    let mut item_origins = Vec::new();
    if turn.model.use_responses_lite {
        item_origins.push(RequestItemOrigin {
            source: RequestItemSource::LiteToolCatalog,
            content_kinds: Vec::new(),
        });
        if !turn.base_instructions.text().is_empty() {
            item_origins.push(RequestItemOrigin {
                source: RequestItemSource::LiteBaseInstructions(turn.base_instructions.source()),
                content_kinds: vec![ContentItemKind::new(BASE_INSTRUCTIONS.content_kind)],
            });
        }
    }
    for message in context.into_messages() {
        let mut item = message.item;
        stamp_recorded_item(&mut item, ids, &turn.turn_id);
        item_origins.push(RequestItemOrigin {
            source: RequestItemSource::Context(message.sources),
            content_kinds: item.content_item_kinds().unwrap_or_default().to_vec(),
        });
        input.push(item);
    }
    if let Some(text) = options.user_message {
        let mut item = user_text_message(text);
        stamp_recorded_item(&mut item, ids, &turn.turn_id);
        input.push(item);
        item_origins.push(RequestItemOrigin {
            source: RequestItemSource::UserMessage,
            content_kinds: vec![ContentItemKind::new(USER_TEXT_KIND)],
        });
    }

    let request = build_turn_request(turn, input, tools, ids, options.content_item_kinds)?;
    Ok(FirstTurn {
        request,
        item_origins,
    })
}

/// The Responses request of one turn of `turn`'s thread: `input` (the initial context or the
/// session's history) and `tools` are moved into the body. Every request of a thread is built
/// here, so first turns, scripted sessions and `send` cannot drift apart.
pub fn build_turn_request(
    turn: &TurnContext,
    input: Vec<ResponseItem>,
    tools: Vec<ToolSpec>,
    ids: &IdGenerator,
    content_item_kinds: ContentItemKindsPolicy,
) -> Result<ResponsesRequest, FirstTurnError> {
    let client_metadata = ClientMetadata::from_turn_metadata(&turn_metadata(turn, ids))
        .map_err(FirstTurnError::TurnMetadata)?;
    let mut inputs = ResponsesRequestInputs::new(
        &turn.model,
        turn.base_instructions.text(),
        &[],
        &[],
        &turn.thread_id,
    )
    .with_owned_input(input)
    .with_owned_tools(tools);
    inputs.reasoning_effort = turn.reasoning_effort.clone();
    inputs.reasoning_summary = turn.reasoning_summary;
    inputs.verbosity = turn.verbosity;
    inputs.client_metadata = Some(client_metadata);
    inputs.provider = ModelProviderKind::from_provider_id(&turn.provider_id);
    inputs.content_item_kinds = content_item_kinds;
    Ok(build_responses_request(inputs)?)
}

/// The `x-codex-turn-metadata` of a root thread's turn request (the first one here; scripted
/// sessions use it for every turn).
pub fn turn_metadata(turn: &TurnContext, ids: &IdGenerator) -> TurnMetadata {
    let sandbox = match &turn.sandbox_policy {
        SandboxPolicy::DangerFullAccess | SandboxPolicy::ExternalSandbox { .. } => "none",
        SandboxPolicy::ReadOnly { .. } | SandboxPolicy::WorkspaceWrite { .. } => "seccomp",
    };
    TurnMetadata {
        installation_id: turn.installation_id.clone(),
        session_id: turn.thread_id.clone(),
        thread_id: turn.thread_id.clone(),
        agent_name: turn.token_budget.agent_path.clone(),
        turn_id: turn.turn_id.clone(),
        window_id: format!("{}:0", turn.thread_id),
        context_window_id: turn.token_budget.window_id.clone(),
        request_kind: RequestKind::Turn,
        forked_from_thread_id: None,
        parent_thread_id: None,
        parent_turn_id: None,
        root_turn_id: Some(turn.turn_id.clone()),
        subagent_kind: None,
        thread_source: None,
        sandbox: sandbox.to_string(),
        sandbox_mode: turn.sandbox_policy.mode(),
        auto_review_enabled: turn.approvals_reviewer
            == codex_protocol::ApprovalsReviewer::AutoReview,
        node_repl_auto_review_required: turn.model.node_repl_auto_review_required,
        node_repl_disabled: turn.model.node_repl_disabled,
        turn_started_at_unix_ms: ids.now().as_millisecond(),
        compaction: None,
    }
}
