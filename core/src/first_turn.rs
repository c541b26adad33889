//! The whole first-turn request: world state for the step, initial context, the user's
//! message, the turn's tools and session ids, put through `build_responses_request`.
//!
//! Items are stamped as they would be recorded (client-made `msg_` ids, turn id,
//! `create_time`), so the body matches what upstream sends on a thread's first request. With a
//! seeded [`IdGenerator`] and pinned date, timezone and shell the bytes are reproducible.

use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use crate::base_instructions::BaseInstructionsSource;
use crate::context::initial_context::ContextSource;
use crate::context::initial_context::build_initial_context_with_world_state;
use crate::context::world_state::WorldStateError;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::ids::IdGenerator;
use crate::request::ContentItemKindsPolicy;
use crate::request::ResponsesRequest;
use crate::request::TurnRequestError;
use crate::request::build_turn_request;
use crate::request::recorded_lite_prefix;
use crate::request::stamp_recorded_item;
use crate::turn_context::TurnContext;
use codex_fragments::USER_TEXT_KIND;
use codex_fragments::base_instructions::BASE_INSTRUCTIONS;
use codex_fragments::user_text_message;
use codex_tools::ToolSpec;

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
    /// What a turn-input contributor added after the user's message.
    TurnInputContribution,
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
    #[error(transparent)]
    Request(#[from] TurnRequestError),
    #[error("could not serialize the tool catalog: {0}")]
    ToolCatalog(#[source] serde_json::Error),
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
    let context = build_initial_context_with_world_state(turn, &world_state, templates);

    // A release that records the Lite items in history has them first in the input; otherwise
    // the request builder splices them in front. Their origins are the same either way.
    let mut input = recorded_lite_prefix(turn, &tools, ids).map_err(FirstTurnError::ToolCatalog)?;
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
        for mut item in turn.turn_input_contributions(templates) {
            stamp_recorded_item(&mut item, ids, &turn.turn_id);
            item_origins.push(RequestItemOrigin {
                source: RequestItemSource::TurnInputContribution,
                content_kinds: item.content_item_kinds().unwrap_or_default().to_vec(),
            });
            input.push(item);
        }
    }

    let request = build_turn_request(turn, input, tools, ids, options.content_item_kinds)?;
    Ok(FirstTurn {
        request,
        item_origins,
    })
}
