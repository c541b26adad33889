//! Rewriting history wholesale: local compaction and rollback.

use std::sync::Arc;

use codex_context_fragments::ContextualUserFragment;
use codex_prompts::TemplateId;
use codex_protocol::CompactedItem;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::TurnContextItem;
use codex_protocol::rollout::CompactionWindowId;
use codex_protocol::rollout::TokenUsageInfo;
use codex_release::CompactionRecord;
use codex_rollout::ContextWindow;
use codex_rollout::RetainedMessage;
use codex_rollout::resume_metadata;
use serde_json::Map;
use serde_json::Value;

use super::RolloutSink;
use super::Session;
use super::SessionError;
use super::events;
use super::turn_context_item::turn_context_item;
use crate::context::initial_context::build_initial_context_with_world_state;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::context_manager::RollbackOutcome;
use crate::context_manager::full_world_state_item;
use crate::request::assign_new_message_id;
use crate::request::stamp_recorded_item;
use crate::turn_context::TurnContext;
use codex_fragments::compaction_summary::CompactionSummary;
use codex_fragments::is_compaction_summary;
use codex_fragments::is_user_turn_boundary;

/// The bookkeeping a newer release's `compacted` line carries (see
/// [`Session::compaction_bookkeeping`]); every field absent by default.
#[derive(Debug, Default)]
struct CompactionBookkeeping {
    replacement_history_metadata: Option<Vec<Value>>,
    retained_context: Option<Value>,
    response_id: Option<String>,
    usage_record: Option<Value>,
    resume_metadata: Option<Value>,
}

/// The text of a message's content entries, joined.
fn item_text(item: &ResponseItem) -> String {
    match item {
        ResponseItem::Message { content, .. } => {
            content.iter().filter_map(ContentItem::text).collect()
        }
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => String::new(),
    }
}

/// What a thread rollback did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollback {
    pub outcome: RollbackOutcome,
    /// The thread's token usage after it (what the `token_count` event recorded).
    pub token_usage: Option<TokenUsageInfo>,
}

/// The context window a mid-turn compaction opens (upstream: `advance_auto_compact_window`).
struct CompactionWindow {
    /// The window's number: one more than the window the thread was in.
    number: u64,
    first_id: String,
    previous_id: String,
    id: String,
}

impl<S: RolloutSink> Session<S> {
    /// Local compaction: history becomes the user's own messages (injected context and earlier
    /// summaries left out) followed by a summary message, the reference and baseline are
    /// cleared so the next turn re-injects full context, and a `compacted` line records the
    /// replacement history. `summary` is the model's summary text.
    pub fn compact(&mut self, summary: &str) -> Result<(), SessionError> {
        let (summary_text, replacement) = self.compacted_history(summary);
        self.persist_compacted(summary_text, &replacement, None, None)?;
        self.history.replace(replacement);
        self.reference_context_item = None;
        // Turns recorded before the compaction can no longer be restored one by one.
        self.turn_checkpoints.clear();
        Ok(())
    }

    /// A compaction task's end (upstream: manual `/compact`, `run_compact_task` in
    /// `codex-rs/core/src/compact.rs`), once the summary reply is recorded: like
    /// [`Session::compact`] the history becomes the user's messages and the summary and the
    /// next turn re-injects full context, but the `compacted` line names the context window the
    /// compaction opens. Then a `token_count` with the usage recounted for the new history
    /// (`usage` the thread's so far) and the compaction's completion (begun at
    /// `started_at_ms`). Returns the recounted usage.
    pub fn compact_task(
        &mut self,
        summary: &str,
        turn: &TurnContext,
        usage: Option<&TokenUsageInfo>,
        started_at_ms: i64,
    ) -> Result<TokenUsageInfo, SessionError> {
        let (summary_text, mut replacement) = self.compacted_history(summary);
        let window = self.open_context_window(turn);
        for item in &mut replacement {
            assign_new_message_id(item, &self.ids);
        }
        self.persist_compacted(summary_text, &replacement, Some(window), None)?;
        self.history.replace(replacement);
        self.reference_context_item = None;
        self.turn_checkpoints.clear();
        let estimate = self.history.estimated_tokens(&self.base_instructions.text);
        let window_size = turn.model.usable_context_window();
        let token_usage = TokenUsageInfo::after_rewrite(usage, estimate, window_size);
        self.record_token_count(Some(&token_usage))?;
        self.record_context_compaction(
            started_at_ms,
            crate::request::CompactionPhase::StandaloneTask,
        )?;
        Ok(token_usage)
    }

