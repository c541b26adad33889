//! Core of the context engine: configuration, AGENTS.md discovery, the World State sections,
//! first-turn and steady-state assembly, the Responses request and client, scripted sessions,
//! and the `inspect` / `compare` views over them. The fragment types and their registry are in
//! `codex-fragments`, rollout files in `codex-rollout`.

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
pub mod script;
pub mod session;
pub mod tools;
pub mod turn_context;
