//! The proxy's typed errors.

use std::net::SocketAddr;
use std::path::PathBuf;

/// Why the proxy could not start, or a recording could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// `--upstream` is not an `http://` or `https://` URL.
    #[error("--upstream {url:?} is not an http:// or https:// URL")]
    BadUpstream { url: String },
    /// A non-loopback listen address without the explicit permission.
    #[error(
        "--listen {address} is not a loopback address: anyone who can reach it could use your API key; pass --allow-remote to listen there anyway"
    )]
    RemoteListen { address: SocketAddr },
    /// The listen socket could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: SocketAddr,
        source: std::io::Error,
    },
    /// The recording folder could not be created or written.
    #[error("cannot write the recording in {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The forwarding HTTP client could not be built.
    #[error("cannot build the forwarding client: {0}")]
    Client(#[from] reqwest::Error),
    /// A recording file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A line of a recording's `exchanges.jsonl` is not what the proxy writes.
    #[error("{path} line {line}: {message}")]
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// The folder holds no thread of a recording.
    #[error("{path} is not a proxy recording (no exchanges.jsonl in it or in its folders)")]
    NotARecording { path: PathBuf },
}
