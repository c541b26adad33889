//! What a [`ResponsesClient`](super::ResponsesClient) is built from: endpoint, credentials,
//! retry and timeout policy; and what each request adds: body bytes and session headers.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use codex_protocol::openai_models::ModelInfo;
use serde::Serialize;

use super::error::ClientError;
use super::retry::Clock;
use super::retry::Sleeper;
use super::retry::SystemClock;
use super::retry::TokioSleeper;
use codex_config::ProviderNetwork;

/// The OpenAI API, used when no base URL is configured.
pub const OPENAI_API_BASE_URL: &str = "https://api.openai.com/v1";
/// Environment variable holding the API key unless another is named.
pub const OPENAI_API_KEY_ENV: &str = "OPENAI_API_KEY";
/// Environment variable that overrides the default base URL.
pub const OPENAI_BASE_URL_ENV: &str = "OPENAI_BASE_URL";
/// The `originator` header value: upstream's non-interactive `codex exec` sends this one, and
/// every command of this project that reaches a provider is non-interactive.
pub const DEFAULT_ORIGINATOR: &str = "codex_exec";
/// Header that marks a Responses Lite request.
pub const RESPONSES_LITE_HEADER: &str = "x-openai-internal-codex-responses-lite";
pub const DEFAULT_REQUEST_MAX_RETRIES: u32 = 4;
pub const DEFAULT_STREAM_MAX_RETRIES: u32 = 5;
/// Longest wait for a connection (the OpenAI SDKs' default).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest wait for the response headers after sending, and then for the first body bytes: a
/// Responses server answers at once with `response.created`, long before the model's output.
pub const DEFAULT_FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for more bytes of a stream that has started.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(300);
pub const DEFAULT_RETRY_BASE_DELAY: Duration = Duration::from_millis(200);
/// Upper bound on any wait between attempts, server hints included, so a bogus `Retry-After`
/// cannot park a session for hours.
pub const DEFAULT_MAX_RETRY_DELAY: Duration = Duration::from_secs(120);
/// Longest wait of a `GET /models` call for its headers, its first body bytes or more of them.
pub const DEFAULT_MODELS_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest a whole `GET /models` call may take, however steadily its body arrives.
pub const DEFAULT_MODELS_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);

/// Text shown wherever an API key would otherwise appear.
pub const REDACTED: &str = "[redacted]";

