//! Writing a recording: one folder per thread, each request's exact bytes in a file of its own,
//! the response written line by line as it arrives, and `exchanges.jsonl` with one line per
//! event (request, response head, end). Every write goes straight to the file (no buffer kept
//! in the process), so a killed proxy leaves every line it had received.

use std::collections::HashMap;
use std::fs::File;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;
use std::time::Instant;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::ProxyError;
use crate::ProxyEvent;
use crate::decode::StreamDecoder;
use crate::line::EXCHANGES_FILE;
use crate::line::ExchangeLine;
use crate::line::Outcome;
use crate::sse::SseWatcher;

/// The thread folder of requests that name no `prompt_cache_key` and no session id.
pub const UNTHREADED: &str = "unthreaded";
/// The header in which Codex names the turn a request belongs to (`turn_id` in its JSON).
const TURN_METADATA_HEADER: &str = "x-codex-turn-metadata";
/// The longest thread folder name taken from a key.
const MAX_FOLDER_NAME: usize = 80;

/// The writer of one recording folder, shared by every connection.
#[derive(Debug)]
pub struct Recorder {
    root: PathBuf,
    threads: Mutex<HashMap<String, Arc<ThreadFiles>>>,
    life: Arc<Lifecycle>,
}

/// What the records under way share with the proxy's stop.
#[derive(Debug, Default)]
struct Lifecycle {
    /// Exchanges begun and not yet ended.
    under_way: AtomicUsize,
    /// Set when the proxy cuts the exchanges still under way at its stop.
    stopping: AtomicBool,
}

#[derive(Debug)]
struct ThreadFiles {
    key: String,
    dir: PathBuf,
    next: Mutex<u32>,
    exchanges: Mutex<File>,
}

impl ThreadFiles {
    fn append(&self, line: &ExchangeLine) {
        let mut text = match serde_json::to_string(line) {
            Ok(text) => text,
            Err(error) => {
                tracing::warn!("A recording line could not be serialised: {error}.");
                return;
            }
        };
        text.push('\n');
        let result = match self.exchanges.lock() {
            Ok(mut file) => file.write_all(text.as_bytes()),
            Err(_) => Ok(()),
        };
        if let Err(error) = result {
            tracing::warn!(
                "The recording {} could not be written: {error}.",
                self.dir.join(EXCHANGES_FILE).display()
            );
        }
    }
}

/// What a request looked like on arrival, for [`Recorder::begin`].
#[derive(Debug)]
pub struct ArrivedRequest<'a> {
    pub thread_key: Option<String>,
    pub method: &'a str,
    pub path: &'a str,
    pub headers: Vec<(String, String)>,
    /// The bytes as they came.
    pub wire: &'a [u8],
    /// The decoded JSON when the bytes came compressed (`None` when they did not).
    pub decoded: Option<(&'a [u8], &'static str)>,
    /// The body when it is a Responses request, for the live view.
    pub request_body: Option<Value>,
    /// Where the exchange's [`ProxyEvent`] goes when it ends.
    pub events: Option<mpsc::Sender<ProxyEvent>>,
}

impl Recorder {
    /// Creates `root` when missing; files already in it are never replaced (a thread whose
    /// folder exists gets a folder with a numbered suffix).
    pub fn create(root: &Path) -> Result<Self, ProxyError> {
        std::fs::create_dir_all(root).map_err(|source| ProxyError::Write {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Self {
            root: root.to_path_buf(),
            threads: Mutex::new(HashMap::new()),
            life: Arc::default(),
        })
    }

    fn thread(&self, key: &str) -> Result<Arc<ThreadFiles>, ProxyError> {
        let mut threads = self.threads.lock().map_err(|_| ProxyError::Write {
            path: self.root.clone(),
            source: std::io::Error::other("a recording thread panicked"),
        })?;
        if let Some(files) = threads.get(key) {
            return Ok(Arc::clone(files));
        }
        let base = folder_name(key);
        let mut attempt = 1;
        let dir = loop {
            let name = match attempt {
                1 => base.clone(),
                n => format!("{base}-{n}"),
            };
            let dir = self.root.join(name);
            match std::fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => attempt += 1,
                Err(source) => return Err(ProxyError::Write { path: dir, source }),
            }
        };
        let path = dir.join(EXCHANGES_FILE);
        let exchanges = create_new(&path)?;
        let files = Arc::new(ThreadFiles {
            key: key.to_string(),
            dir,
            next: Mutex::new(1),
            exchanges: Mutex::new(exchanges),
        });
        threads.insert(key.to_string(), Arc::clone(&files));
        Ok(files)
    }

    /// How many exchanges have begun and not ended.
    pub fn under_way(&self) -> usize {
        self.life.under_way.load(Ordering::SeqCst)
    }

    /// From now on an exchange dropped before its end was cut by the proxy's stop, not left by
    /// its client.
    pub fn stopping(&self) {
        self.life.stopping.store(true, Ordering::SeqCst);
    }

