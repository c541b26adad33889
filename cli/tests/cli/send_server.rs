//! A tiny local Responses API server on 127.0.0.1 (std sockets, one request per connection):
//! it records every request and answers with what the test's handler returns.
#![allow(dead_code)]

use std::io::BufRead;
use std::io::BufReader;
use std::io::Read;
use std::io::Write;
use std::net::TcpListener;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::Mutex;

/// One request as the server read it. Header names are lowercase.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    /// Path and query, e.g. `/v1/models?client_version=0.1.0`.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RecordedRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }
}

/// What the server sends back.
pub enum Reply {
    /// `200` with an event stream; the connection closes after the body (a body without
    /// `response.completed` is a stream that broke off).
    EventStream(String),
    /// `200` with a JSON body and optionally an `ETag`.
    Json {
        etag: Option<String>,
        body: String,
    },
    NotModified,
    Status {
        code: u16,
        body: String,
    },
}

type Handler = dyn Fn(&RecordedRequest, usize) -> Reply + Send + Sync;

pub struct TestServer {
    address: std::net::SocketAddr,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
}

impl TestServer {
    /// Starts serving; `handler` gets each request and its 0-based number.
    pub fn start(
        handler: impl Fn(&RecordedRequest, usize) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
        let address = listener.local_addr().expect("local address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let handler: Arc<Handler> = Arc::new(handler);
        std::thread::spawn(move || {
            for socket in listener.incoming() {
                let Ok(socket) = socket else { continue };
                let Some(request) = read_request(&socket) else {
                    continue;
                };
                let number = {
                    let mut all = recorded.lock().expect("lock");
                    all.push(request.clone());
                    all.len() - 1
                };
                write_reply(socket, handler(&request, number));
            }
        });
        Self { address, requests }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.address)
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.requests.lock().expect("lock").clone()
    }
}

/// Reads one request (head and `content-length` body) from `socket`.
pub fn read_request(socket: &TcpStream) -> Option<RecordedRequest> {
    let mut reader = BufReader::new(socket);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(RecordedRequest {
        method,
        target,
        headers,
        body,
    })
}

fn write_reply(mut socket: TcpStream, reply: Reply) {
    let (status, extra, body) = match reply {
        Reply::EventStream(body) => (
            "200 OK".to_string(),
            "content-type: text/event-stream\r\n".to_string(),
            body,
        ),
        Reply::Json { etag, body } => (
            "200 OK".to_string(),
            format!(
                "content-type: application/json\r\ncontent-length: {}\r\n{}",
                body.len(),
                etag.map(|etag| format!("etag: {etag}\r\n"))
                    .unwrap_or_default()
            ),
            body,
        ),
        Reply::NotModified => (
            "304 Not Modified".to_string(),
            "content-length: 0\r\n".to_string(),
            String::new(),
        ),
        Reply::Status { code, body } => (
            format!("{code} Status"),
            format!(
                "content-type: application/json\r\ncontent-length: {}\r\n",
                body.len()
            ),
            body,
        ),
    };
    let head = format!("HTTP/1.1 {status}\r\n{extra}connection: close\r\n\r\n");
    let _ = socket.write_all(head.as_bytes());
    let _ = socket.write_all(body.as_bytes());
    let _ = socket.flush();
}

/// An SSE body: one `event:`/`data:` block per JSON event, named after its `type`.
pub fn sse_body(events: &[serde_json::Value]) -> String {
    events
        .iter()
        .map(|event| {
            let kind = event["type"].as_str().expect("event type");
            format!("event: {kind}\ndata: {event}\n\n")
        })
        .collect()
}

/// The events of an answer streamed as `deltas`, then its finished message item (server id
/// `msg_server_1`), then `response.completed` with usage.
pub fn answer_events(deltas: &[&str]) -> Vec<serde_json::Value> {
    let text: String = deltas.concat();
    let mut events = vec![serde_json::json!({
        "type": "response.created",
        "response": {"id": "resp_1"},
    })];
    for delta in deltas {
        events.push(serde_json::json!({
            "type": "response.output_text.delta",
            "delta": delta,
        }));
    }
    events.push(serde_json::json!({
        "type": "response.output_item.done",
        "item": {
            "type": "message",
            "id": "msg_server_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        },
    }));
    events.push(serde_json::json!({
        "type": "response.completed",
        "response": {"id": "resp_1", "usage": {
            "input_tokens": 1200,
            "input_tokens_details": {"cached_tokens": 1000},
            "output_tokens": 30,
            "output_tokens_details": {"reasoning_tokens": 10},
            "total_tokens": 1230,
        }},
    }));
    events
}