/// An API key. It is only ever written into the `Authorization` header: `Debug` and `Display`
/// print [`REDACTED`], it cannot be serialized, and server messages that echo it are scrubbed.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// Reads the key from the environment variable `env_var` (`OPENAI_API_KEY` or the name given
    /// with `--api-key-env`); unset, empty or non-UTF-8 values are an error naming the variable.
    pub fn from_env(env_var: &str) -> Result<Self, ClientError> {
        match std::env::var(env_var) {
            Ok(key) if !key.trim().is_empty() => Ok(Self(key.trim().to_string())),
            Ok(_) | Err(_) => Err(ClientError::MissingApiKey {
                env_var: env_var.to_string(),
            }),
        }
    }

    /// No key: requests carry no `Authorization` header (a provider without `env_key`).
    pub fn absent() -> Self {
        Self(String::new())
    }

    pub(crate) fn is_absent(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced by [`REDACTED`].
    pub(crate) fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.0, REDACTED)
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Where the base URL came from (for `explain`-style output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseUrlSource {
    /// `--base-url`.
    Flag,
    /// `model_provider.base_url` in config.
    Config,
    /// `OPENAI_BASE_URL`.
    Environment,
    /// [`OPENAI_API_BASE_URL`].
    Default,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBaseUrl {
    pub url: String,
    pub source: BaseUrlSource,
}

/// Picks the base URL: `--base-url`, else the configured provider's `base_url`, else
/// `OPENAI_BASE_URL`, else the OpenAI API. Blank values count as unset.
pub fn resolve_base_url(
    flag: Option<&str>,
    configured: Option<&str>,
    environment: Option<&str>,
) -> ResolvedBaseUrl {
    [
        (flag, BaseUrlSource::Flag),
        (configured, BaseUrlSource::Config),
        (environment, BaseUrlSource::Environment),
    ]
    .into_iter()
    .find_map(|(value, source)| {
        value
            .map(str::trim)
            .filter(|value| !value.is_empty())
            .map(|url| ResolvedBaseUrl {
                url: url.to_string(),
                source,
            })
    })
    .unwrap_or_else(|| ResolvedBaseUrl {
        url: OPENAI_API_BASE_URL.to_string(),
        source: BaseUrlSource::Default,
    })
}

/// `ORIGINATOR/VERSION (OS; ARCH) unknown (ORIGINATOR; VERSION)`: the shape of upstream's
/// user agent, with this project's version; the terminal is not detected (upstream writes
/// `unknown` when it cannot tell).
pub fn user_agent(originator: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    format!(
        "{originator}/{version} ({}; {}) unknown ({originator}; {version})",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Everything a client needs besides the per-request body and headers.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Provider base URL; `/responses` and `/models` are appended to its path.
    pub base_url: String,
    pub api_key: ApiKey,
    /// `originator` header value.
    pub originator: String,
    /// `user-agent` header value ([`user_agent`]).
    pub user_agent: String,
    /// Appended to every request URL (the provider's `query_params`).
    pub query_params: Vec<(String, String)>,
    /// Sent with every request (the provider's `http_headers` and set `env_http_headers`).
    pub provider_headers: Vec<(String, String)>,
    /// Retries of a request that failed before its stream started (429, 5xx, transport).
    pub request_max_retries: u32,
    /// Retries of a whole request whose stream broke off or failed retryably
    /// ([`ResponsesClient::send`](super::ResponsesClient::send) only).
    pub stream_max_retries: u32,
    /// Longest wait for a connection (TCP and TLS).
    pub connect_timeout: Duration,
    /// Longest wait for the response headers of `POST /responses` after sending it, and then
    /// for the first bytes of its stream.
    pub first_byte_timeout: Duration,
    /// Longest wait for more bytes of a stream whose first bytes arrived.
    pub stream_idle_timeout: Duration,
    /// First backoff delay; each further retry doubles it (with ±10% jitter).
    pub retry_base_delay: Duration,
    pub max_retry_delay: Duration,
    /// Longest wait of a `GET /models` call for its headers, its first body bytes, or more of
    /// them (a failing refresh falls back to the cache).
    pub models_request_timeout: Duration,
    /// Longest a whole `GET /models` call may take.
    pub models_total_timeout: Duration,
    pub sleeper: Arc<dyn Sleeper>,
    pub clock: Arc<dyn Clock>,
}

impl ClientConfig {
    /// A configuration with upstream's defaults, real time and real sleeping.
    pub fn new(base_url: impl Into<String>, api_key: ApiKey) -> Self {
        Self {
            base_url: base_url.into(),
            api_key,
            originator: DEFAULT_ORIGINATOR.to_string(),
            user_agent: user_agent(DEFAULT_ORIGINATOR),
            query_params: Vec::new(),
            provider_headers: Vec::new(),
            request_max_retries: DEFAULT_REQUEST_MAX_RETRIES,
            stream_max_retries: DEFAULT_STREAM_MAX_RETRIES,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            first_byte_timeout: DEFAULT_FIRST_BYTE_TIMEOUT,
            stream_idle_timeout: DEFAULT_STREAM_IDLE_TIMEOUT,
            retry_base_delay: DEFAULT_RETRY_BASE_DELAY,
            max_retry_delay: DEFAULT_MAX_RETRY_DELAY,
            models_request_timeout: DEFAULT_MODELS_REQUEST_TIMEOUT,
            models_total_timeout: DEFAULT_MODELS_TOTAL_TIMEOUT,
            sleeper: Arc::new(TokioSleeper),
            clock: Arc::new(SystemClock),
        }
    }

    /// This configuration with the provider's configured retries and timeouts (config.toml
    /// `model_provider`) in place of the defaults.
    pub fn with_network(self, network: &ProviderNetwork) -> Self {
        let ProviderNetwork {
            request_max_retries,
            stream_max_retries,
            stream_idle_timeout,
            connect_timeout,
            first_byte_timeout,
            models_timeout,
        } = *network;
        Self {
            request_max_retries: request_max_retries.unwrap_or(self.request_max_retries),
            stream_max_retries: stream_max_retries.unwrap_or(self.stream_max_retries),
            stream_idle_timeout: stream_idle_timeout.unwrap_or(self.stream_idle_timeout),
            connect_timeout: connect_timeout.unwrap_or(self.connect_timeout),
            first_byte_timeout: first_byte_timeout.unwrap_or(self.first_byte_timeout),
            models_request_timeout: models_timeout.unwrap_or(self.models_request_timeout),
            ..self
        }
    }
}

/// A request body, sent byte for byte as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestBody(Vec<u8>);

impl RequestBody {
    /// Bytes exactly as another component printed them (the `request` command's output).
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Self {
        Self(bytes.into())
    }

    /// Compact JSON of a serializable request, with `serde_json`'s key order.
    pub fn to_json<T: Serialize + ?Sized>(request: &T) -> Result<Self, ClientError> {
        serde_json::to_vec(request)
            .map(Self)
            .map_err(ClientError::Serialize)
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Whether the request goes to a model served through Responses Lite (see
/// [`RESPONSES_LITE_HEADER`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResponsesLite {
    #[default]
    Off,
    On,
}

impl ResponsesLite {
    pub fn for_model(model: &ModelInfo) -> Self {
        if model.use_responses_lite {
            Self::On
        } else {
            Self::Off
        }
    }
}

/// Headers that change from request to request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestHeaders {
    /// `session-id`: the cache-affinity id (prompt cache key of a root agent).
    pub session_id: Option<String>,
    /// `thread-id`, and `x-client-request-id` as upstream sends it.
    pub thread_id: Option<String>,
    /// `x-codex-window-id`: `THREAD_ID:N`, N counting the thread's compactions.
    pub window_id: Option<String>,
    /// `x-codex-turn-metadata`: the JSON the body carries in `client_metadata`.
    pub turn_metadata: Option<String>,
    /// `x-codex-beta-features`: comma-separated feature keys.
    pub beta_features: Option<String>,
    pub responses_lite: ResponsesLite,
    /// `accept-encoding` on `/responses` (e.g. `zstd,gzip`); gzip and zstd bodies are then
    /// decoded. `None` sends none and takes bodies as they come.
    pub accept_encoding: Option<String>,
    /// Further headers, sent as given after the standard ones (e.g. `x-codex-turn-state`).
    pub extra: Vec<(String, String)>,
}
