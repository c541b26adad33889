//! Errors of the Responses client. None of them ever carries the API key: server text is
//! scrubbed before it is stored.

use std::fmt;
use std::time::Duration;

/// The `code` of a `response.failed` event's error (protocol spellings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureCode {
    ContextLengthExceeded,
    InsufficientQuota,
    UsageNotIncluded,
    CyberPolicy,
    InvalidPrompt,
    ServerIsOverloaded,
    SlowDown,
    RateLimitExceeded,
    /// Any other code, kept verbatim.
    Other(String),
    /// The event carried no code.
    Unspecified,
}

impl FailureCode {
    pub fn from_code(code: Option<&str>) -> Self {
        match code {
            Some("context_length_exceeded") => Self::ContextLengthExceeded,
            Some("insufficient_quota") => Self::InsufficientQuota,
            Some("usage_not_included") => Self::UsageNotIncluded,
            Some("cyber_policy") => Self::CyberPolicy,
            Some("invalid_prompt") => Self::InvalidPrompt,
            Some("server_is_overloaded") => Self::ServerIsOverloaded,
            Some("slow_down") => Self::SlowDown,
            Some("rate_limit_exceeded") => Self::RateLimitExceeded,
            Some(other) => Self::Other(other.to_string()),
            None => Self::Unspecified,
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Self::ContextLengthExceeded => "context_length_exceeded",
            Self::InsufficientQuota => "insufficient_quota",
            Self::UsageNotIncluded => "usage_not_included",
            Self::CyberPolicy => "cyber_policy",
            Self::InvalidPrompt => "invalid_prompt",
            Self::ServerIsOverloaded => "server_is_overloaded",
            Self::SlowDown => "slow_down",
            Self::RateLimitExceeded => "rate_limit_exceeded",
            Self::Other(code) => code,
            Self::Unspecified => "unspecified",
        }
    }

    /// Whether sending the same request again can succeed. Unknown codes count as transient,
    /// as upstream treats them.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::ContextLengthExceeded
            | Self::InsufficientQuota
            | Self::UsageNotIncluded
            | Self::CyberPolicy
            | Self::InvalidPrompt => false,
            Self::ServerIsOverloaded
            | Self::SlowDown
            | Self::RateLimitExceeded
            | Self::Other(_)
            | Self::Unspecified => true,
        }
    }
}

impl fmt::Display for FailureCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a [`ClientError::Timeout`] was waiting for when its time ran out, in the order an
/// exchange goes through them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitedFor {
    /// A TCP (and TLS) connection to the server (`connect_timeout`).
    Connection,
    /// The status line and headers of the answer, counted from sending the request.
    Headers,
    /// The first bytes of the body, counted from the headers.
    FirstBodyBytes,
    /// More of the body: `received` bytes had arrived, then nothing for the whole timeout.
    MoreBodyBytes { received: u64 },
    /// The end of a body that kept arriving (`received` bytes so far) but took longer than the
    /// exchange may take as a whole.
    BodyEnd { received: u64 },
}

/// The one-line message of a [`ClientError::Timeout`]: what was waited for, from where, how long.
fn timeout_message(url: &str, waited_for: WaitedFor, timeout: Duration) -> String {
    let seconds = timeout.as_secs_f64();
    match waited_for {
        WaitedFor::Connection => format!("no connection to {url} within {seconds} s"),
        WaitedFor::Headers => format!("no response headers from {url} within {seconds} s"),
        WaitedFor::FirstBodyBytes => {
            format!("{url} sent response headers but no body within {seconds} s")
        }
        WaitedFor::MoreBodyBytes { received } => format!(
            "{url} stopped sending after {received} bytes of the body: no data for {seconds} s"
        ),
        WaitedFor::BodyEnd { received } => format!(
            "the body from {url} was still arriving after {seconds} s ({received} bytes so far)"
        ),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no API key: environment variable {env_var} is unset or empty")]
    MissingApiKey { env_var: String },
    #[error("invalid base URL `{url}`: {reason}")]
    InvalidBaseUrl { url: String, reason: String },
    #[error("invalid value for header `{name}`")]
    InvalidHeader { name: String },
    #[error("failed to serialize the request body: {0}")]
    Serialize(#[source] serde_json::Error),
    #[error("failed to set up the HTTP client: {0}")]
    ClientSetup(String),
    /// A non-success status, with the server's message (its `error.message` when the body is
    /// the usual JSON error object, else the body text).
    #[error("server answered HTTP {status}: {message}")]
    Http {
        status: u16,
        code: Option<String>,
        message: String,
        /// From `Retry-After`/`retry-after-ms` or a "try again in N s" message.
        retry_after: Option<Duration>,
    },
    /// Connecting, sending, or reading failed below HTTP.
    #[error("transport error: {0}")]
    Transport(String),
    #[error("stream closed before response.completed")]
    StreamClosedEarly,
    /// A wait ran out: `waited_for` says for what, `timeout` for how long.
    #[error("{}", timeout_message(url, *waited_for, *timeout))]
    Timeout {
        url: String,
        waited_for: WaitedFor,
        timeout: Duration,
    },
    #[error("response.failed ({code}): {message}")]
    ResponseFailed {
        code: FailureCode,
        message: String,
        retry_after: Option<Duration>,
    },
    #[error("response.incomplete: {reason}")]
    Incomplete { reason: String },
    /// An event the client must understand (`response.completed`) had an unexpected shape.
    #[error("invalid `{event_type}` event: {reason}")]
    InvalidEvent { event_type: String, reason: String },
    #[error("invalid /models response: {0}")]
    InvalidModelsResponse(String),
}

impl ClientError {
    /// Whether the same request may succeed when sent again: 429 (except an exhausted quota),
    /// 5xx, transport failures, streams that broke off or went idle, and transient
    /// `response.failed` codes.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Http { status, code, .. } => {
                (*status == 429 && code.as_deref() != Some("insufficient_quota"))
                    || (500..600).contains(status)
            }
            Self::Transport(_) | Self::StreamClosedEarly | Self::Timeout { .. } => true,
            Self::ResponseFailed { code, .. } => code.is_retryable(),
            Self::MissingApiKey { .. }
            | Self::InvalidBaseUrl { .. }
            | Self::InvalidHeader { .. }
            | Self::Serialize(_)
            | Self::ClientSetup(_)
            | Self::Incomplete { .. }
            | Self::InvalidEvent { .. }
            | Self::InvalidModelsResponse(_) => false,
        }
    }

    /// The wait the server asked for, if it named one.
    pub fn server_retry_delay(&self) -> Option<Duration> {
        match self {
            Self::Http { retry_after, .. } | Self::ResponseFailed { retry_after, .. } => {
                *retry_after
            }
            Self::MissingApiKey { .. }
            | Self::InvalidBaseUrl { .. }
            | Self::InvalidHeader { .. }
            | Self::Serialize(_)
            | Self::ClientSetup(_)
            | Self::Transport(_)
            | Self::StreamClosedEarly
            | Self::Timeout { .. }
            | Self::Incomplete { .. }
            | Self::InvalidEvent { .. }
            | Self::InvalidModelsResponse(_) => None,
        }
    }
}
