//! Printing a scripted session's requests: all at once, or each as it is produced.

use std::io;
use std::io::Write;

use codex_inspect::LayoutOptions;
use codex_inspect::render_request_layout;

use super::RequestSink;
use super::ScriptError;
use super::ScriptRequest;
use super::delta::DeltaTracker;

/// Placeholder layouts show for the request's base instructions.
const BASE_INSTRUCTIONS_PLACEHOLDER: &str = "<BASE_INSTRUCTIONS>";

/// How a scripted session's requests are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestsFormat {
    /// One request body per line (compact JSON), each line ending in a newline.
    Jsonl,
    /// Each request's input in the layout format under a `## Request N` heading (N is the
    /// turn's 1-based position in the thread; a turn's later sampling steps add `, step S`; a
    /// sub-agent's requests are `## Agent A, request N`, A counting sub-agents in spawn order),
    /// requests separated by a blank line. Context blocks become placeholders; the base
    /// instructions become `<BASE_INSTRUCTIONS>`.
    Layout,
    /// One [`RequestDelta`](super::RequestDelta) per line (compact JSON): the input items new
    /// since the previous request, the length and hash of the prefix it shares with it, and the
    /// body's other fields when they changed. Output grows linearly with the session.
    Delta,
}

/// [`RequestsFormat::Jsonl`] of `requests`.
pub fn render_requests_jsonl(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    render_all(requests, RequestsFormat::Jsonl)
}

/// [`RequestsFormat::Layout`] of `requests`.
pub fn render_requests_layout(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    render_all(requests, RequestsFormat::Layout)
}

/// [`RequestsFormat::Delta`] of `requests`.
pub fn render_requests_delta(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    render_all(requests, RequestsFormat::Delta)
}

fn render_all(
    requests: &[ScriptRequest],
    format: RequestsFormat,
) -> Result<String, serde_json::Error> {
    let mut renderer = Renderer::new(format);
    let mut out = String::new();
    for request in requests {
        out.push_str(&renderer.render(request)?);
    }
    Ok(out)
}

/// Renders requests one after the other in a format; what it keeps of earlier requests is what
/// the format needs (the previous request, for deltas).
#[derive(Debug)]
struct Renderer {
    format: RequestsFormat,
    rendered: usize,
    delta: DeltaTracker,
}

impl Renderer {
    fn new(format: RequestsFormat) -> Self {
        Self {
            format,
            rendered: 0,
            delta: DeltaTracker::default(),
        }
    }

    /// The next request as printed.
    fn render(&mut self, request: &ScriptRequest) -> Result<String, serde_json::Error> {
        let position = self.rendered;
        self.rendered += 1;
        render_one(request, self.format, position, &mut self.delta)
    }
}

/// One request as printed in `format`, `position` requests after the first printed; `delta`
/// holds the previous request.
fn render_one(
    request: &ScriptRequest,
    format: RequestsFormat,
    position: usize,
    delta: &mut DeltaTracker,
) -> Result<String, serde_json::Error> {
    Ok(match format {
        RequestsFormat::Jsonl => serde_json::to_string(&request.body)? + "\n",
        RequestsFormat::Delta => serde_json::to_string(&delta.next(request)?)? + "\n",
        RequestsFormat::Layout => {
            let options = LayoutOptions {
                known_texts: vec![(
                    request.base_instructions.clone(),
                    BASE_INSTRUCTIONS_PLACEHOLDER.to_string(),
                )],
                ..LayoutOptions::default()
            };
            let separator = match position {
                0 => "",
                _ => "\n",
            };
            let step = match request.step {
                0 => String::new(),
                step => format!(", step {}", step + 1),
            };
            let heading = match request.agent {
                None => format!("Request {}", request.turn + 1),
                Some(agent) => format!("Agent {agent}, request {}", request.turn + 1),
            };
            format!(
                "{separator}## {heading}{step}\n{}\n",
                render_request_layout(&request.body, &options)?
            )
        }
    })
}

/// Prints each request to `out` in a [`RequestsFormat`] as it is produced, flushed at once, and
/// keeps nothing. Once the reader has gone (a closed pipe, as with `| head`), further requests
/// are dropped without an error, so the run (and its rollout) still completes.
#[derive(Debug)]
pub struct RequestPrinter<W: Write> {
    out: W,
    renderer: Renderer,
    reader_gone: bool,
}

impl<W: Write> RequestPrinter<W> {
    /// A printer writing to `out` in `format`.
    pub fn new(out: W, format: RequestsFormat) -> Self {
        Self {
            out,
            renderer: Renderer::new(format),
            reader_gone: false,
        }
    }
}

impl<W: Write> RequestSink for RequestPrinter<W> {
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError> {
        if self.reader_gone {
            return Ok(());
        }
        let text = self
            .renderer
            .render(request)
            .map_err(|error| ScriptError::Output(error.into()))?;
        match self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
        {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.reader_gone = true;
                Ok(())
            }
            Err(error) => Err(ScriptError::Output(error)),
        }
    }
}
