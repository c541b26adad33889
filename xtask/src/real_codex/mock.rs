//! A loopback mock of the Responses API: `POST …/responses` is answered with an SSE stream
//! (the scenario's next reply, else the text `Done.`), `GET …/models` with `{"models": []}`,
//! and every request is recorded (method, path, headers with secrets redacted, body).
//!
//! Plain `std::net` with a thread per connection and HTTP/1.1 keep-alive: enough for the
//! release's reqwest client and for `codex-context send`, and nothing to build.

use std::collections::VecDeque;
use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::net::SocketAddr;
use std::net::TcpListener;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;
use serde_json::json;

use super::scenario::Reply;

/// Header values never recorded.
const SECRET_HEADERS: [&str; 3] = ["authorization", "api-key", "x-api-key"];
/// What a secret header's value is recorded as.
pub const REDACTED: &str = "<redacted>";
/// The reply once the scenario's replies run out.
pub const DEFAULT_REPLY_TEXT: &str = "Done.";
const DEFAULT_INPUT_TOKENS: u64 = 100;
const OUTPUT_TOKENS: u64 = 5;
/// How long a connection may sit idle before its thread gives up.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// One request the mock received.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// Lower-cased names in arrival order; secret values replaced by [`REDACTED`].
    pub headers: Vec<(String, String)>,
    /// The JSON body (`Value::Null` without one; a string when it is not JSON).
    pub body: Value,
}

impl RecordedRequest {
    pub fn is_responses(&self) -> bool {
        self.method == "POST" && self.path.ends_with("/responses")
    }
}

/// The bytes of one exchange: the request body as received and the response body as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawExchange {
    pub request_body: Vec<u8>,
    pub response_body: Vec<u8>,
}

#[derive(Debug, Default)]
struct State {
    replies: VecDeque<Reply>,
    recorded: Vec<RecordedRequest>,
    /// Parallel to `recorded`.
    raw: Vec<RawExchange>,
    response_number: u64,
}

/// A running mock; stops when dropped.
#[derive(Debug)]
pub struct MockServer {
    address: SocketAddr,
    state: Arc<Mutex<State>>,
    stopping: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl MockServer {
    /// Listens on `127.0.0.1` at a free port.
    pub fn start(replies: &[Reply]) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let address = listener.local_addr()?;
        let state = Arc::new(Mutex::new(State {
            replies: replies.iter().cloned().collect(),
            ..State::default()
        }));
        let stopping = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let (state, stopping) = (Arc::clone(&state), Arc::clone(&stopping));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stopping.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let state = Arc::clone(&state);
                    std::thread::spawn(move || serve_connection(stream, &state));
                }
            })
        };
        Ok(Self {
            address,
            state,
            stopping,
            acceptor: Some(acceptor),
        })
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.address)
    }

    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// Forgets every request and reply: from now on it records afresh and answers with
    /// `replies` in order (then [`DEFAULT_REPLY_TEXT`]), at the same address.
    pub fn reset(&self, replies: &[Reply]) {
        *lock(&self.state) = State {
            replies: replies.iter().cloned().collect(),
            ..State::default()
        };
    }

    /// Everything recorded so far, in arrival order.
    pub fn recorded(&self) -> Vec<RecordedRequest> {
        lock(&self.state).recorded.clone()
    }

    /// The bytes of every exchange so far, parallel to [`MockServer::recorded`].
    pub fn raw_exchanges(&self) -> Vec<RawExchange> {
        lock(&self.state).raw.clone()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the acceptor so it sees the flag.
        let _ = TcpStream::connect(self.address);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Serves requests on one connection until the peer closes it.
fn serve_connection(stream: TcpStream, state: &Mutex<State>) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Some((request, request_body)) = read_request(&mut reader) {
        let (content_type, body) = answer(&request, state);
        let head = format!(
            "HTTP/1.1 {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
            if content_type.is_empty() {
                "404 Not Found"
            } else {
                "200 OK"
            },
            body.len()
        );
        {
            let mut state = lock(state);
            state.recorded.push(request);
            state.raw.push(RawExchange {
                request_body,
                response_body: body.clone(),
            });
        }
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(&body).is_err() {
            return;
        }
        let _ = writer.flush();
    }
}