    /// Writes the request's bytes and its `request` line; the returned record takes the rest.
    pub fn begin(&self, request: ArrivedRequest<'_>) -> Result<ExchangeRecord, ProxyError> {
        let started = Instant::now();
        let key = request.thread_key.unwrap_or_else(|| UNTHREADED.to_string());
        let thread = self.thread(&key)?;
        let number = match thread.next.lock() {
            Ok(mut next) => {
                let number = *next;
                *next += 1;
                number
            }
            Err(_) => 0,
        };
        let turn_id = turn_id(&request.headers);
        let json = request.decoded.map_or(request.wire, |(decoded, _)| decoded);
        let body_file = match json.is_empty() {
            true => None,
            false => {
                let name = match is_request_body(json) {
                    true => format!("request-{number:04}.json"),
                    false => format!("body-{number:04}.bin"),
                };
                write_new(&thread.dir.join(&name), json)?;
                Some(name)
            }
        };
        let wire_file = match request.decoded {
            Some((_, extension)) => {
                let name = format!("request-{number:04}.wire.{extension}");
                write_new(&thread.dir.join(&name), request.wire)?;
                Some(name)
            }
            None => None,
        };
        thread.append(&ExchangeLine::Request {
            number,
            thread: thread.key.clone(),
            received_at_ms: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| {
                    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
                }),
            method: request.method.to_string(),
            path: request.path.to_string(),
            headers: request.headers,
            body_file,
            wire_file,
            body_bytes: request.wire.len(),
        });
        self.life.under_way.fetch_add(1, Ordering::SeqCst);
        Ok(ExchangeRecord {
            life: Arc::clone(&self.life),
            thread,
            number,
            started,
            body: None,
            wire: None,
            pending: Vec::new(),
            body_kind: BodyKind::Other,
            response_bytes: 0,
            watcher: SseWatcher::default(),
            ended: false,
            status: None,
            expected_length: None,
            request_body: request.request_body,
            turn_id,
            events: request.events,
        })
    }
}

/// What a response body is, which decides how it is recorded.
#[derive(Debug)]
pub enum BodyKind {
    /// `text/event-stream`: recorded line by line into `response-NNNN.sse`, decoded first
    /// when it comes compressed.
    EventStream(StreamDecoder),
    /// Anything else: recorded as it comes into `response-NNNN.body`.
    Other,
}

/// The rest of one exchange: response head, body lines, end. Dropped before its end (the
/// client went away), it records the exchange as failed.
#[derive(Debug)]
pub struct ExchangeRecord {
    life: Arc<Lifecycle>,
    thread: Arc<ThreadFiles>,
    number: u32,
    started: Instant,
    body: Option<File>,
    /// The compressed bytes of an event stream, as they came.
    wire: Option<File>,
    /// The part of the body after its last newline, written when the line completes.
    pending: Vec<u8>,
    body_kind: BodyKind,
    response_bytes: u64,
    watcher: SseWatcher,
    ended: bool,
    status: Option<u16>,
    /// The response's `content-length`, when it gave one.
    expected_length: Option<u64>,
    request_body: Option<Value>,
    turn_id: Option<String>,
    events: Option<mpsc::Sender<ProxyEvent>>,
}

impl ExchangeRecord {
    /// Milliseconds since the request arrived.
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Records the response head and opens the body file (`.sse` for an event stream).
    pub fn response(
        &mut self,
        status: u16,
        headers: Vec<(String, String)>,
        body_kind: BodyKind,
        content_length: Option<u64>,
    ) {
        self.status = Some(status);
        self.expected_length = content_length;
        let extension = match &body_kind {
            BodyKind::EventStream(_) => "sse",
            BodyKind::Other => "body",
        };
        let wire_file = match &body_kind {
            BodyKind::EventStream(decoder) => decoder
                .wire_extension()
                .map(|extension| format!("response-{:04}.wire.{extension}", self.number)),
            BodyKind::Other => None,
        };
        self.body_kind = body_kind;
        if let Some(name) = &wire_file {
            match create_new(&self.thread.dir.join(name)) {
                Ok(file) => self.wire = Some(file),
                Err(error) => tracing::warn!("{error}."),
            }
        }
        let name = format!("response-{:04}.{extension}", self.number);
        match create_new(&self.thread.dir.join(&name)) {
            Ok(file) => self.body = Some(file),
            Err(error) => tracing::warn!("{error}."),
        }
        self.thread.append(&ExchangeLine::Response {
            number: self.number,
            status,
            headers,
            body_file: name,
            wire_file,
            first_byte_ms: self.elapsed_ms(),
        });
    }