    /// Local compaction in the middle of `turn`, once the model wrote `summary` (upstream:
    /// `InitialContextInjection::BeforeLastUserMessage` in `codex-rs/core/src/compact.rs`): the
    /// turn goes on after it, so the replacement history carries the full initial context of
    /// `turn` just before the newest real user message (before the summary when there is none).
    /// The `compacted` line is followed by a full `world_state` record and a `turn_context` line:
    /// the rendered context is the new baseline and `turn` the new reference.
    pub fn compact_mid_turn(
        &mut self,
        summary: &str,
        turn: &TurnContext,
    ) -> Result<(), SessionError> {
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        let (summary_text, mut replacement) = self.compacted_history(summary);
        for item in &mut replacement {
            stamp_recorded_item(item, &self.ids, &turn_id);
        }
        let world_state = build_world_state_for_step(turn, &self.templates)?;
        let mut initial =
            build_initial_context_with_world_state(turn, &world_state, &self.templates)
                .into_items();
        for item in &mut initial {
            stamp_recorded_item(item, &self.ids, &turn_id);
        }
        let prefix = self.templates.text(TemplateId::CompactionSummaryPrefix);
        let summary_index = replacement.len().saturating_sub(1);
        let position = replacement[..summary_index]
            .iter()
            .rposition(|item| is_user_turn_boundary(item) && !is_compaction_summary(item, prefix))
            .unwrap_or(summary_index);
        replacement.splice(position..position, initial);
        let window = self.open_context_window(turn);
        let reference = turn_context_item(turn);
        let bookkeeping = match turn.profile().compaction_record {
            CompactionRecord::Windows => None,
            CompactionRecord::WithResumeBookkeeping => {
                Some(self.compaction_bookkeeping(&replacement, &turn_id, &reference))
            }
        };
        self.persist_compacted(summary_text, &replacement, Some(window), bookkeeping)?;
        self.history.replace(replacement);
        let snapshot = world_state.snapshot();
        self.persist(RolloutItem::WorldState(full_world_state_item(&snapshot)))?;
        self.history.set_world_state_baseline(Some(snapshot));
        self.persist(RolloutItem::TurnContext(reference.clone().into()))?;
        self.reference_context_item = Some(reference);
        self.turn_checkpoints.clear();
        self.record_settings_of_full_context(turn)
    }

    /// What a newer release's `compacted` line records besides the windows: the replacement
    /// history's line metadata (numbering the items it adds), the user's messages it retains,
    /// the summary response's usage record and what a resume starts from.
    fn compaction_bookkeeping(
        &mut self,
        replacement: &[ResponseItem],
        turn_id: &str,
        reference: &TurnContextItem,
    ) -> CompactionBookkeeping {
        let metadata: Vec<Map<String, Value>> = replacement
            .iter()
            .map(|item| self.history_sequence.replacement(item))
            .collect();
        let retained: Vec<RetainedMessage> = replacement
            .iter()
            .zip(&metadata)
            .filter(|(item, _)| is_user_turn_boundary(item))
            .map(|(item, metadata)| RetainedMessage {
                metadata: metadata.clone(),
                text: item_text(item),
            })
            .collect();
        let usage_record = self.last_usage_record.clone();
        CompactionBookkeeping {
            retained_context: Some(self.history_sequence.retained_context(&retained)),
            replacement_history_metadata: Some(metadata.into_iter().map(Value::Object).collect()),
            response_id: usage_record
                .as_ref()
                .and_then(|record| record.get("response_id")?.as_str().map(str::to_string)),
            usage_record,
            resume_metadata: Some(resume_metadata(&self.thread_id, turn_id, reference)),
        }
    }

    /// The summary message's text and the history a compaction leaves: the user's own messages
    /// (injected context and earlier summaries left out) followed by the summary message.
    fn compacted_history(&self, summary: &str) -> (String, Vec<ResponseItem>) {
        let prefix = self.templates.text(TemplateId::CompactionSummaryPrefix);
        let summary_fragment = CompactionSummary::new(summary, &self.templates);
        let summary_text = summary_fragment.render();
        let mut replacement: Vec<ResponseItem> = self
            .history
            .items()
            .iter()
            .filter(|item| is_user_turn_boundary(item) && !is_compaction_summary(item, prefix))
            .cloned()
            .collect();
        let mut summary_message = summary_fragment.into_response_item();
        if let Some(turn) = &self.active_turn {
            summary_message.set_turn_id_if_missing(&turn.turn_id);
        }
        replacement.push(summary_message);
        (summary_text, replacement)
    }

