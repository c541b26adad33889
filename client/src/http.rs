//! The HTTP side: `POST /responses` with retries, whole-response collection, `GET /models`.

use std::sync::Arc;
use std::time::Duration;

use codex_protocol::ResponseItem;
use codex_protocol::openai_models::ModelsResponse;
use reqwest::StatusCode;
use reqwest::Url;
use reqwest::header::ACCEPT;
use reqwest::header::ACCEPT_ENCODING;
use reqwest::header::AUTHORIZATION;
use reqwest::header::CONTENT_TYPE;
use reqwest::header::ETAG;
use reqwest::header::HeaderMap;
use reqwest::header::HeaderName;
use reqwest::header::HeaderValue;
use reqwest::header::IF_NONE_MATCH;
use reqwest::header::USER_AGENT;

use super::config::ClientConfig;
use super::config::RESPONSES_LITE_HEADER;
use super::config::RequestBody;
use super::config::RequestHeaders;
use super::config::ResponsesLite;
use super::error::ClientError;
use super::error::WaitedFor;
use super::events::ResponseEvent;
use super::retry::retry_after_from_headers;
use super::retry::retry_delay;
use super::retry::try_again_in;
use super::stream::ResponseStream;
use codex_protocol::rollout::TokenUsage;

/// Server text kept in an error is cut to this many bytes.
const MAX_ERROR_MESSAGE_BYTES: usize = 4096;

/// What [`ResponsesClient::send`] reports while it works.
#[derive(Debug)]
pub enum StreamProgress<'a> {
    /// An event of the current attempt, as it arrives (text deltas included).
    Event(&'a ResponseEvent),
    /// The attempt failed retryably; the request is sent again after `delay`. Events already
    /// reported belong to the abandoned attempt.
    Retrying {
        retry: u32,
        max_retries: u32,
        delay: Duration,
        error: &'a ClientError,
    },
}

/// A response streamed to its end.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedResponse {
    pub response_id: String,
    /// Every `response.output_item.done` item, in stream order: what history and the rollout
    /// record, and what the next request continues from.
    pub items: Vec<ResponseItem>,
    pub token_usage: Option<TokenUsage>,
    pub end_turn: Option<bool>,
    pub server_model: Option<String>,
    pub models_etag: Option<String>,
}

/// Result of `GET /models`.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelsFetch {
    Fetched {
        response: ModelsResponse,
        etag: Option<String>,
    },
    /// `304 Not Modified`: the catalog with the ETag sent is still current.
    NotModified,
}

/// Whether a client decodes compressed response bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compression {
    Identity,
    Decoded,
}

/// A client for one Responses API provider. Cheap to clone; clones share connections.
#[derive(Debug, Clone)]
pub struct ResponsesClient {
    /// Sends no `accept-encoding` and decodes nothing.
    http: reqwest::Client,
    /// Decodes gzip and zstd bodies: for requests that ask for them
    /// ([`RequestHeaders::accept_encoding`]).
    decoding_http: reqwest::Client,
    config: Arc<ClientConfig>,
    responses_url: Url,
    models_url: Url,
}

