use crate::context::world_state::WorldStateError;
use codex_tools::ToolSpecError;

use super::RolloutSinkError;

/// Why a session operation failed. Lines written before the failure stay written.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("cannot build the world state: {0}")]
    WorldState(#[from] WorldStateError),
    #[error("cannot write the rollout: {0}")]
    Rollout(#[source] RolloutSinkError),
    #[error("cannot encode a rollout payload: {0}")]
    Encode(#[source] serde_json::Error),
    #[error("cannot build the tools: {0}")]
    Tools(#[from] ToolSpecError),
    #[error("no turn is in progress")]
    NoActiveTurn,
}
