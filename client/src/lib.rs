//! The Responses API client: sends an assembled request body unchanged to `{base_url}/responses`,
//! reads the SSE answer, and refreshes the live model catalog from `{base_url}/models`.
//!
//! - [`ResponsesClient::stream`] opens a stream ([`ResponseStream`], pulled event by event);
//!   [`ResponsesClient::send`] reads it to the end, reporting events as they arrive, and returns
//!   a [`CompletedResponse`] whose items go into history and the rollout, and whose usage becomes
//!   a `token_count` line (`TokenUsageInfo::after_response` and `token_count_rollout_item` in
//!   `codex_protocol::rollout`).
//! - Failures before the stream starts (429, 5xx, transport) are retried `request_max_retries`
//!   times; `send` also resends a stream that broke off or failed retryably, `stream_max_retries`
//!   times. Waits double from `retry_base_delay` with jitter, unless the server named one
//!   (`Retry-After`, `retry-after-ms`, "try again in N s"). Other 4xx answers fail at once with
//!   the server's message.
//! - Every wait is bounded, and a [`ClientError::Timeout`] names the URL, what it waited for
//!   ([`WaitedFor`]: a connection, the response headers, the first body bytes, more of them)
//!   and how long: `connect_timeout`, then `first_byte_timeout` for the headers and again for
//!   the first bytes of the stream, then `stream_idle_timeout` between chunks. `GET /models`
//!   bounds each wait by `models_request_timeout` and the whole call by `models_total_timeout`.
//!   config.toml's `model_provider` table sets them ([`ClientConfig::with_network`]).
//! - The [`ApiKey`] is written into the `Authorization` header and nowhere else: it prints as
//!   `[redacted]`, and server text that echoes it is scrubbed before it lands in an error.
//! - [`refresh_models`] fetches the catalog with ETag support and keeps
//!   `$CODEX_HOME/models_cache.json` (format in `codex-models-manager`), falling back to the
//!   cache and then to the bundled catalog with warnings.
//!
//! Time is injectable ([`Clock`], [`Sleeper`]) so tests exercise retries without waiting.

mod config;
mod error;
mod events;
mod http;
mod models_refresh;
mod retry;
mod sse;
mod stream;
mod usage;

pub use config::ApiKey;
pub use config::BaseUrlSource;
pub use config::ClientConfig;
pub use config::DEFAULT_CONNECT_TIMEOUT;
pub use config::DEFAULT_FIRST_BYTE_TIMEOUT;
pub use config::DEFAULT_MAX_RETRY_DELAY;
pub use config::DEFAULT_MODELS_REQUEST_TIMEOUT;
pub use config::DEFAULT_MODELS_TOTAL_TIMEOUT;
pub use config::DEFAULT_ORIGINATOR;
pub use config::DEFAULT_REQUEST_MAX_RETRIES;
pub use config::DEFAULT_RETRY_BASE_DELAY;
pub use config::DEFAULT_STREAM_IDLE_TIMEOUT;
pub use config::DEFAULT_STREAM_MAX_RETRIES;
pub use config::OPENAI_API_BASE_URL;
pub use config::OPENAI_API_KEY_ENV;
pub use config::OPENAI_BASE_URL_ENV;
pub use config::REDACTED;
pub use config::RESPONSES_LITE_HEADER;
pub use config::RequestBody;
pub use config::RequestHeaders;
pub use config::ResolvedBaseUrl;
pub use config::ResponsesLite;
pub use config::resolve_base_url;
pub use config::user_agent;
pub use error::ClientError;
pub use error::FailureCode;
pub use error::WaitedFor;
pub use events::ResponseEvent;
pub use http::CompletedResponse;
pub use http::ModelsFetch;
pub use http::ResponsesClient;
pub use http::StreamProgress;
pub use models_refresh::CatalogSource;
pub use models_refresh::ModelsRefreshOptions;
pub use models_refresh::RefreshStrategy;
pub use models_refresh::RefreshWarning;
pub use models_refresh::RefreshedCatalog;
pub use models_refresh::refresh_models;
pub use models_refresh::refresh_models_if_new_etag;
pub use retry::Clock;
pub use retry::Sleeper;
pub use retry::SystemClock;
pub use retry::TokioSleeper;
pub use stream::MODELS_ETAG_HEADER;
pub use stream::ResponseStream;
pub use stream::SERVER_MODEL_HEADER;