impl ResponsesClient {
    pub fn new(config: ClientConfig) -> Result<Self, ClientError> {
        let endpoint = |segment: &str| {
            let invalid = |reason: String| ClientError::InvalidBaseUrl {
                url: config.base_url.clone(),
                reason,
            };
            let mut url =
                Url::parse(&config.base_url).map_err(|error| invalid(error.to_string()))?;
            url.path_segments_mut()
                .map_err(|()| invalid("it cannot have a path".to_string()))?
                .pop_if_empty()
                .push(segment);
            Ok::<Url, ClientError>(url)
        };
        let with_query = |mut url: Url| {
            if !config.query_params.is_empty() {
                url.query_pairs_mut().extend_pairs(&config.query_params);
            }
            url
        };
        let responses_url = with_query(endpoint("responses")?);
        let models_url = with_query(endpoint("models")?);
        let builder = |compression: Compression| {
            let builder = match proxy_use(&responses_url) {
                ProxyUse::Environment => reqwest::Client::builder(),
                ProxyUse::Direct => reqwest::Client::builder().no_proxy(),
            };
            let decodes = match compression {
                Compression::Identity => false,
                Compression::Decoded => true,
            };
            builder
                .connect_timeout(config.connect_timeout)
                .gzip(decodes)
                .zstd(decodes)
                .build()
                .map_err(|error| ClientError::ClientSetup(error.to_string()))
        };
        let http = builder(Compression::Identity)?;
        let decoding_http = builder(Compression::Decoded)?;
        Ok(Self {
            http,
            decoding_http,
            config: Arc::new(config),
            responses_url,
            models_url,
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// `{base_url}/responses`.
    pub fn responses_url(&self) -> &Url {
        &self.responses_url
    }

    /// `{base_url}/models` (without the `client_version` query).
    pub fn models_url(&self) -> &Url {
        &self.models_url
    }

    /// Sends the request and returns its event stream once a success status arrived. Failures
    /// before that (429, 5xx, transport, no headers within the idle timeout) are retried up to
    /// `request_max_retries` times; the stream itself is not retried.
    pub async fn stream(
        &self,
        body: &RequestBody,
        headers: &RequestHeaders,
    ) -> Result<ResponseStream, ClientError> {
        self.open(body, headers, &mut |progress| {
            if let StreamProgress::Retrying {
                retry,
                delay,
                error,
                ..
            } = progress
            {
                tracing::warn!(
                    "{error}; retrying the /responses request in {:.1} s (retry {retry})",
                    delay.as_secs_f64()
                );
            }
        })
        .await
    }

    /// Sends the request and reads the stream to `response.completed`, reporting events as they
    /// arrive. Besides the request retries of [`ResponsesClient::stream`], a stream that breaks
    /// off, goes idle or fails retryably is sent again whole, up to `stream_max_retries` times.
    pub async fn send(
        &self,
        body: &RequestBody,
        headers: &RequestHeaders,
        mut on_progress: impl FnMut(StreamProgress<'_>),
    ) -> Result<CompletedResponse, ClientError> {
        let max_retries = self.config.stream_max_retries;
        let mut retry = 0;
        loop {
            let mut stream = self.open(body, headers, &mut on_progress).await?;
            let mut items = Vec::new();
            let error = loop {
                match stream.next_event().await {
                    Some(Ok(event)) => {
                        on_progress(StreamProgress::Event(&event));
                        match event {
                            ResponseEvent::OutputItemDone(item) => items.push(item),
                            ResponseEvent::Completed {
                                response_id,
                                token_usage,
                                end_turn,
                            } => {
                                return Ok(CompletedResponse {
                                    response_id,
                                    items,
                                    token_usage,
                                    end_turn,
                                    server_model: stream.server_model().map(str::to_string),
                                    models_etag: stream.models_etag().map(str::to_string),
                                });
                            }
                            ResponseEvent::Created { .. }
                            | ResponseEvent::OutputItemAdded(_)
                            | ResponseEvent::OutputTextDelta { .. }
                            | ResponseEvent::CustomToolCallInputDelta { .. }
                            | ResponseEvent::ReasoningSummaryDelta { .. }
                            | ResponseEvent::ReasoningSummaryPartAdded { .. }
                            | ResponseEvent::ReasoningContentDelta { .. } => {}
                        }
                    }
                    Some(Err(error)) => break error,
                    None => break ClientError::StreamClosedEarly,
                }
            };
            if !error.is_retryable() || retry >= max_retries {
                return Err(error);
            }
            retry += 1;
            self.wait_before_retry(retry, max_retries, &error, &mut on_progress)
                .await;
        }
    }

    /// `GET {base_url}/models?client_version=…`, with `If-None-Match` when a cached ETag is
    /// given. One attempt: callers fall back to a cache. Each wait (headers, first body bytes,
    /// more of them) is limited by `models_request_timeout` and the whole call by
    /// `models_total_timeout`; a timeout says which wait ran out.
    pub async fn fetch_models(
        &self,
        client_version: &str,
        cached_etag: Option<&str>,
    ) -> Result<ModelsFetch, ClientError> {
        let mut url = self.models_url.clone();
        url.query_pairs_mut()
            .append_pair("client_version", client_version);
        let mut headers = self.common_headers()?;
        if let Some(etag) = cached_etag {
            headers.insert(IF_NONE_MATCH, header_value("if-none-match", etag)?);
        }
        let wait = self.config.models_request_timeout;
        let deadline = tokio::time::Instant::now() + self.config.models_total_timeout;
        let timeout = |waited_for: WaitedFor, limit: WaitLimit| ClientError::Timeout {
            url: self.models_url.to_string(),
            // A body that was still coming in when the whole call ran out of time did not stall.
            waited_for: match (limit, waited_for) {
                (WaitLimit::Total, WaitedFor::MoreBodyBytes { received }) => {
                    WaitedFor::BodyEnd { received }
                }
                (WaitLimit::Wait | WaitLimit::Total, waited_for) => waited_for,
            },
            timeout: match limit {
                WaitLimit::Wait => wait,
                WaitLimit::Total => self.config.models_total_timeout,
            },
        };
        let request = self.http.get(url).headers(headers).send();
        let mut response = match bounded_wait(wait, deadline, request).await {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => return Err(self.transport_error(&error, &self.models_url)),
            Err(limit) => return Err(timeout(WaitedFor::Headers, limit)),
        };
        let status = response.status();
        if status == StatusCode::NOT_MODIFIED {
            return Ok(ModelsFetch::NotModified);
        }
        if !status.is_success() {
            return Err(self.http_error(response, wait).await);
        }
        let etag = response
            .headers()
            .get(ETAG)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let mut bytes = Vec::new();
        loop {
            let waited_for = match bytes.len() {
                0 => WaitedFor::FirstBodyBytes,
                received => WaitedFor::MoreBodyBytes {
                    received: received as u64,
                },
            };
            match bounded_wait(wait, deadline, response.chunk()).await {
                Ok(Ok(Some(chunk))) => bytes.extend_from_slice(&chunk),
                Ok(Ok(None)) => break,
                Ok(Err(error)) => return Err(self.transport_error(&error, &self.models_url)),
                Err(limit) => return Err(timeout(waited_for, limit)),
            }
        }
        let response = serde_json::from_slice::<ModelsResponse>(&bytes)
            .map_err(|error| ClientError::InvalidModelsResponse(error.to_string()))?;
        Ok(ModelsFetch::Fetched { response, etag })
    }

    /// One `POST /responses` with request-level retries, up to a success status.
    async fn open(
        &self,
        body: &RequestBody,
        request_headers: &RequestHeaders,
        on_progress: &mut dyn FnMut(StreamProgress<'_>),
    ) -> Result<ResponseStream, ClientError> {
        let mut headers = self.common_headers()?;
        headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let optional = [
            ("x-client-request-id", request_headers.thread_id.as_deref()),
            ("session-id", request_headers.session_id.as_deref()),
            ("thread-id", request_headers.thread_id.as_deref()),
            ("x-codex-window-id", request_headers.window_id.as_deref()),
            (
                "x-codex-turn-metadata",
                request_headers.turn_metadata.as_deref(),
            ),
            (
                "x-codex-beta-features",
                request_headers.beta_features.as_deref(),
            ),
        ];
        for (name, value) in optional {
            if let Some(value) = value {
                headers.insert(HeaderName::from_static(name), header_value(name, value)?);
            }
        }
        // reqwest sends `accept-encoding` only on the decoding client, and only the one given
        // here (it adds its own only where none is set).
        let http = match &request_headers.accept_encoding {
            Some(encodings) => {
                headers.insert(ACCEPT_ENCODING, header_value("accept-encoding", encodings)?);
                &self.decoding_http
            }
            None => &self.http,
        };
        match request_headers.responses_lite {
            ResponsesLite::On => {
                headers.insert(
                    HeaderName::from_static(RESPONSES_LITE_HEADER),
                    HeaderValue::from_static("true"),
                );
            }
            ResponsesLite::Off => {}
        }
        for (name, value) in &request_headers.extra {
            let header_name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| ClientError::InvalidHeader { name: name.clone() })?;
            headers.append(header_name, header_value(name, value)?);
        }
        let first_byte_timeout = self.config.first_byte_timeout;
        let max_retries = self.config.request_max_retries;
        let mut retry = 0;
        loop {
            let request = http
                .post(self.responses_url.clone())
                .headers(headers.clone())
                .body(body.as_bytes().to_vec())
                .send();
            let error = match tokio::time::timeout(first_byte_timeout, request).await {
                Ok(Ok(response)) if response.status().is_success() => {
                    return Ok(ResponseStream::new(
                        response,
                        self.responses_url.to_string(),
                        first_byte_timeout,
                        self.config.stream_idle_timeout,
                        self.config.api_key.clone(),
                    ));
                }
                Ok(Ok(response)) => self.http_error(response, first_byte_timeout).await,
                Ok(Err(error)) => self.transport_error(&error, &self.responses_url),
                Err(_elapsed) => ClientError::Timeout {
                    url: self.responses_url.to_string(),
                    waited_for: WaitedFor::Headers,
                    timeout: first_byte_timeout,
                },
            };
            if !error.is_retryable() || retry >= max_retries {
                return Err(error);
            }
            retry += 1;
            self.wait_before_retry(retry, max_retries, &error, on_progress)
                .await;
        }
    }

    async fn wait_before_retry(
        &self,
        retry: u32,
        max_retries: u32,
        error: &ClientError,
        on_progress: &mut dyn FnMut(StreamProgress<'_>),
    ) {
        let delay = retry_delay(
            error.server_retry_delay(),
            self.config.retry_base_delay,
            self.config.max_retry_delay,
            retry,
        );
        on_progress(StreamProgress::Retrying {
            retry,
            max_retries,
            delay,
            error,
        });
        self.config.sleeper.sleep(delay).await;
    }

    /// The provider's headers, then authorization (unless there is no key), originator and
    /// user agent, sent on every call.
    fn common_headers(&self) -> Result<HeaderMap, ClientError> {
        let mut headers = HeaderMap::new();
        for (name, value) in &self.config.provider_headers {
            let header_name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| ClientError::InvalidHeader { name: name.clone() })?;
            headers.insert(header_name, header_value(name, value)?);
        }
        if !self.config.api_key.is_absent() {
            let mut authorization = header_value(
                AUTHORIZATION.as_str(),
                &format!("Bearer {}", self.config.api_key.expose()),
            )?;
            authorization.set_sensitive(true);
            headers.insert(AUTHORIZATION, authorization);
        }
        headers.insert(
            HeaderName::from_static("originator"),
            header_value("originator", &self.config.originator)?,
        );
        headers.insert(
            USER_AGENT,
            header_value("user-agent", &self.config.user_agent)?,
        );
        Ok(headers)
    }

    /// A failure below HTTP; a connection that did not come up within `connect_timeout` is a
    /// [`ClientError::Timeout`] naming the URL.
    fn transport_error(&self, error: &reqwest::Error, url: &Url) -> ClientError {
        if error.is_connect() && error.is_timeout() {
            return ClientError::Timeout {
                url: url.to_string(),
                waited_for: WaitedFor::Connection,
                timeout: self.config.connect_timeout,
            };
        }
        ClientError::Transport(self.config.api_key.scrub(&error.to_string()))
    }

    /// A non-success answer as an error carrying the server's message and delay hint.
    async fn http_error(&self, response: reqwest::Response, timeout: Duration) -> ClientError {
        let status = response.status().as_u16();
        let header_delay = retry_after_from_headers(response.headers(), self.config.clock.now());
        let body = match tokio::time::timeout(timeout, response.bytes()).await {
            Ok(Ok(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
            Ok(Err(_)) | Err(_) => String::new(),
        };
        let parsed: Option<serde_json::Value> = serde_json::from_str(&body).ok();
        let error_field = |field: &str| {
            parsed
                .as_ref()
                .and_then(|value| value.pointer(&format!("/error/{field}")))
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        };
        let code = error_field("code").or_else(|| error_field("type"));
        let message = error_field("message").unwrap_or_else(|| body.trim().to_string());
        let mut message = self.config.api_key.scrub(&message);
        if message.len() > MAX_ERROR_MESSAGE_BYTES {
            let mut cut = MAX_ERROR_MESSAGE_BYTES;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push('…');
        }
        if message.is_empty() {
            message = StatusCode::from_u16(status)
                .ok()
                .and_then(|status| status.canonical_reason())
                .unwrap_or("no message")
                .to_string();
        }
        let retry_after = header_delay.or_else(|| try_again_in(&message));
        ClientError::Http {
            status,
            code,
            message,
            retry_after,
        }
    }
}

/// Which bound of [`bounded_wait`] ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WaitLimit {
    /// The single wait took longer than its limit.
    Wait,
    /// The exchange as a whole reached its deadline.
    Total,
}

/// `future`, unless `wait` passes first or `deadline` comes first.
async fn bounded_wait<T>(
    wait: Duration,
    deadline: tokio::time::Instant,
    future: impl std::future::Future<Output = T>,
) -> Result<T, WaitLimit> {
    let wait_ends = tokio::time::Instant::now() + wait;
    let (ends, limit) = match wait_ends < deadline {
        true => (wait_ends, WaitLimit::Wait),
        false => (deadline, WaitLimit::Total),
    };
    tokio::time::timeout_at(ends, future)
        .await
        .map_err(|_elapsed| limit)
}

/// A header value; invalid text is an error naming the header, never echoing the value (it may
/// be the key).
/// How requests reach their endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProxyUse {
    /// Through the proxy `HTTP_PROXY`, `HTTPS_PROXY` or `ALL_PROXY` names, unless `NO_PROXY`
    /// exempts the host.
    Environment,
    /// Straight to the endpoint.
    Direct,
}

/// An endpoint on this machine (`localhost`, `127.0.0.0/8`, `::1`: a mock server, the recording
/// proxy) is reached directly even where a proxy is configured, which could not reach it; any
/// other goes through the environment's proxy.
fn proxy_use(url: &Url) -> ProxyUse {
    let host = url.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let local = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback());
    if local {
        ProxyUse::Direct
    } else {
        ProxyUse::Environment
    }
}

fn header_value(name: &str, value: &str) -> Result<HeaderValue, ClientError> {
    HeaderValue::from_str(value).map_err(|_| ClientError::InvalidHeader {
        name: name.to_string(),
    })
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
