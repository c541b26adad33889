//! Configuration errors (fatal) and warnings (reported, then ignored).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Where a configuration value came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigOrigin {
    /// A line of a config file (`line` is 1-based; `None` when unknown).
    File { path: PathBuf, line: Option<usize> },
    /// A `-c key=value` override, as typed.
    CliOverride(String),
    /// A dedicated command-line flag setting `key`.
    Flag { key: String },
}

impl fmt::Display for ConfigOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File {
                path,
                line: Some(line),
            } => write!(f, "{}:{line}", path.display()),
            Self::File { path, line: None } => write!(f, "{}", path.display()),
            Self::CliOverride(raw) => write!(f, "-c {raw}"),
            Self::Flag { key } => write!(f, "command-line flag for `{key}`"),
        }
    }
}

/// Why configuration could not be loaded. Every message is one line and names
/// the file (with line and column) or the override, and the key when known.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}:{line}:{column}: {}{message}", path.display(), key_prefix(key.as_deref()))]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        key: Option<String>,
        message: String,
    },
    #[error("cannot read {}: {source}", path.display())]
    ReadFile { path: PathBuf, source: io::Error },
    #[error("-c {raw}: {message}")]
    Override { raw: String, message: String },
    #[error("{origin}: key `{key}`: {message}")]
    InvalidValue {
        origin: ConfigOrigin,
        key: String,
        message: String,
    },
    #[error("cannot read {key} file {}: {source}", path.display())]
    ReferencedFile {
        key: String,
        path: PathBuf,
        source: io::Error,
    },
    #[error("no home directory: set CODEX_HOME or pass --codex-home")]
    NoCodexHome,
    /// The process's current directory cannot be read (it was deleted) and nothing sets one.
    #[error(
        "no working directory: the current directory no longer exists; pass --cwd DIR or set `cwd`"
    )]
    NoWorkingDirectory,
}

/// Why a session cannot run in a directory. Every message names it.
#[derive(Debug, thiserror::Error)]
pub enum WorkingDirectoryError {
    #[error("working directory {} does not exist", .0.display())]
    Missing(PathBuf),
    #[error("working directory {} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error("cannot inspect working directory {}: {source}", path.display())]
    Unreadable { path: PathBuf, source: io::Error },
}

fn key_prefix(key: Option<&str>) -> String {
    key.map(|key| format!("key `{key}`: ")).unwrap_or_default()
}

/// A problem that does not stop loading; the offending input is ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigWarning {
    UnknownKey {
        origin: ConfigOrigin,
        key: String,
    },
    UnknownFeature {
        origin: ConfigOrigin,
        key: String,
    },
    /// `project_root_markers` is not an array of strings; the default is used.
    InvalidProjectRootMarkers {
        origin: ConfigOrigin,
    },
    /// The unpinned time zone could not be resolved; dates use UTC.
    UnknownSystemTimezone {
        name: String,
    },
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKey { origin, key } => {
                write!(f, "{origin}: unknown config key `{key}` ignored")
            }
            Self::UnknownFeature { origin, key } => {
                write!(f, "{origin}: unknown feature `{key}` ignored")
            }
            Self::InvalidProjectRootMarkers { origin } => write!(
                f,
                "{origin}: `project_root_markers` must be an array of strings; using the default"
            ),
            Self::UnknownSystemTimezone { name } => write!(
                f,
                "time zone `{name}` is not in the time zone database; computing the date in UTC"
            ),
        }
    }
}
