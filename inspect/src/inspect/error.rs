//! Errors of `inspect`. A damaged rollout line is not one: it is reported in the inspection's
//! warnings and the rest of the file is still inspected.

use codex_core::RequestBuildError;
use codex_core::ToolSpecError;
use codex_rollout::RolloutError;

#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    #[error(transparent)]
    Rollout(#[from] RolloutError),
    #[error("cannot rebuild the built-in tool list: {0}")]
    Tools(#[from] ToolSpecError),
    #[error("cannot rebuild a request body: {0}")]
    Request(#[from] RequestBuildError),
    #[error("cannot serialize the inspection: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot start a thread to read the rollout: {source}")]
    Thread { source: std::io::Error },
}
