//! Why a script could not be read or run. Every message is one line that names the script (or
//! rollout) and the place in it.

use std::io;
use std::path::PathBuf;

use codex_client::ClientError;
use codex_config::ConfigError;
use codex_core::AssemblyError;
use codex_core::SessionError;
use codex_core::ToolSpecError;
use codex_core::TurnRequestError;
use codex_rollout::RolloutError;

#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{name}: invalid JSON: {source}")]
    Json {
        name: String,
        source: serde_json::Error,
    },
    /// A value or key the script format does not accept; `location` is
    /// `script.json: turns[2].set` or `--set model=x`.
    #[error("{location}: {message}")]
    Invalid { location: String, message: String },
    #[error("{location}: {source}")]
    Config {
        location: String,
        #[source]
        source: ConfigError,
    },
    #[error(transparent)]
    Assembly(#[from] AssemblyError),
    #[error("cannot build the tools: {0}")]
    Tools(#[from] ToolSpecError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Request(#[from] TurnRequestError),
    #[error(transparent)]
    Rollout(#[from] RolloutError),
    /// Resuming in the middle of a script re-reads the lines the session wrote.
    #[error("cannot re-read the session's own rollout lines: {0}")]
    Reload(#[source] io::Error),
    /// The temporary file a session keeps its rollout lines in (for a later `resume` turn).
    #[error("cannot write the session's rollout lines to a temporary file: {0}")]
    Spool(#[source] io::Error),
    #[error("cannot start the seeded clock on {date}")]
    Clock { date: String },
    /// An `edit` step could not change its file.
    #[error("{location}: cannot edit {}: {source}", path.display())]
    Edit {
        location: String,
        path: PathBuf,
        source: io::Error,
    },
    /// The temporary copy of the scenario folder a script with `edit` steps runs on.
    #[error("cannot copy {} to a temporary folder: {source}", path.display())]
    Scratch { path: PathBuf, source: io::Error },
    /// A request could not be printed.
    #[error("cannot write the requests: {0}")]
    Output(#[source] io::Error),
    /// A live responder's request to the endpoint failed (the message never holds the key).
    #[error("live reply: {0}")]
    Endpoint(#[from] ClientError),
}

impl ScriptError {
    pub(crate) fn invalid(location: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid {
            location: location.into(),
            message: message.into(),
        }
    }
}
