//! Model-visible conversation history and the bookkeeping that travels with it.
//!
//! [`ContextManager`] keeps the API items of a thread in order, the world-state baseline the
//! next turn diffs against and an incremental index of recognised fragments, so a steady-state
//! turn inspects only the items appended since the previous one. [`merge_contextual_fragments`]
//! turns a diff's fragments into history messages.

mod estimate;
mod history;
mod normalize;
mod rollback;
mod updates;

pub use estimate::estimated_tokens;
pub use history::ContextManager;
pub use history::WorldStateUpdate;
pub use history::is_api_item;
pub use normalize::ABORTED_OUTPUT;
pub use rollback::RollbackOutcome;
pub use updates::merge_contextual_fragments;

pub(crate) use history::full_world_state_item;
