//! Why an input cannot be compared.

use std::path::PathBuf;

/// An input that could not be read or recognised. Every message names the input.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{name} is not valid UTF-8")]
    NotUtf8 { name: String },
    #[error("invalid JSON in {name} at line {line} column {column}: {message}")]
    InvalidJson {
        name: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// `message` is the rollout reader's, which names the line.
    #[error("{name}: {message}")]
    DamagedRolloutLine {
        name: String,
        line: usize,
        message: String,
    },
    #[error(
        "{name}: not a request body, a folder of request-NN.json files, JSON lines of requests or a rollout"
    )]
    Unrecognised { name: String },
    #[error("{name} line {line}: not a request body like the lines before it")]
    NotARequestLine { name: String, line: usize },
    #[error("{name}: folder holds no request-NN.json files")]
    EmptyFolder { name: String },
    #[error("{name}: cannot rebuild the requests of the rollout: {source}")]
    Rebuild {
        name: String,
        source: crate::inspect::InspectError,
    },
    #[error("{name}: cannot serialize a rebuilt request: {source}")]
    RebuiltBody {
        name: String,
        source: serde_json::Error,
    },
}
