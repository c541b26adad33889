//! Model-visible context that the harness maintains on its own: the world-state mechanism that
//! decides which pieces of context the model must be told about at each step.

pub mod initial_context;
pub mod world_state;
pub mod world_state_for_step;
