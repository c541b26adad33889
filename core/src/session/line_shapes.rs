//! The rollout lines whose shape depends on the release the session writes as: token usage
//! (`token_count`, `token_usage_record`), `thread_settings_applied`, the line metadata of
//! response items and the bookkeeping of a compaction. The shapes themselves are built by
//! `codex-rollout`; this module decides, from the release's profile, which lines are written.

use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::rollout::TokenUsage;
use codex_protocol::rollout::TokenUsageInfo;
use codex_protocol::rollout::token_count_rollout_item;
use codex_release::AssistantContentKinds;
use codex_release::ResponseItemMetadata;
use codex_release::ThreadSettingsEvents;
use codex_release::TokenUsageRecord;
use codex_rollout::HistorySequence;
use codex_rollout::ItemOrigin;
use codex_rollout::UsageRecordIds;
use codex_rollout::UsageTotals;
use codex_rollout::token_usage_record;
use codex_rollout::token_usage_record_item;
use codex_rollout::with_reasoning_excluded;
use serde_json::Map;
use serde_json::Value;

use super::RolloutSink;
use super::Session;
use super::SessionError;
use super::thread_settings;
use crate::turn_context::TurnContext;

/// The truncation limit a tool output recorded outside a turn is budgeted against (the
/// catalog's default).
pub(super) const DEFAULT_TRUNCATION_LIMIT: i64 = 10_000;

impl<S: RolloutSink> Session<S> {
    /// Records a response's token usage as a `token_count` event line (history is unchanged).
    /// `info` is the thread's running total after that response; `None` records that the
    /// server reported no usage.
    pub fn record_token_count(
        &mut self,
        info: Option<&TokenUsageInfo>,
    ) -> Result<(), SessionError> {
        let item = token_count_rollout_item(info);
        let item = match (self.release.profile().token_usage, item) {
            (TokenUsageRecord::UsageRecordLines, RolloutItem::Other { line_type, payload }) => {
                RolloutItem::Other {
                    line_type,
                    payload: with_reasoning_excluded(payload),
                }
            }
            (TokenUsageRecord::TokenCountOnly | TokenUsageRecord::UsageRecordLines, item) => item,
        };
        self.persist(item)
    }

    /// Records the usage of one response of the current turn, right after its output: a
    /// `token_usage_record` line (the response's, the turn's and `thread`, the thread's usage)
    /// when the release writes them, nothing otherwise. `response_id` is `None` for a reply
    /// without one.
    pub fn record_response_usage(
        &mut self,
        response_id: Option<&str>,
        usage: TokenUsage,
        thread: TokenUsage,
    ) -> Result<(), SessionError> {
        match self.release.profile().token_usage {
            TokenUsageRecord::TokenCountOnly => return Ok(()),
            TokenUsageRecord::UsageRecordLines => {}
        }
        let turn = self.active_turn_mut()?;
        turn.usage = turn.usage.plus(&usage);
        let totals = UsageTotals {
            response: usage,
            turn: turn.usage,
            thread,
        };
        let turn_id = turn.turn_id.clone();
        let ids = UsageRecordIds {
            thread_id: &self.thread_id,
            turn_id: &turn_id,
            response_id,
        };
        let payload = token_usage_record(ids, &totals);
        self.last_usage_record = Some(payload.clone());
        self.persist(token_usage_record_item(payload))
    }

    /// Records that a settings operation left the thread running with `turn`'s settings (a
    /// `thread_settings_applied` event; history is unchanged). Callers write one per operation
    /// applied once the thread's rollout exists, before the turn that runs with them.
    pub fn record_thread_settings_applied(
        &mut self,
        turn: &TurnContext,
    ) -> Result<(), SessionError> {
        let payload = thread_settings::thread_settings_applied(&self.thread_id, turn)
            .map_err(SessionError::Encode)?;
        self.persist_event(payload)
    }

    /// After the `turn_context` line of a full context: the settings it applies, when the
    /// release records them there.
    pub(super) fn record_settings_of_full_context(
        &mut self,
        turn: &TurnContext,
    ) -> Result<(), SessionError> {
        match turn.profile().thread_settings_events {
            ThreadSettingsEvents::ResumedStepsOnly => Ok(()),
            ThreadSettingsEvents::EveryFullContextWithThreadId => {
                self.record_thread_settings_applied(turn)
            }
        }
    }

    /// Records the model's answer to a compaction request (its summary), which is not the
    /// turn's answer: no agent message event, and marked as compaction output.
    pub fn record_compaction_reply(
        &mut self,
        items: Vec<ResponseItem>,
    ) -> Result<(), SessionError> {
        // A compaction request does not count as sampling the history: the summary records
        // what the turn's last request had been sent.
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        let items = items
            .into_iter()
            .map(|mut item| {
                self.mark_assistant_content_kinds(&mut item);
                item
            })
            .collect();
        self.record_items_from(&turn_id, items, ItemOrigin::CompactionSummary)
    }

    /// The release whose line shapes the session writes.
    pub fn release(&self) -> codex_release::CodexRelease {
        self.release
    }

    /// How the session numbers its items in line metadata so far.
    pub fn history_sequence(&self) -> &HistorySequence {
        &self.history_sequence
    }

    /// A resumed thread numbers its items after those `sequence` (read from its rollout)
    /// numbered.
    pub fn continue_history_sequence(&mut self, sequence: HistorySequence) {
        self.history_sequence = sequence;
    }

    /// The line metadata of `item`, recorded from `origin` in `turn_id`; empty when the
    /// release writes none.
    pub(super) fn line_metadata(
        &mut self,
        item: &ResponseItem,
        origin: ItemOrigin,
        turn_id: &str,
    ) -> Map<String, Value> {
        match self.release.profile().response_item_metadata {
            ResponseItemMetadata::Omitted => Map::new(),
            ResponseItemMetadata::HistorySequence => {
                let ids = &self.ids;
                let mut metadata = Map::new();
                metadata.insert(
                    codex_rollout::LINE_METADATA_KEY.to_string(),
                    Value::Object(
                        self.history_sequence
                            .next(item, origin, turn_id, || ids.uuid_v7().to_string()),
                    ),
                );
                metadata
            }
        }
    }

    /// An assistant message's item metadata names its content kinds as the release records
    /// them.
    pub(super) fn mark_assistant_content_kinds(&self, item: &mut ResponseItem) {
        match self.release.profile().assistant_content_kinds {
            AssistantContentKinds::Omitted => {}
            AssistantContentKinds::Unknown => {
                if let ResponseItem::Message { role, .. } = &*item
                    && role == "assistant"
                    && let Some(slot) = item.metadata_slot_mut()
                {
                    let metadata =
                        slot.get_or_insert_with(InternalChatMessageMetadataPassthrough::default);
                    metadata.content_item_kinds =
                        Some(vec![ContentItemKind::new(ContentItemKind::UNKNOWN)]);
                }
            }
        }
    }
}
