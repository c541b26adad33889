//! Core of the context engine: configuration and AGENTS.md discovery.

pub mod agents_md;
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
