//! End-to-end tests: run the built `codex-context` binary and compare its whole output.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

mod bad_input;
mod bounded;
mod choices;
mod compare;
mod context_window;
mod diagnostics;
mod explain;
mod fingerprint;
mod input_files;
mod inspect;
mod inspect_dir;
mod instructions;
mod merge_patch;
mod models;
mod models_refresh;
mod network_timeouts;
mod not_a_rollout;
mod output_safety;
mod project_trust;
mod proxy;
mod proxy_check;
mod proxy_support;
mod proxy_ui;
mod readme;
mod real_codex;
mod remote_models;
mod request;
mod request_release;
mod request_tools;
mod resume_elsewhere;
mod send;
mod send_loop;
mod send_loop_0_171;
mod send_provider;
mod send_server;
mod send_session_live;
mod session;
mod session_delta;
mod session_errors;
mod skills;
mod streaming;
mod support;
mod template_overlay;
mod template_variables;
#[path = "../../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;
mod workspace_write;
mod world_state;
