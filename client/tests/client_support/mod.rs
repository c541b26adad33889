//! Shared doubles for the client tests: a sleeper that records instead of waiting, a settable
//! clock, SSE body builders, and a raw socket server that stalls mid-stream.
#![allow(dead_code, clippy::expect_used)]

use std::future::Future;
use std::io::Read;
use std::io::Write;
use std::net::TcpListener;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use codex_client::ApiKey;
use codex_client::ClientConfig;
use codex_client::Clock;
use codex_client::Sleeper;
use jiff::Timestamp;

/// The key every test uses; no output may contain it except the Authorization header.
pub const SECRET_KEY: &str = "sk-test-SECRET-0123456789";

/// Records every requested delay and returns at once.
#[derive(Debug, Default)]
pub struct RecordingSleeper {
    delays: Mutex<Vec<Duration>>,
}

impl RecordingSleeper {
    pub fn delays(&self) -> Vec<Duration> {
        self.delays.lock().expect("lock").clone()
    }
}

impl Sleeper for RecordingSleeper {
    fn sleep(&self, delay: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.delays.lock().expect("lock").push(delay);
        Box::pin(std::future::ready(()))
    }
}

/// A clock that only moves when told to.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<Timestamp>,
}

impl ManualClock {
    pub fn at(text: &str) -> Arc<Self> {
        Arc::new(Self {
            now: Mutex::new(text.parse().expect("timestamp")),
        })
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().expect("lock");
        *now = now.checked_add(by).expect("time stays in range");
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self.now.lock().expect("lock")
    }
}

/// Fast, deterministic settings: no real sleeping, short idle timeout.
pub fn test_config(base_url: &str, sleeper: Arc<RecordingSleeper>) -> ClientConfig {
    let mut config = ClientConfig::new(base_url, ApiKey::new(SECRET_KEY));
    config.originator = "codex_context_tests".to_string();
    config.retry_base_delay = Duration::from_millis(100);
    config.stream_idle_timeout = Duration::from_secs(5);
    config.sleeper = sleeper;
    config.clock = ManualClock::at("2026-03-01T10:00:00Z");
    config
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

pub fn completed_event(response_id: &str) -> serde_json::Value {
    serde_json::json!({
        "type": "response.completed",
        "response": {"id": response_id, "usage": {
            "input_tokens": 1200,
            "input_tokens_details": {"cached_tokens": 1000},
            "output_tokens": 30,
            "output_tokens_details": {"reasoning_tokens": 10},
            "total_tokens": 1230
        }}
    })
}

/// One step of a [`scripted_server`]'s answer.
pub enum Step {
    Write(String),
    Sleep(Duration),
}

/// The status line and headers of a `200` event stream that closes with the connection.
pub const EVENT_STREAM_HEAD: &str =
    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";

/// Serves one HTTP request on a local port: reads it whole, then plays `steps` (writes and
/// pauses) and keeps the connection open until the last step is done. Returns the base URL.
pub fn scripted_server(steps: Vec<Step>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || {
        let Ok((mut socket, _)) = listener.accept() else {
            return;
        };
        read_request(&mut socket);
        for step in steps {
            match step {
                Step::Write(text) => {
                    let _ = socket.write_all(text.as_bytes());
                    let _ = socket.flush();
                }
                Step::Sleep(pause) => std::thread::sleep(pause),
            }
        }
    });
    format!("http://{address}/v1")
}

/// Serves one HTTP request on a local port: answers 200 with `first_bytes` of an event stream,
/// then keeps the connection open without sending more for `stall`. Returns the base URL.
pub fn stalling_server(first_bytes: String, stall: Duration) -> String {
    scripted_server(vec![
        Step::Write(format!("{EVENT_STREAM_HEAD}{first_bytes}")),
        Step::Sleep(stall),
    ])
}

/// Reads request headers and a `content-length` body, so the client sees its request consumed.
fn read_request(socket: &mut std::net::TcpStream) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let Ok(read) = socket.read(&mut buffer) else {
            return;
        };
        if read == 0 {
            return;
        }
        received.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&received).to_ascii_lowercase();
        if let Some(head_end) = text.find("\r\n\r\n") {
            let length = text[..head_end]
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if received.len() >= head_end + 4 + length {
                return;
            }
        }
    }
}
