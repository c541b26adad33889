//! Dropping the newest user turns from history (thread rollback).

use super::ContextManager;
use codex_fragments::has_non_contextual_developer_content;
use codex_fragments::is_context_update;
use codex_fragments::is_user_turn_boundary;

/// What a rollback removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RollbackOutcome {
    /// User turns removed (fewer than asked when history holds fewer).
    pub dropped_user_turns: usize,
    pub removed_items: usize,
    /// A removed context update also carried text that is not context (the initial developer
    /// bundle with configured instructions): the reference context is gone with it, so the
    /// next turn must inject full context.
    pub removed_initial_context: bool,
}

impl ContextManager {
    /// Removes the newest `turns` user turns — each from its real user message to the end —
    /// together with the context updates recorded just before the oldest removed message.
    /// Rolling back more turns than exist stops at the first user turn. History is rewritten,
    /// so the world-state baseline is cleared.
    pub fn drop_last_n_user_turns(&mut self, turns: usize) -> RollbackOutcome {
        let boundaries: Vec<usize> = self
            .items()
            .iter()
            .enumerate()
            .filter(|(_, item)| is_user_turn_boundary(item))
            .map(|(index, _)| index)
            .collect();
        let dropped_user_turns = turns.min(boundaries.len());
        let Some(&cut) = boundaries.get(boundaries.len() - dropped_user_turns) else {
            return RollbackOutcome::default();
        };
        let mut start = cut;
        let mut removed_initial_context = false;
        while let Some(previous) = start.checked_sub(1)
            && self.items().get(previous).is_some_and(is_context_update)
        {
            start = previous;
            removed_initial_context |= self
                .items()
                .get(previous)
                .is_some_and(has_non_contextual_developer_content);
        }
        let removed_items = self.len() - start;
        self.truncate(start);
        RollbackOutcome {
            dropped_user_turns,
            removed_items,
            removed_initial_context,
        }
    }
}

#[cfg(test)]
#[path = "rollback_tests.rs"]
mod tests;
