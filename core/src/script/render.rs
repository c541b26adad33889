//! Printing a scripted session's requests.

use super::ScriptRequest;
use crate::layout::LayoutOptions;
use crate::layout::render_request_layout;

/// Placeholder layouts show for the request's base instructions.
const BASE_INSTRUCTIONS_PLACEHOLDER: &str = "<BASE_INSTRUCTIONS>";

/// One request body per line (compact JSON), each line ending in a newline.
pub fn render_requests_jsonl(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for request in requests {
        out.push_str(&serde_json::to_string(&request.body)?);
        out.push('\n');
    }
    Ok(out)
}

/// Each request's input in the layout format under a `## Request N` heading (N is the turn's
/// 1-based position in the thread; a turn's later sampling steps add `, step S`), requests
/// separated by a blank line. Context blocks become
/// placeholders; the base instructions become `<BASE_INSTRUCTIONS>`.
pub fn render_requests_layout(requests: &[ScriptRequest]) -> Result<String, serde_json::Error> {
    let mut sections = Vec::with_capacity(requests.len());
    for request in requests {
        let options = LayoutOptions {
            known_texts: vec![(
                request.base_instructions.clone(),
                BASE_INSTRUCTIONS_PLACEHOLDER.to_string(),
            )],
            ..LayoutOptions::default()
        };
        let step = match request.step {
            0 => String::new(),
            step => format!(", step {}", step + 1),
        };
        sections.push(format!(
            "## Request {}{step}\n{}\n",
            request.turn + 1,
            render_request_layout(&request.body, &options)?
        ));
    }
    Ok(sections.join("\n"))
}
