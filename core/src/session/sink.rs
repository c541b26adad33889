//! Where a session's rollout lines go.

use codex_protocol::RolloutLine;

use codex_rollout::RolloutWriter;

/// Why a rollout line could not be stored.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RolloutSinkError(#[source] pub Box<dyn std::error::Error + Send + Sync>);

/// Receives the rollout lines of one session, in the order the session writes them.
///
/// Implementations must store every line exactly as given and keep the order of calls (the
/// order carries meaning: a `world_state` line follows the items it describes, a `turn_context`
/// line closes the context updates of a turn). An error means the line may not have been
/// stored; the session reports it and writes nothing more for that operation.
pub trait RolloutSink {
    fn append(&mut self, line: RolloutLine) -> Result<(), RolloutSinkError>;
}

/// Lines kept in memory (tests, dry runs).
impl RolloutSink for Vec<RolloutLine> {
    fn append(&mut self, line: RolloutLine) -> Result<(), RolloutSinkError> {
        self.push(line);
        Ok(())
    }
}

/// Lines go to a rollout file, each written whole and flushed before `append` returns.
impl RolloutSink for RolloutWriter {
    fn append(&mut self, line: RolloutLine) -> Result<(), RolloutSinkError> {
        self.append_line(&line)
            .map_err(|error| RolloutSinkError(Box::new(error)))
    }
}
