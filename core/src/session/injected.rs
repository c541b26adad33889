//! What happens inside a turn besides its context updates, the user's message and the model's
//! output: items the harness injects as they occur (notices, tool outputs, hook context), the
//! world-state check before every later sampling step, and the end of an interrupted turn.

use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use serde_json::json;

use super::RolloutSink;
use super::Session;
use super::SessionError;
use crate::context::world_state::WorldState;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::context_manager::merge_contextual_fragments;
use crate::turn_context::TurnContext;

/// `event_msg` type that closes a turn that did not complete.
const TURN_ABORTED: &str = "turn_aborted";

/// Why a turn stopped before completing (upstream `TurnAbortReason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnAbortReason {
    /// The user interrupted it.
    Interrupted,
}

impl TurnAbortReason {
    fn as_str(self) -> &'static str {
        match self {
            Self::Interrupted => "interrupted",
        }
    }
}

impl<S: RolloutSink> Session<S> {
    /// Records items the harness adds to the current turn as they happen (fragments, tool
    /// outputs): stamped with the turn's id, persisted, kept in history.
    pub fn record_injected_items(&mut self, items: Vec<ResponseItem>) -> Result<(), SessionError> {
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        self.record_conversation_items(&turn_id, items)
    }

    /// Before a later sampling step of the current turn: records what changed in the world
    /// state since the previous step (against retained history) and the `world_state` patch.
    /// Unlike the turn's first context update it never writes a `turn_context` line.
    pub fn record_step_world_state_if_changed(
        &mut self,
        turn: &TurnContext,
    ) -> Result<WorldState, SessionError> {
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        let world_state = build_world_state_for_step(turn, &self.templates)?;
        let update = self.history.update_world_state(&world_state);
        self.record_conversation_items(&turn_id, merge_contextual_fragments(update.fragments))?;
        if let Some(record) = update.rollout_item {
            self.persist(RolloutItem::WorldState(record))?;
        }
        Ok(world_state)
    }

    /// Ends the current turn without completing it: a `turn_aborted` event takes the place of
    /// `task_complete`. Whatever marks the abort in history is recorded before this.
    pub fn abort_turn(&mut self, reason: TurnAbortReason) -> Result<(), SessionError> {
        let turn = self.active_turn.take().ok_or(SessionError::NoActiveTurn)?;
        let completed_at = self.ids.now().as_second();
        self.persist_event(json!({
            "type": TURN_ABORTED,
            "turn_id": turn.turn_id,
            "reason": reason.as_str(),
            "completed_at": completed_at,
        }))
    }
}