    /// Records a chunk of the response body: an event stream's whole lines are written at
    /// once (and watched for usage and failures), any other body as it comes.
    pub fn chunk(&mut self, bytes: &[u8]) {
        self.response_bytes += bytes.len() as u64;
        let decoded = match &mut self.body_kind {
            BodyKind::Other => return self.write_body(bytes),
            BodyKind::EventStream(decoder) => decoder.decode(bytes),
        };
        if let Some(wire) = &mut self.wire
            && let Err(error) = wire.write_all(bytes)
        {
            tracing::warn!(
                "The compressed response of request {} could not be recorded: {error}.",
                self.number
            );
            self.wire = None;
        }
        match decoded {
            Ok(decoded) => self.pending.extend_from_slice(&decoded),
            Err(error) => {
                tracing::warn!(
                    "The response of request {} could not be decoded for the recording: {error}.",
                    self.number
                );
                self.body_kind = BodyKind::Other;
                return;
            }
        }
        let Some(last) = self.pending.iter().rposition(|byte| *byte == b'\n') else {
            return;
        };
        let rest = self.pending.split_off(last + 1);
        let lines = std::mem::replace(&mut self.pending, rest);
        self.watcher.lines(&lines);
        self.write_body(&lines);
    }

    fn write_body(&mut self, bytes: &[u8]) {
        if let Some(file) = &mut self.body
            && let Err(error) = file.write_all(bytes)
        {
            tracing::warn!(
                "The response body of request {} could not be recorded: {error}.",
                self.number
            );
            self.body = None;
        }
    }

    /// Records the end and tells the live view. `reason` set means the exchange failed; a
    /// completed transfer whose stream reported a failure counts as failed too.
    pub fn end(&mut self, reason: Option<String>) {
        if self.ended {
            return;
        }
        self.ended = true;
        let pending = std::mem::take(&mut self.pending);
        self.watcher.lines(&pending);
        self.write_body(&pending);
        let reason = reason.or_else(|| self.watcher.failure.clone());
        let outcome = match reason {
            Some(_) => Outcome::Failed,
            None => Outcome::Completed,
        };
        self.thread.append(&ExchangeLine::End {
            number: self.number,
            outcome,
            reason: reason.clone(),
            total_ms: self.elapsed_ms(),
            response_bytes: self.response_bytes,
            usage: self.watcher.usage.clone(),
            response_id: self.watcher.response_id.clone(),
        });
        self.life.under_way.fetch_sub(1, Ordering::SeqCst);
        if let Some(events) = self.events.take() {
            let event = ProxyEvent {
                thread: self.thread.key.clone(),
                thread_dir: self.thread.dir.clone(),
                number: self.number,
                status: self.status,
                request: self.request_body.take(),
                turn_id: self.turn_id.take(),
                usage: self.watcher.usage.clone(),
                total_ms: self.elapsed_ms(),
                failure: reason,
            };
            if events.try_send(event).is_err() {
                tracing::debug!("The live view lags behind; one request is left out of it.");
            }
        }
    }

    /// Whether the client has had the whole response: every byte its `content-length`
    /// announced, or an event stream's `response.completed`.
    fn delivered(&self) -> bool {
        let all_bytes = self
            .expected_length
            .is_some_and(|length| self.response_bytes >= length);
        all_bytes || self.watcher.completed
    }
}

impl Drop for ExchangeRecord {
    /// A client that has what it needs may close the connection before the body's end is
    /// polled: that exchange completed. Otherwise the client left, or the proxy's stop cut it.
    fn drop(&mut self) {
        let reason = match (self.delivered(), self.life.stopping.load(Ordering::SeqCst)) {
            (true, _) => None,
            (false, true) => Some("the proxy stopped before the response ended".to_string()),
            (false, false) => {
                Some("the client closed the connection before the response ended".to_string())
            }
        };
        self.end(reason);
    }
}

/// The turn id Codex sends in `x-codex-turn-metadata`, among recorded headers.
pub fn turn_id(headers: &[(String, String)]) -> Option<String> {
    let (_, metadata) = headers
        .iter()
        .find(|(name, _)| name == TURN_METADATA_HEADER)?;
    serde_json::from_str::<Value>(metadata)
        .ok()?
        .get("turn_id")?
        .as_str()
        .map(str::to_string)
}

/// Whether `bytes` are a Responses request body (a JSON object with an `input` array), which
/// `compare` reads from a `request-NNNN.json` file.
fn is_request_body(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Value>(bytes)
        .is_ok_and(|value| value.get("input").is_some_and(Value::is_array))
}

/// A folder name from a thread key: letters, digits, `.`, `_` and `-` kept, anything else `_`.
fn folder_name(key: &str) -> String {
    let name: String = key
        .chars()
        .take(MAX_FOLDER_NAME)
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '_',
            },
        )
        .collect();
    match name.trim_matches('.').is_empty() {
        true => UNTHREADED.to_string(),
        false => name,
    }
}

fn create_new(path: &Path) -> Result<File, ProxyError> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|source| ProxyError::Write {
            path: path.to_path_buf(),
            source,
        })
}

fn write_new(path: &Path, bytes: &[u8]) -> Result<(), ProxyError> {
    create_new(path)?
        .write_all(bytes)
        .map_err(|source| ProxyError::Write {
            path: path.to_path_buf(),
            source,
        })
}
