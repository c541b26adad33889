//! Core of the context engine: the World State and the fragment catalogue, first-turn and
//! steady-state assembly, the Responses request, and rollouts.

pub mod assemble;
pub mod base_instructions;
pub mod context;
pub mod context_manager;
pub mod first_turn;
pub mod ids;
pub mod request;
pub mod session;
pub mod tools;
pub mod turn_context;
