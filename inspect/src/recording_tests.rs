use std::path::PathBuf;

use codex_proxy::RecordedExchange;
use codex_proxy::RecordedThread;
use serde_json::json;

use super::*;

fn message(role: &str, kind: &str, text: &str) -> Value {
    json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]})
}

fn body(model: &str, input: Vec<Value>) -> Value {
    json!({
        "model": model,
        "instructions": "You are a careful coding agent.",
        "input": input,
        "tools": [{"type": "function", "name": "exec_command", "description": "Runs a command.", "strict": false, "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}}],
        "stream": true,
        "prompt_cache_key": "thread-a",
    })
}

fn exchange(number: u32, request: Option<Value>, status: Option<u16>) -> RecordedExchange {
    RecordedExchange {
        number,
        method: "POST".to_string(),
        path: "/v1/responses".to_string(),
        request,
        turn_id: Some(format!("turn-{}", number.min(2))),
        status,
        first_byte_ms: Some(40),
        total_ms: Some(250),
        usage: None,
        outcome: Some(Outcome::Completed),
        reason: None,
    }
}

#[test]
fn a_recording_reports_tokens_usage_prefix_reuse_and_failures() {
    let first_input = vec![
        message(
            "developer",
            "input_text",
            "<permissions instructions>Ask first.</permissions instructions>",
        ),
        message(
            "user",
            "input_text",
            "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        ),
        message("user", "input_text", "Fix the failing test."),
    ];
    let mut second_input = first_input.clone();
    second_input.push(message("assistant", "output_text", "Done."));
    second_input.push(message("user", "input_text", "Now run it."));
    let mut completed = exchange(1, Some(body("gpt-5.1-codex", first_input)), Some(200));
    completed.usage = Some(json!({
        "input_tokens": 1200, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 9
    }));
    let mut reused = exchange(
        2,
        Some(body("gpt-5.1-codex", second_input.clone())),
        Some(200),
    );
    reused.usage = Some(json!({
        "input_tokens": 1230, "input_tokens_details": {"cached_tokens": 1152}, "output_tokens": 4
    }));
    let mut throttled = exchange(
        3,
        Some(body("gpt-5.1-codex-mini", second_input.clone())),
        Some(429),
    );
    throttled.outcome = Some(Outcome::Failed);
    throttled.reason = Some("the upstream answered 429 Too Many Requests".to_string());
    let mut cut = exchange(4, Some(body("gpt-5.1-codex-mini", second_input)), None);
    cut.outcome = None;
    cut.total_ms = None;
    let models = RecordedExchange {
        method: "GET".to_string(),
        path: "/v1/models".to_string(),
        ..exchange(5, None, Some(200))
    };
    let recording = Recording {
        threads: vec![RecordedThread {
            key: "thread-a".to_string(),
            dir: PathBuf::from("recording/thread-a"),
            exchanges: vec![completed, reused, throttled, cut, models],
        }],
    };
    insta::assert_snapshot!(render_recording_text(&recording));
}

/// 0.171.0 on gpt-5.5 sends no `instructions`: the base instructions are `input[0]`, a
/// developer message of plain text, and the live line counts them as base instructions.
#[test]
fn base_instructions_sent_as_the_first_developer_message_count_as_base_instructions() {
    let base = message(
        "developer",
        "input_text",
        "You are Codex, a coding agent. Read the repository before you change it, keep changes \
         small, and run the tests you touch.",
    );
    let mut first = body(
        "gpt-5.5",
        vec![
            base.clone(),
            message(
                "developer",
                "input_text",
                "<permissions instructions>Ask first.</permissions instructions>",
            ),
            message(
                "user",
                "input_text",
                "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
            ),
            message("user", "input_text", "Fix the failing test."),
        ],
    );
    let fields = first.as_object_mut().unwrap();
    fields.remove("instructions");
    let mut second = first.clone();
    let input = second["input"].as_array_mut().unwrap();
    input.push(message("assistant", "output_text", "Done."));
    input.push(message("user", "input_text", "Now run it."));
    let [first, second] = [first, second].map(|body| parse_recorded_request(&body).unwrap());
    let line = |number, request, previous| {
        render_exchange_line(&ExchangeView {
            thread: "thread-a",
            number,
            turn: Some(number as usize),
            request: Some(request),
            previous,
            status: Some(200),
            usage: None,
            total_ms: Some(120),
            failure: None,
        })
    };
    let lines = [line(1, &first, None), line(2, &second, Some(&first))].concat();
    assert!(!lines.contains("developer context 2"), "{lines}");
    insta::assert_snapshot!(lines);
}
