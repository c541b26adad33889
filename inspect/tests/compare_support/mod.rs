//! A small hand-written request body and helpers to alter copies of it.

#![allow(dead_code)]

use codex_inspect::CompareInput;
use codex_inspect::InputKind;
use codex_models_manager::ModelCatalog;
use serde_json::Value;
use serde_json::json;

pub const PERMISSIONS: &str = "<permissions instructions>\nThe sandbox is read-only.\nApprovals are never asked for.\n</permissions instructions>";
pub const AGENTS_MD: &str =
    "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nKeep answers short.\n</INSTRUCTIONS>";
pub const ENVIRONMENT: &str = "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  <filesystem><permission_profile type=\"disabled\"><file_system type=\"unrestricted\" /></permission_profile></filesystem>\n</environment_context>";

fn message(id: &str, role: &str, texts: &[&str]) -> Value {
    let content: Vec<Value> = texts
        .iter()
        .map(|text| {
            let kind = if role == "assistant" {
                "output_text"
            } else {
                "input_text"
            };
            json!({"type": kind, "text": text})
        })
        .collect();
    json!({
        "type": "message",
        "id": id,
        "role": role,
        "content": content,
        "internal_chat_message_metadata_passthrough": {
            "turn_id": "turn-1",
            "create_time": 1796022124.5
        }
    })
}

/// A first-turn-and-a-tool-call request: permissions, AGENTS.md + environment, user text, a
/// tool call and its output, an assistant answer.
pub fn request_body() -> Value {
    json!({
        "model": "gpt-5.5",
        "instructions": "You are a careful coding agent.\nWork in small steps.",
        "input": [
            message("msg_1", "developer", &[PERMISSIONS]),
            message("msg_2", "user", &[AGENTS_MD, ENVIRONMENT]),
            message("msg_3", "user", &["hello"]),
            {
                "type": "function_call",
                "id": "fc_1",
                "name": "exec_command",
                "arguments": "{\"cmd\":\"ls\"}",
                "call_id": "call_1"
            },
            {
                "type": "function_call_output",
                "call_id": "call_1",
                "output": "README.md"
            },
            message("msg_4", "assistant", &["There is a README."]),
        ],
        "tools": [
            {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
            {"type": "function", "name": "apply_patch", "parameters": {"type": "object"}},
            {"type": "web_search"}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "reasoning": {"effort": "medium"},
        "store": false,
        "stream": true,
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "thread-1",
        "text": {"verbosity": "low"},
        "client_metadata": {"session_id": "thread-1", "turn_id": "turn-1"}
    })
}

pub fn requests(bodies: Vec<Value>) -> CompareInput {
    CompareInput {
        kind: InputKind::RequestLines,
        requests: bodies,
        rollout: None,
    }
}

/// The `input` array of `body`, to alter in place.
pub fn input_mut(body: &mut Value) -> &mut Vec<Value> {
    body["input"].as_array_mut().expect("input is an array")
}

pub fn catalog() -> ModelCatalog {
    ModelCatalog::bundled().expect("bundled catalog")
}
