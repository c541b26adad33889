//! `record_context_updates_and_set_reference_context_item`: what a turn tells the model about
//! its situation before the user's message (upstream: the function of the same name in
//! `codex-rs/core/src/session/mod.rs`).

use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;

use super::RolloutSink;
use super::Session;
use super::SessionError;
use super::turn_context_item::turn_context_item;
use crate::context::initial_context::build_initial_context_with_world_state;
use crate::context::world_state::WorldState;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::context_manager::full_world_state_item;
use crate::context_manager::merge_contextual_fragments;
use crate::request::recorded_lite_prefix;
use crate::request::records_lite_prefix;
use crate::turn_context::TurnContext;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::SectionFragment;

/// An extension that adds developer context whenever the turn's settings change.
///
/// Implementations must be deterministic (the same turn context yields the same fragments) and
/// must not depend on history: their fragments are re-sent on every turn whose turn context
/// differs from the reference, so anything that should be sent once belongs in a world-state
/// section instead.
pub trait TurnContextContributor: Send + Sync {
    fn contribute_turn_context(&self, turn: &TurnContext) -> Vec<SectionFragment>;
}

impl<S: RolloutSink> Session<S> {
    /// Brings the model's context up to date with `turn` before the user's message is recorded.
    ///
    /// On the first call after a resume, the recorded baseline's fingerprints of this
    /// project's own text are first re-derived from the reference turn context
    /// ([`TurnContext::under_recorded_settings`]): a rollout the released CLI wrote
    /// fingerprints its own prose, which this project's text never matches.
    ///
    /// Without a reference turn context the full initial context is recorded and its snapshot
    /// becomes the baseline (`world_state` full record). Otherwise only what the model has not
    /// seen is recorded: the history-aware world-state diff, then the turn-context
    /// contributions when the turn context changed. Items are persisted before the
    /// `world_state` line that describes them, and the `turn_context` line comes last; a call
    /// that changes nothing but the snapshot writes only the patch, and a call that changes
    /// nothing writes nothing. Returns the step's world state.
    pub fn record_context_updates_and_set_reference_context_item(
        &mut self,
        turn: &TurnContext,
    ) -> Result<WorldState, SessionError> {
        let turn_context_item = turn_context_item(turn);
        let turn_context_changed = self.reference_context_item.as_ref() != Some(&turn_context_item);
        let world_state = build_world_state_for_step(turn, &self.templates)?;

        let recorded_baseline = self.recorded_baseline.take();
        if let (Some(recorded), Some(reference), Some(baseline)) = (
            recorded_baseline,
            &self.reference_context_item,
            self.history.world_state_baseline(),
        ) {
            let model = if reference.model == turn.model.slug {
                Some(turn.model.clone())
            } else {
                recorded.model
            };
            if let Some(model) = model {
                let recorded_turn = turn.under_recorded_settings(reference, model, &self.templates);
                let rederived = build_world_state_for_step(&recorded_turn, &self.templates)?
                    .rederive_recorded_baseline(baseline);
                self.history.set_world_state_baseline(Some(rederived));
            }
        }

        let full_context = self.reference_context_item.is_none();
        let (items, world_state_item) = if full_context {
            // A new thread of a release that records the Lite items starts with them.
            let mut items = if self.history.items().is_empty() && records_lite_prefix(turn) {
                let tools = turn.builtin_tools(&self.templates)?;
                recorded_lite_prefix(turn, &tools, &self.ids).map_err(SessionError::Encode)?
            } else {
                Vec::new()
            };
            items.extend(
                build_initial_context_with_world_state(turn, &world_state, &self.templates)
                    .into_items(),
            );
            let snapshot = world_state.snapshot();
            let record = full_world_state_item(&snapshot);
            self.history.set_world_state_baseline(Some(snapshot));
            (items, Some(record))
        } else {
            let update = self.history.update_world_state(&world_state);
            let mut items = merge_contextual_fragments(update.fragments);
            if turn_context_changed {
                items.extend(self.turn_context_contribution_message(turn));
            }
            (items, update.rollout_item)
        };

        let only_world_state_changed = !turn_context_changed && items.is_empty();
        if only_world_state_changed && world_state_item.is_none() {
            return Ok(world_state);
        }
        self.record_conversation_items(&turn.turn_id, items)?;
        if let Some(record) = world_state_item {
            self.persist(RolloutItem::WorldState(record))?;
        }
        if only_world_state_changed {
            return Ok(world_state);
        }
        self.persist(RolloutItem::TurnContext(turn_context_item.clone().into()))?;
        self.reference_context_item = Some(turn_context_item);
        if full_context {
            self.record_settings_of_full_context(turn)?;
        }
        Ok(world_state)
    }

    /// Every contributor's fragments as one developer message, or `None` when there are none.
    fn turn_context_contribution_message(&self, turn: &TurnContext) -> Option<ResponseItem> {
        let fragments: Vec<SectionFragment> = self
            .contributors
            .iter()
            .flat_map(|contributor| contributor.contribute_turn_context(turn))
            .collect();
        if fragments.is_empty() {
            return None;
        }
        let (content, kinds) = fragments
            .iter()
            .map(|fragment| fragment.render_fragment().into_parts().1.into_parts())
            .unzip();
        Some(ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: DEVELOPER_ROLE.to_string(),
            content,
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    content_item_kinds: Some(kinds),
                    ..InternalChatMessageMetadataPassthrough::default()
                },
            ),
        })
    }
}