    /// The `compacted` line recording `replacement` as the new history (and the context window
    /// it opens, when known).
    /// The context window a compaction during or before `turn` opens, which the session is in
    /// from now on: the next number after the window `turn` ran in.
    fn open_context_window(&mut self, turn: &TurnContext) -> CompactionWindow {
        let window = CompactionWindow {
            number: turn.token_budget.window_number.saturating_add(1),
            first_id: turn.token_budget.first_window_id.clone(),
            previous_id: turn.token_budget.window_id.clone(),
            id: self.ids.uuid_v7().to_string(),
        };
        self.context_window = Some(ContextWindow {
            number: window.number,
            id: window.id.clone(),
            previous_id: Some(window.previous_id.clone()),
        });
        window
    }

    /// The context window the newest compaction opened; `None` while the thread is in its
    /// first. Turns built after a compaction enter it (`TokenBudgetSettings::enter`).
    pub fn context_window(&self) -> Option<&ContextWindow> {
        self.context_window.as_ref()
    }

    /// Continues in `window`, the one a resumed or forked thread's rollout was in.
    pub fn continue_context_window(&mut self, window: Option<ContextWindow>) {
        self.context_window = window;
    }

    fn persist_compacted(
        &mut self,
        message: String,
        replacement: &[ResponseItem],
        window: Option<CompactionWindow>,
        bookkeeping: Option<CompactionBookkeeping>,
    ) -> Result<(), SessionError> {
        let bookkeeping = bookkeeping.unwrap_or_default();
        let (number, first_id, previous_id, id) = match window {
            Some(window) => (
                Some(window.number),
                Some(window.first_id),
                Some(window.previous_id),
                Some(CompactionWindowId::Id(window.id)),
            ),
            None => (None, None, None, None),
        };
        self.persist(RolloutItem::Compacted(
            CompactedItem {
                message,
                replacement_history: Some(replacement.to_vec()),
                replacement_history_metadata: bookkeeping.replacement_history_metadata,
                guardian_history: None,
                retained_context: bookkeeping.retained_context,
                mcp_resource_origins: None,
                window_number: number,
                first_window_id: first_id,
                previous_window_id: previous_id,
                window_id: id,
                compaction_response_id: bookkeeping.response_id,
                latest_token_usage_record: bookkeeping.usage_record,
                resume_metadata: bookkeeping.resume_metadata,
                extra: serde_json::Map::new(),
            }
            .into(),
        ))
    }

    /// Thread rollback (upstream: `thread_rollback`): drops the newest `turns` user turns with
    /// the context updates recorded before them, then writes a `token_count` event with the
    /// thread's usage recounted for what history now holds (`usage` is the thread's usage so
    /// far, `model_context_window` the current model's window) and a `thread_rolled_back` event
    /// recording `turns` as asked. The reference and baseline go back to what they were before
    /// the oldest dropped turn when that is known; otherwise both are cleared and the next turn
    /// injects full context. Rolling back zero turns changes and writes nothing.
    pub fn rollback(
        &mut self,
        turns: usize,
        usage: Option<&TokenUsageInfo>,
        model_context_window: Option<i64>,
    ) -> Result<Rollback, SessionError> {
        if turns == 0 {
            return Ok(Rollback {
                outcome: RollbackOutcome::default(),
                token_usage: usage.cloned(),
            });
        }
        let outcome = self.history.drop_last_n_user_turns(turns);
        let restorable = self.turn_checkpoints.len() >= outcome.dropped_user_turns;
        let restored = restorable
            .then(|| {
                let keep = self.turn_checkpoints.len() - outcome.dropped_user_turns;
                self.turn_checkpoints.drain(keep..).next()
            })
            .flatten();
        match (outcome.dropped_user_turns, restored) {
            (0, _) => {}
            (_, Some(checkpoint)) if !outcome.removed_initial_context => {
                self.reference_context_item = checkpoint.reference_context_item;
                self.history.set_world_state_baseline(
                    checkpoint.world_state_baseline.map(Arc::unwrap_or_clone),
                );
            }
            (_, Some(_) | None) => {
                self.turn_checkpoints.clear();
                self.reference_context_item = None;
            }
        }
        let estimate = self.history.estimated_tokens(&self.base_instructions.text);
        let token_usage = TokenUsageInfo::after_rewrite(usage, estimate, model_context_window);
        self.record_token_count(Some(&token_usage))?;
        self.persist_event(events::thread_rolled_back(turns))?;
        Ok(Rollback {
            outcome,
            token_usage: Some(token_usage),
        })
    }
}
