//! Errors of the rollout layer. Damaged lines are not errors: they are reported as
//! [`RolloutWarning`](super::RolloutWarning)s and the rest of the file still loads.

use std::io;
use std::path::PathBuf;

use super::NotARollout;

#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    #[error("cannot read rollout {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{}: {reason}", path.display())]
    NotARollout { path: PathBuf, reason: NotARollout },
    #[error("cannot create rollout {}: {source}", path.display())]
    Create { path: PathBuf, source: io::Error },
    #[error("cannot open rollout {} for appending: {source}", path.display())]
    Open { path: PathBuf, source: io::Error },
    #[error("cannot write to rollout {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    /// A rollout written beside its destination could not be put in place.
    #[error("cannot write rollout: {0}")]
    Output(#[source] codex_utils_fs::WriteError),
    #[error("cannot serialize a `{line_type}` rollout line: {source}")]
    Serialize {
        line_type: String,
        source: serde_json::Error,
    },
}
