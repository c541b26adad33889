//! The event lines recorded before a reasoning item of the model's output.

use super::HistoryMode;
use codex_protocol::models::ReasoningItemContent;
use codex_protocol::models::ReasoningItemReasoningSummary;

use super::RolloutSink;
use super::Session;
use super::SessionError;
use super::events;
use crate::turn_context::RawReasoning;

/// What a reasoning item says, as its events carry it.
pub(super) struct ReasoningText {
    pub id: String,
    pub summary_text: Vec<String>,
    pub raw_content: Vec<String>,
}

impl ReasoningText {
    pub(super) fn of(
        id: Option<&str>,
        summary: &[ReasoningItemReasoningSummary],
        content: Option<&[ReasoningItemContent]>,
    ) -> Self {
        Self {
            id: id.unwrap_or_default().to_string(),
            summary_text: summary
                .iter()
                .map(|entry| match entry {
                    ReasoningItemReasoningSummary::SummaryText { text } => text.clone(),
                })
                .collect(),
            raw_content: content
                .unwrap_or_default()
                .iter()
                .map(|entry| match entry {
                    ReasoningItemContent::ReasoningText { text }
                    | ReasoningItemContent::Text { text } => text.clone(),
                })
                .collect(),
        }
    }
}

impl<S: RolloutSink> Session<S> {
    /// Records the events of one reasoning item of the current turn: in a legacy rollout an
    /// `agent_reasoning` event per summary entry, then (while raw reasoning is shown) an
    /// `agent_reasoning_raw_content` event per raw entry; in a paginated one a completed
    /// `Reasoning` item.
    pub(super) fn record_reasoning_events(
        &mut self,
        turn_id: &str,
        reasoning: &ReasoningText,
    ) -> Result<(), SessionError> {
        match self.history_mode {
            HistoryMode::Legacy => {
                for text in &reasoning.summary_text {
                    self.persist_event(events::agent_reasoning(text))?;
                }
                match self.active_turn_mut()?.raw_reasoning {
                    RawReasoning::Shown => {
                        for text in &reasoning.raw_content {
                            self.persist_event(events::agent_reasoning_raw_content(text))?;
                        }
                    }
                    RawReasoning::Hidden => {}
                }
                Ok(())
            }
            HistoryMode::Paginated => self.persist_completed_item(turn_id, |at| {
                events::reasoning_completed(
                    at,
                    &reasoning.id,
                    &reasoning.summary_text,
                    &reasoning.raw_content,
                )
            }),
        }
    }
}
