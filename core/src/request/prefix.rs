//! The items a request's `input` starts with that the thread's history does not hold: the
//! Responses Lite tool catalog and base instructions (spliced), or the base-instructions
//! developer message of a release that sends no `instructions` field.

use codex_context_fragments::ContextualUserFragment;
use codex_fragments::base_instructions::BaseInstructionsFragment;
use codex_protocol::ResponseItem;
use codex_release::BaseInstructionsPlacement;
use codex_release::LitePrefixPlacement;

use super::lite::LitePrefixIds;
use super::lite::LiteToolCatalog;
use super::lite::lite_prefix_items;
use super::stamp::stamp_recorded_item;
use crate::ids::IdGenerator;
use crate::ids::ItemIdPrefix;
use crate::ids::LiteIdNamespace;
use crate::turn_context::TurnContext;
use codex_tools::ToolSpec;

/// What [`request_input_prefix`] needs to know about the request.
#[derive(Debug, Clone, Copy)]
pub struct RequestPrefixInputs<'a> {
    pub release: codex_release::CodexRelease,
    pub use_responses_lite: bool,
    pub thread_id: &'a str,
    pub tools: &'a [ToolSpec],
    pub lite_tool_catalog: LiteToolCatalog,
    pub lite_prefix_ids: LitePrefixIds,
    pub base_instructions: &'a str,
}

/// Where a request carries the base instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstructionsCarrier {
    /// The `instructions` field.
    Field,
    /// An input item (or nothing, for empty instructions).
    Input,
}

/// Where the base instructions of a request on a model (Lite or not) of `release` travel.
pub fn instructions_carrier(
    release: codex_release::CodexRelease,
    use_responses_lite: bool,
) -> InstructionsCarrier {
    if use_responses_lite {
        return InstructionsCarrier::Input;
    }
    match release.profile().base_instructions {
        BaseInstructionsPlacement::InstructionsField => InstructionsCarrier::Field,
        BaseInstructionsPlacement::DeveloperMessage => InstructionsCarrier::Input,
    }
}

/// The items put in front of `input` (the history as recorded) when the request is built.
///
/// Lite models of a release that records its prefix in history get none when `input` already
/// holds the `additional_tools` item; without it (a history a compaction rewrote) the prefix is
/// spliced with ids derived from the thread, so the request still offers its tools.
pub fn request_input_prefix(
    prefix: RequestPrefixInputs<'_>,
    input: &[ResponseItem],
) -> Result<Vec<ResponseItem>, serde_json::Error> {
    let profile = prefix.release.profile();
    if prefix.use_responses_lite {
        let ids = match profile.lite_prefix {
            LitePrefixPlacement::SplicedWithoutIds => prefix.lite_prefix_ids,
            LitePrefixPlacement::RecordedInHistory => {
                if input
                    .iter()
                    .any(|item| matches!(item, ResponseItem::AdditionalTools { .. }))
                {
                    return Ok(Vec::new());
                }
                LitePrefixIds::Derived
            }
        };
        return lite_prefix_items(
            prefix.thread_id,
            prefix.tools,
            prefix.lite_tool_catalog,
            prefix.base_instructions,
            ids,
        );
    }
    match profile.base_instructions {
        BaseInstructionsPlacement::InstructionsField => Ok(Vec::new()),
        BaseInstructionsPlacement::DeveloperMessage => Ok(base_instructions_message(
            prefix.thread_id,
            prefix.base_instructions,
        )
        .into_iter()
        .collect()),
    }
}

/// The base instructions as a developer message (`None` when they are empty), its id a UUIDv5
/// name of the thread and the text, so every request of the thread sends the same item.
pub fn base_instructions_message(thread_id: &str, text: &str) -> Option<ResponseItem> {
    if text.is_empty() {
        return None;
    }
    let mut message = BaseInstructionsFragment::verbatim(text).into_response_item();
    if let ResponseItem::Message { id, .. } = &mut message {
        *id = Some(LiteIdNamespace::for_thread(thread_id).message_id(text));
    }
    Some(message)
}

/// Whether a new thread of `turn` records the Responses Lite items in its history.
pub fn records_lite_prefix(turn: &TurnContext) -> bool {
    match turn.profile().lite_prefix {
        LitePrefixPlacement::SplicedWithoutIds => false,
        LitePrefixPlacement::RecordedInHistory => turn.model.use_responses_lite,
    }
}

/// The Responses Lite items a new thread of `turn` records first in its history, when its
/// release records them there ([`LitePrefixPlacement::RecordedInHistory`]) and its model is a
/// Lite one; otherwise none. The `additional_tools` item and the base-instructions message get
/// ids drawn from `ids` before any other item of the initial context, as the release draws them.
pub fn recorded_lite_prefix(
    turn: &TurnContext,
    tools: &[ToolSpec],
    ids: &IdGenerator,
) -> Result<Vec<ResponseItem>, serde_json::Error> {
    if !records_lite_prefix(turn) {
        return Ok(Vec::new());
    }
    let mut items = lite_prefix_items(
        &turn.thread_id,
        tools,
        LiteToolCatalog::default(),
        turn.base_instructions.text(),
        LitePrefixIds::Omitted,
    )?;
    for item in &mut items {
        if let ResponseItem::AdditionalTools { id, .. } = item {
            *id = Some(ids.item_id(ItemIdPrefix::AdditionalTools));
        }
        stamp_recorded_item(item, ids, &turn.turn_id);
    }
    Ok(items)
}
