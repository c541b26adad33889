//! Reading a recording back: its threads, each with its exchanges in order.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use serde_json::Value;

use crate::ProxyError;
use crate::line::EXCHANGES_FILE;
use crate::line::ExchangeLine;
use crate::line::Outcome;
use crate::record::turn_id;

/// A recording folder, or one thread folder of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Threads in the order of their folder names.
    pub threads: Vec<RecordedThread>,
}

/// One thread folder.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedThread {
    /// The `prompt_cache_key` or session id it was grouped by.
    pub key: String,
    pub dir: PathBuf,
    /// In the order they arrived.
    pub exchanges: Vec<RecordedExchange>,
}

/// One request and what became of it, as far as the recording got.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedExchange {
    pub number: u32,
    pub method: String,
    pub path: String,
    /// The Responses request body (`None` for other requests).
    pub request: Option<Value>,
    /// The turn id Codex sent in `x-codex-turn-metadata`.
    pub turn_id: Option<String>,
    pub status: Option<u16>,
    pub first_byte_ms: Option<u64>,
    pub total_ms: Option<u64>,
    pub usage: Option<Value>,
    /// `None` while the exchange had not ended (the proxy was killed mid-way).
    pub outcome: Option<Outcome>,
    pub reason: Option<String>,
}

/// Whether `path` is a recording or a thread folder of one.
pub fn is_recording(path: &Path) -> bool {
    path.join(EXCHANGES_FILE).is_file() || !thread_dirs(path).is_empty()
}

/// The bytes of every thread's `exchanges.jsonl` under `path` (a recording or thread folder):
/// it grows with every line recorded, so a view that saw the same size has seen everything.
pub fn recording_size(path: &Path) -> u64 {
    let dirs = match path.join(EXCHANGES_FILE).is_file() {
        true => vec![path.to_path_buf()],
        false => thread_dirs(path),
    };
    dirs.iter()
        .filter_map(|dir| std::fs::metadata(dir.join(EXCHANGES_FILE)).ok())
        .map(|metadata| metadata.len())
        .sum()
}

fn thread_dirs(path: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(path) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|dir| dir.join(EXCHANGES_FILE).is_file())
        .collect();
    dirs.sort();
    dirs
}

/// Reads a recording folder (every thread folder in it) or a single thread folder. A last
/// line cut short by a kill is left out; any other damaged line is an error naming it.
pub fn read_recording(path: &Path) -> Result<Recording, ProxyError> {
    let dirs = match path.join(EXCHANGES_FILE).is_file() {
        true => vec![path.to_path_buf()],
        false => thread_dirs(path),
    };
    if dirs.is_empty() {
        return Err(ProxyError::NotARecording {
            path: path.to_path_buf(),
        });
    }
    let threads = dirs
        .iter()
        .map(|dir| read_thread(dir))
        .collect::<Result<_, _>>()?;
    Ok(Recording { threads })
}

fn read_thread(dir: &Path) -> Result<RecordedThread, ProxyError> {
    let path = dir.join(EXCHANGES_FILE);
    let read = |path: &Path| {
        std::fs::read(path).map_err(|source| ProxyError::Read {
            path: path.to_path_buf(),
            source,
        })
    };
    let bytes = read(&path)?;
    let text = String::from_utf8_lossy(&bytes);
    let whole = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut key = String::new();
    let mut exchanges: BTreeMap<u32, RecordedExchange> = BTreeMap::new();
    for (index, line) in lines.iter().enumerate() {
        let parsed = match serde_json::from_str::<ExchangeLine>(line) {
            Ok(parsed) => parsed,
            Err(_) if index + 1 == lines.len() && !whole => break,
            Err(error) => {
                return Err(ProxyError::BadLine {
                    path,
                    line: index + 1,
                    message: error.to_string(),
                });
            }
        };
        match parsed {
            ExchangeLine::Request {
                number,
                thread,
                method,
                path: request_path,
                headers,
                body_file,
                ..
            } => {
                key = thread;
                let request = match body_file {
                    Some(name) if name.starts_with("request-") => {
                        let body_path = dir.join(&name);
                        let body = read(&body_path)?;
                        Some(serde_json::from_slice::<Value>(&body).map_err(|error| {
                            ProxyError::BadLine {
                                path: body_path,
                                line: error.line(),
                                message: error.to_string(),
                            }
                        })?)
                    }
                    Some(_) | None => None,
                };
                exchanges.insert(
                    number,
                    RecordedExchange {
                        number,
                        method,
                        path: request_path,
                        request,
                        turn_id: turn_id(&headers),
                        status: None,
                        first_byte_ms: None,
                        total_ms: None,
                        usage: None,
                        outcome: None,
                        reason: None,
                    },
                );
            }
            ExchangeLine::Response {
                number,
                status,
                first_byte_ms,
                ..
            } => {
                if let Some(exchange) = exchanges.get_mut(&number) {
                    exchange.status = Some(status);
                    exchange.first_byte_ms = Some(first_byte_ms);
                }
            }
            ExchangeLine::End {
                number,
                outcome,
                reason,
                total_ms,
                usage,
                ..
            } => {
                if let Some(exchange) = exchanges.get_mut(&number) {
                    exchange.outcome = Some(outcome);
                    exchange.reason = reason;
                    exchange.total_ms = Some(total_ms);
                    exchange.usage = usage;
                }
            }
        }
    }
    Ok(RecordedThread {
        key,
        dir: dir.to_path_buf(),
        exchanges: exchanges.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    const REQUEST: &str = r#"{"event":"request","number":1,"thread":"t","received_at_ms":0,"method":"GET","path":"/v1/models","headers":[],"body_file":null,"wire_file":null,"body_bytes":0}"#;

    #[test]
    fn a_last_line_cut_by_a_kill_is_left_out_and_a_damaged_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let thread = dir.path().join("t");
        std::fs::create_dir(&thread).unwrap();
        let file = thread.join(EXCHANGES_FILE);
        std::fs::write(&file, format!("{REQUEST}\n{{\"event\":\"resp")).unwrap();
        let recording = read_recording(dir.path()).unwrap();
        let exchanges: Vec<(u32, &str, Option<Outcome>)> = recording.threads[0]
            .exchanges
            .iter()
            .map(|e| (e.number, e.path.as_str(), e.outcome))
            .collect();
        assert_eq!(exchanges, vec![(1, "/v1/models", None)]);

        std::fs::write(&file, format!("{{broken\n{REQUEST}\n")).unwrap();
        let error = read_recording(&thread).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "{} line 1: key must be a string at line 1 column 2",
                file.display()
            )
        );
        assert!(matches!(
            read_recording(&dir.path().join("missing")),
            Err(ProxyError::NotARecording { .. })
        ));
    }
}
