//! Core of the context engine: configuration, AGENTS.md discovery, the World State and the
//! fragment catalogue, first-turn and steady-state assembly, the Responses request and client,
//! rollouts, scripted sessions, and the `inspect` / `compare` views over them.

pub mod agents_md;
pub mod assemble;
pub mod base_instructions;
pub mod client;
pub mod compare;
pub mod config;
pub mod context;
pub mod context_manager;
pub mod explain;
pub mod first_turn;
pub mod ids;
pub mod inspect;
pub mod layout;
pub mod request;
pub mod rollout;
pub mod script;
pub mod session;
pub mod tools;
pub mod turn_context;
