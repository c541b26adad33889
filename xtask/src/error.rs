//! Why a task could not run at all (as opposed to a check that ran and found problems).

use std::path::Path;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum XtaskError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}: {source}", path.display())]
    Toml {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    /// A file parsed but does not say what the task needs.
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    /// A file could not be written (or exists and may not be replaced).
    #[error(transparent)]
    Write(#[from] codex_utils_fs::WriteError),
    /// A child process (cargo) could not be started.
    #[error("could not run `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
}

impl XtaskError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        XtaskError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
