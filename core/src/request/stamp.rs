//! Ids and `internal_chat_message_metadata_passthrough` stamped on items as they are recorded.

use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;

use crate::ids::IdGenerator;
use crate::ids::ItemIdPrefix;

/// How an item is stamped, following upstream's captured requests: items the harness writes
/// (user/developer messages, tool outputs) get a client-made id, the turn id and `create_time`;
/// tool calls the model made get an `fc_` id when the server sent none and the turn id; any other
/// model output keeps the server's id (or none) and gets only the turn id.
enum Stamp {
    HarnessAuthored(ItemIdPrefix),
    ModelToolCall,
    ModelOutput,
    Untouched,
}

/// Stamps `item` for recording in `turn_id`. Ids and metadata already present are kept, so
/// stamping twice changes nothing.
pub fn stamp_recorded_item(item: &mut ResponseItem, ids: &IdGenerator, turn_id: &str) {
    let stamp = match &*item {
        ResponseItem::Message { role, .. } if role == "assistant" => Stamp::ModelOutput,
        ResponseItem::Message { .. } => Stamp::HarnessAuthored(ItemIdPrefix::Message),
        ResponseItem::FunctionCall { .. } | ResponseItem::CustomToolCall { .. } => {
            Stamp::ModelToolCall
        }
        ResponseItem::FunctionCallOutput { .. } | ResponseItem::CustomToolCallOutput { .. } => {
            Stamp::HarnessAuthored(ItemIdPrefix::FunctionCallOutput)
        }
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. } => Stamp::ModelOutput,
        ResponseItem::AdditionalTools { .. } | ResponseItem::Other(_) => Stamp::Untouched,
    };
    match stamp {
        Stamp::HarnessAuthored(prefix) => {
            assign_missing_id(item, ids, prefix);
            item.set_turn_id_if_missing(turn_id);
            if let Some(slot) = item.metadata_slot_mut() {
                let metadata =
                    slot.get_or_insert_with(InternalChatMessageMetadataPassthrough::default);
                if metadata.create_time.is_none() {
                    metadata.create_time = Some(ids.create_time());
                }
            }
        }
        Stamp::ModelToolCall => {
            assign_missing_id(item, ids, ItemIdPrefix::FunctionCall);
            item.set_turn_id_if_missing(turn_id);
        }
        Stamp::ModelOutput => item.set_turn_id_if_missing(turn_id),
        Stamp::Untouched => {}
    }
}

/// Gives a message a new client-made id, replacing any it had: a compaction task's replacement
/// history is recorded afresh, every message of it under a new id.
pub fn assign_new_message_id(item: &mut ResponseItem, ids: &IdGenerator) {
    match item {
        ResponseItem::Message { id, .. } => *id = Some(ids.item_id(ItemIdPrefix::Message)),
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => {}
    }
}

fn assign_missing_id(item: &mut ResponseItem, ids: &IdGenerator, prefix: ItemIdPrefix) {
    let slot = match item {
        ResponseItem::Message { id, .. }
        | ResponseItem::FunctionCall { id, .. }
        | ResponseItem::CustomToolCall { id, .. }
        | ResponseItem::FunctionCallOutput { id, .. }
        | ResponseItem::CustomToolCallOutput { id, .. }
        | ResponseItem::Reasoning { id, .. }
        | ResponseItem::LocalShellCall { id, .. }
        | ResponseItem::WebSearchCall { id, .. }
        | ResponseItem::Compaction { id, .. }
        | ResponseItem::AdditionalTools { id, .. } => id,
        ResponseItem::Other(_) => return,
    };
    if slot.as_deref().is_none_or(str::is_empty) {
        *slot = Some(ids.item_id(prefix));
    }
}