/// The content type (empty for 404) and body answering `request`.
fn answer(request: &RecordedRequest, state: &Mutex<State>) -> (&'static str, Vec<u8>) {
    if request.is_responses() {
        let mut state = lock(state);
        state.response_number += 1;
        let reply = state.replies.pop_front();
        let events = reply_events(state.response_number, reply.as_ref());
        return ("text/event-stream", sse_body(&events).into_bytes());
    }
    if request.method == "GET"
        && request
            .path
            .split('?')
            .next()
            .unwrap_or("")
            .ends_with("/models")
    {
        return ("application/json", br#"{"models":[]}"#.to_vec());
    }
    ("", b"{}".to_vec())
}

/// The SSE events of response `number`: created, the output item added (and its text
/// delta), done, completed with usage.
pub fn reply_events(number: u64, reply: Option<&Reply>) -> Vec<Value> {
    let response_id = format!("resp_mock_{number}");
    let input_tokens = reply
        .and_then(|reply| reply.input_tokens)
        .unwrap_or(DEFAULT_INPUT_TOKENS);
    let mut events = vec![json!({"type": "response.created", "response": {"id": response_id}})];
    match reply.and_then(|reply| reply.function_call.as_ref()) {
        Some(call) => {
            let item = json!({
                "type": "function_call",
                "id": format!("fc_mock_{number}"),
                "call_id": format!("call_mock_{number}"),
                "name": call.name,
                "arguments": call.arguments.to_string(),
            });
            events.push(
                json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
            );
            events.push(
                json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
            );
        }
        None => {
            let text = reply
                .and_then(|reply| reply.text.clone())
                .unwrap_or_else(|| DEFAULT_REPLY_TEXT.to_string());
            let id = format!("msg_mock_{number}");
            events.push(json!({
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"type": "message", "role": "assistant", "id": id, "content": []},
            }));
            events.push(json!({
                "type": "response.output_text.delta",
                "output_index": 0,
                "content_index": 0,
                "item_id": id,
                "delta": text,
            }));
            events.push(json!({
                "type": "response.output_item.done",
                "output_index": 0,
                "item": {
                    "type": "message",
                    "role": "assistant",
                    "id": id,
                    "content": [{"type": "output_text", "text": text}],
                },
            }));
        }
    }
    events.push(json!({
        "type": "response.completed",
        "response": {"id": response_id, "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": OUTPUT_TOKENS,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + OUTPUT_TOKENS,
        }},
    }));
    events
}

/// One `event:`/`data:` block per event, named after its `type`.
pub fn sse_body(events: &[Value]) -> String {
    events
        .iter()
        .map(|event| {
            let kind = event
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("message");
            format!("event: {kind}\ndata: {event}\n\n")
        })
        .collect()
}

/// Reads one request (head, then a `content-length` or chunked body) and its body bytes; `None`
/// at the end of the connection or on a malformed request.
fn read_request(reader: &mut impl BufRead) -> Option<(RecordedRequest, Vec<u8>)> {
    let mut line = String::new();
    // Skip blank lines between requests.
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if !line.trim().is_empty() {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        let name = name.trim().to_ascii_lowercase();
        let value = if SECRET_HEADERS.contains(&name.as_str()) {
            REDACTED.to_string()
        } else {
            value.trim().to_string()
        };
        headers.push((name, value));
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let body = if header("transfer-encoding").is_some_and(|value| value.contains("chunked")) {
        read_chunked(reader)?
    } else {
        let length = header("content-length")
            .and_then(|value| value.parse::<usize>().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body).ok()?;
        body
    };
    let raw = body;
    let body = match raw.is_empty() {
        true => Value::Null,
        false => serde_json::from_slice(&raw)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&raw).into_owned())),
    };
    Some((
        RecordedRequest {
            method,
            path,
            headers,
            body,
        },
        raw,
    ))
}

fn read_chunked(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let size = usize::from_str_radix(line.trim().split(';').next()?, 16).ok()?;
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).ok()?;
        if size == 0 {
            return Some(body);
        }
        chunk.truncate(size);
        body.extend_from_slice(&chunk);
    }
}

#[cfg(test)]
#[path = "mock_tests.rs"]
mod tests;
