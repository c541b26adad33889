//! Core of the context engine: the World State and the fragment catalogue, first-turn and
//! steady-state assembly, the Responses request, rollouts, scripted sessions, and the
//! `inspect` / `compare` views over them. Configuration and AGENTS.md discovery live in
//! `codex-config`, the HTTP client in `codex-client`.

pub mod base_instructions;
pub mod compare;
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
