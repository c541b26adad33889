//! End-to-end tests: run the built `codex-context` binary and compare its whole output.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

mod bad_input;
mod compare;
mod explain;
mod fingerprint;
mod inspect;
mod instructions;
mod merge_patch;
mod models;
mod models_refresh;
mod request;
mod send;
mod send_server;
mod send_session_live;
mod session;
mod session_errors;
mod support;
#[path = "../../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;
mod world_state;
