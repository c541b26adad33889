//! One open response stream, read event by event.

use std::collections::VecDeque;
use std::time::Duration;

use super::config::ApiKey;
use super::error::ClientError;
use super::error::WaitedFor;
use super::events::ParsedEvent;
use super::events::ResponseEvent;
use super::events::parse_event;
use super::sse::SseDecoder;

/// Response header naming the model that actually served the request.
pub const SERVER_MODEL_HEADER: &str = "openai-model";
/// Response header carrying the current ETag of the provider's model catalog.
pub const MODELS_ETAG_HEADER: &str = "x-models-etag";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadState {
    /// More bytes may come.
    Open,
    /// The server closed the body; buffered events are still being handed out.
    BodyEnded,
    /// A terminal event or error was handed out; nothing follows.
    Done,
}

/// The event stream of one `POST /responses` whose headers arrived with a success status.
///
/// [`ResponseStream::next_event`] yields events in order and ends after
/// [`ResponseEvent::Completed`] or after the first error: a body that ends without
/// `response.completed` yields [`ClientError::StreamClosedEarly`], and a wait longer than the
/// first-byte timeout for the first bytes, or than the idle timeout for more of them, yields a
/// [`ClientError::Timeout`] saying which.
#[derive(Debug)]
pub struct ResponseStream {
    response: reqwest::Response,
    decoder: SseDecoder,
    pending: VecDeque<String>,
    state: ReadState,
    /// `{base_url}/responses`, for messages.
    url: String,
    first_byte_timeout: Duration,
    idle_timeout: Duration,
    /// Body bytes read so far.
    received: u64,
    api_key: ApiKey,
    server_model: Option<String>,
    models_etag: Option<String>,
}

impl ResponseStream {
    pub(crate) fn new(
        response: reqwest::Response,
        url: String,
        first_byte_timeout: Duration,
        idle_timeout: Duration,
        api_key: ApiKey,
    ) -> Self {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_string)
        };
        let server_model = header(SERVER_MODEL_HEADER);
        let models_etag = header(MODELS_ETAG_HEADER);
        Self {
            response,
            decoder: SseDecoder::default(),
            pending: VecDeque::new(),
            state: ReadState::Open,
            url,
            first_byte_timeout,
            idle_timeout,
            received: 0,
            api_key,
            server_model,
            models_etag,
        }
    }

    /// The `openai-model` response header, when the server sent one.
    pub fn server_model(&self) -> Option<&str> {
        self.server_model.as_deref()
    }

    /// The `X-Models-Etag` response header; when it differs from the cached catalog's ETag the
    /// catalog should be refreshed (`refresh_models_if_new_etag`).
    pub fn models_etag(&self) -> Option<&str> {
        self.models_etag.as_deref()
    }

    /// The next event; `None` once the stream has ended (after `Completed` or an error).
    pub async fn next_event(&mut self) -> Option<Result<ResponseEvent, ClientError>> {
        loop {
            if let Some(data) = self.pending.pop_front() {
                match parse_event(&data, &self.api_key) {
                    ParsedEvent::Event(event) => {
                        if matches!(event, ResponseEvent::Completed { .. }) {
                            self.finish();
                        }
                        return Some(Ok(event));
                    }
                    ParsedEvent::Error(error) => {
                        self.finish();
                        return Some(Err(error));
                    }
                    ParsedEvent::Ignored => continue,
                }
            }
            match self.state {
                ReadState::Done => return None,
                ReadState::BodyEnded => {
                    self.finish();
                    return Some(Err(ClientError::StreamClosedEarly));
                }
                ReadState::Open => {}
            }
            let (waited_for, timeout) = match self.received {
                0 => (WaitedFor::FirstBodyBytes, self.first_byte_timeout),
                received => (WaitedFor::MoreBodyBytes { received }, self.idle_timeout),
            };
            match tokio::time::timeout(timeout, self.response.chunk()).await {
                Ok(Ok(Some(chunk))) => {
                    self.received += chunk.len() as u64;
                    self.pending.extend(self.decoder.push(&chunk));
                }
                Ok(Ok(None)) => {
                    self.state = ReadState::BodyEnded;
                    self.pending.extend(self.decoder.finish());
                }
                Ok(Err(error)) => {
                    self.finish();
                    return Some(Err(ClientError::Transport(
                        self.api_key.scrub(&error.to_string()),
                    )));
                }
                Err(_elapsed) => {
                    self.finish();
                    return Some(Err(ClientError::Timeout {
                        url: self.url.clone(),
                        waited_for,
                        timeout,
                    }));
                }
            }
        }
    }

    fn finish(&mut self) {
        self.state = ReadState::Done;
        self.pending.clear();
    }
}
