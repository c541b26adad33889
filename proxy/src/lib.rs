//! A recording pass-through for the Responses API (`codex-context proxy`): every request is
//! forwarded to the upstream with its headers (the API key included, never stored) and the
//! response relayed unchanged as it arrives, while both are recorded per thread.
//!
//! A recording folder holds one folder per thread (named after the request's
//! `prompt_cache_key`, else its session-id header), and in it:
//!
//! - `request-NNNN.json`: the request body exactly as it came (decoded JSON when it came
//!   compressed, the wire bytes then beside it in `request-NNNN.wire.gz` / `.wire.zst`), so
//!   `compare` reads a thread folder as a folder of request bodies;
//! - `response-NNNN.sse` (`.body` when not an event stream): the response, written line by line
//!   (decoded when it came gzip or zstd, the wire bytes then beside it in
//!   `response-NNNN.wire.gz` / `.wire.zst`);
//! - `exchanges.jsonl`: per request a `request` line (method, path, redacted headers), a
//!   `response` line (status, headers, time to first byte) and an `end` line (outcome, reason,
//!   total time, usage of `response.completed`).
//!
//! Every line is written straight to its file, so a killed proxy leaves a readable recording.
//! Given [`UiPages`], the proxy also answers the paths under [`UI_PREFIX`] itself (a live
//! report of the recording) instead of forwarding them.

mod config;
mod decode;
mod error;
mod event;
mod line;
mod listen;
mod read;
mod record;
mod redact;
mod server;
mod sse;
mod ui;

pub use config::ListenScope;
pub use config::ProxyConfig;
pub use config::Upstream;
pub use error::ProxyError;
pub use event::ProxyEvent;
pub use line::EXCHANGES_FILE;
pub use line::ExchangeLine;
pub use line::Outcome;
pub use listen::RunningProxy;
pub use listen::Stopped;
pub use listen::start;
pub use read::RecordedExchange;
pub use read::RecordedThread;
pub use read::Recording;
pub use read::is_recording;
pub use read::read_recording;
pub use read::recording_size;
pub use redact::REDACTED;
pub use ui::SharedUiPages;
pub use ui::UI_PREFIX;
pub use ui::UiPages;
pub use ui::UiResponse;
