//! Views of what `codex-context proxy` records: one line per exchange (the proxy's live view
//! prints the same line as each request ends), and the report `inspect` prints for a recording
//! folder.

use std::fmt::Write as _;

use codex_core::ResponsesRequest;
use codex_proxy::Outcome;
use codex_proxy::Recording;
use serde_json::Value;

use crate::inspect::RequestStat;
use crate::inspect::TokenSource;
use crate::inspect::request_stats;

/// One exchange as the views show it.
#[derive(Debug, Clone, Copy)]
pub struct ExchangeView<'a> {
    /// The thread key (`prompt_cache_key` or session id).
    pub thread: &'a str,
    /// 1-based, per thread.
    pub number: u32,
    /// The turn's 1-based place in the thread, when the client names its turns.
    pub turn: Option<usize>,
    /// The Responses request, when the exchange carried one.
    pub request: Option<&'a ResponsesRequest>,
    /// The thread's Responses request before this one.
    pub previous: Option<&'a ResponsesRequest>,
    /// The upstream's status; `None` when it never answered (or the recording ends first).
    pub status: Option<u16>,
    /// `response.usage` of `response.completed`.
    pub usage: Option<&'a Value>,
    pub total_ms: Option<u64>,
    /// Why it failed; `None` when it completed or had not ended.
    pub failure: Option<&'a str>,
}

/// One line (with its newline): thread and request number, model, status and time, o200k
/// tokens by source, what the server reported as input and cached, and the prefix shared with
/// the thread's previous request or why it broke.
pub fn render_exchange_line(view: &ExchangeView<'_>) -> String {
    let mut line = match view.turn {
        Some(turn) => format!("[{} #{} turn {turn}]", view.thread, view.number),
        None => format!("[{} #{}]", view.thread, view.number),
    };
    let stat = view.request.map(|request| {
        let requests: Vec<ResponsesRequest> = view
            .previous
            .into_iter()
            .chain([request])
            .cloned()
            .collect();
        let mut stats = request_stats(&requests).requests;
        stats.pop()
    });
    match view.request {
        Some(request) => {
            let _ = write!(line, " {}", request.model);
        }
        None => line.push_str(" (not a Responses request)"),
    }
    match view.status {
        Some(status) => {
            let _ = write!(line, " -> {status}");
        }
        None => line.push_str(" -> no answer"),
    }
    if let Some(ms) = view.total_ms {
        let _ = write!(line, " in {ms} ms");
    }
    if let Some(Some(stat)) = &stat {
        token_cells(&mut line, stat);
    }
    if let Some(usage) = view.usage {
        let number = |pointer: &str| usage.pointer(pointer).and_then(Value::as_u64);
        let _ = write!(
            line,
            " | server: {} input, {} cached, {} output",
            number("/input_tokens").map_or("?".to_string(), |n| n.to_string()),
            number("/input_tokens_details/cached_tokens").unwrap_or(0),
            number("/output_tokens").map_or("?".to_string(), |n| n.to_string()),
        );
    }
    if let Some(failure) = view.failure {
        let _ = write!(line, " | FAILED: {failure}");
    }
    line.push('\n');
    line
}

fn token_cells(line: &mut String, stat: &RequestStat) {
    let sources: Vec<String> = TokenSource::ALL
        .iter()
        .filter(|source| stat.tokens.get(**source) > 0)
        .map(|source| format!("{} {}", source.label(), stat.tokens.get(*source)))
        .collect();
    let _ = write!(
        line,
        " | {} tokens ({})",
        stat.total_tokens,
        sources.join(", ")
    );
    match &stat.cache {
        Some(cache) => match &cache.prefix_break {
            Some(broken) => {
                let at = broken
                    .item_index
                    .map_or(String::new(), |index| format!(" at item {index}"));
                let _ = write!(
                    line,
                    " | prefix {} tokens ({}%), broken{at}: {}",
                    cache.prefix_tokens,
                    cache.prefix_percent,
                    broken.reason.label()
                );
            }
            None => {
                let _ = write!(
                    line,
                    " | prefix {} tokens ({}%) reused",
                    cache.prefix_tokens, cache.prefix_percent
                );
            }
        },
        None => line.push_str(" | first request of the thread"),
    }
}

/// Numbers a thread's turns in the order their ids first appear.
#[derive(Debug, Default)]
pub struct TurnCounter {
    last: Option<String>,
    count: usize,
}

impl TurnCounter {
    /// The 1-based turn of a request with `turn_id` (`None` without one); a request with the
    /// same id as the one before is in the same turn.
    pub fn turn(&mut self, turn_id: Option<&str>) -> Option<usize> {
        let id = turn_id?;
        if self.last.as_deref() != Some(id) {
            self.last = Some(id.to_string());
            self.count += 1;
        }
        Some(self.count)
    }
}

/// The typed request of a recorded body, for counting its tokens. Clients other than Codex
/// leave out keys this project always writes: they get their defaults. A body whose tools,
/// text controls, metadata or reasoning this project cannot read is read without them (its
/// tool tokens then count as 0); `None` when even its input cannot be read.
pub fn parse_recorded_request(body: &Value) -> Option<ResponsesRequest> {
    let Value::Object(fields) = body else {
        return None;
    };
    let mut fields = fields.clone();
    let defaults = [
        ("tool_choice", Value::from("auto")),
        ("parallel_tool_calls", Value::Bool(false)),
        ("reasoning", Value::Object(serde_json::Map::new())),
        ("store", Value::Bool(false)),
        ("stream", Value::Bool(false)),
        ("include", Value::Array(Vec::new())),
    ];
    for (key, default) in &defaults {
        match fields.get(*key) {
            None | Some(Value::Null) => {
                fields.insert((*key).to_string(), default.clone());
            }
            Some(_) => {}
        }
    }
    if let Ok(request) = serde_json::from_value(Value::Object(fields.clone())) {
        return Some(request);
    }
    for key in ["tools", "text", "client_metadata"] {
        fields.remove(key);
    }
    for (key, default) in defaults {
        fields.insert(key.to_string(), default);
    }
    serde_json::from_value(Value::Object(fields)).ok()
}

/// The text report of a recording: per thread its key, folder and one line per exchange.
/// A request body this project cannot read is named in the line instead of its tokens.
pub fn render_recording_text(recording: &Recording) -> String {
    let mut out = String::new();
    for thread in &recording.threads {
        let failed = thread
            .exchanges
            .iter()
            .filter(|exchange| exchange.outcome == Some(Outcome::Failed))
            .count();
        let _ = writeln!(
            out,
            "thread {} ({}): {} requests, {failed} failed",
            thread.key,
            thread.dir.display(),
            thread.exchanges.len()
        );
        let mut previous: Option<ResponsesRequest> = None;
        let mut turns = TurnCounter::default();
        for exchange in &thread.exchanges {
            let request = exchange.request.as_ref().and_then(parse_recorded_request);
            let failure = match exchange.outcome {
                Some(Outcome::Failed) => exchange.reason.as_deref(),
                Some(Outcome::Completed) => None,
                None => Some("the recording ends before this exchange did"),
            };
            out.push_str(&render_exchange_line(&ExchangeView {
                thread: &thread.key,
                number: exchange.number,
                turn: turns.turn(exchange.turn_id.as_deref()),
                request: request.as_ref(),
                previous: previous.as_ref(),
                status: exchange.status,
                usage: exchange.usage.as_ref(),
                total_ms: exchange.total_ms,
                failure,
            }));
            if request.is_some() {
                previous = request;
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "recording_tests.rs"]
mod tests;
