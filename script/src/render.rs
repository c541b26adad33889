//! Printing a scripted session's requests: all at once, or each as it is produced.

use std::io;
use std::io::Write;

use codex_inspect::LayoutOptions;
use codex_inspect::render_request_layout;

use super::RequestSink;
use super::ScriptError;
use super::ScriptRequest;

/// Placeholder layouts show for the request's base instructions.
const BASE_INSTRUCTIONS_PLACEHOLDER: &str = "<BASE_INSTRUCTIONS>";

/// How a scripted session's requests are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestsFormat {
    /// One request body per line (compact JSON), each line ending in a newline.
    Jsonl,
    /// Each request's input in the layout format under a `## Request N` heading (N is the
    /// turn's 1-based position in the thread; a turn's later sampling steps add `, step S`),
    /// requests separated by a blank line. Context blocks become placeholders; the base
    /// instructions become `<BASE_INSTRUCTIONS>`.
    Layout,
}

/// [`RequestsFormat::Jsonl`] of `requests`.
pub fn render_requests_jsonl(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    render_all(requests, RequestsFormat::Jsonl)
}

/// [`RequestsFormat::Layout`] of `requests`.
pub fn render_requests_layout(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    render_all(requests, RequestsFormat::Layout)
}

fn render_all(
    requests: &[ScriptRequest],
    format: RequestsFormat,
) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for (position, request) in requests.iter().enumerate() {
        out.push_str(&render_one(request, format, position)?);
    }
    Ok(out)
}

/// One request as printed in `format`, `position` requests after the first printed.
fn render_one(
    request: &ScriptRequest,
    format: RequestsFormat,
    position: usize,
) -> Result<String, serde_json::Error> {
    Ok(match format {
        RequestsFormat::Jsonl => serde_json::to_string(&request.body)? + "\n",
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
            format!(
                "{separator}## Request {}{step}\n{}\n",
                request.turn + 1,
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
    format: RequestsFormat,
    printed: usize,
    reader_gone: bool,
}

impl<W: Write> RequestPrinter<W> {
    pub fn new(out: W, format: RequestsFormat) -> Self {
        Self {
            out,
            format,
            printed: 0,
            reader_gone: false,
        }
    }
}

impl<W: Write> RequestSink for RequestPrinter<W> {
    fn request(&mut self, request: &ScriptRequest) -> Result<(), ScriptError> {
        if self.reader_gone {
            return Ok(());
        }
        let text = render_one(request, self.format, self.printed)
            .map_err(|error| ScriptError::Output(error.into()))?;
        self.printed += 1;
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
