//! A small structural validator for `POST /responses` bodies: the `CreateResponse` fields our
//! bodies may use and the input item / tool shapes we emit (OpenAI's published Responses API
//! spec). JSON Schema
//! validation of the published spec accepts unknown keys, so this checks an exact allow-list.

use serde_json::Value;

/// `CreateResponse` properties plus `client_metadata`, which upstream Codex sends to OpenAI
/// although the public spec does not list it.
const TOP_LEVEL_KEYS: &[&str] = &[
    "model",
    "instructions",
    "input",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "reasoning",
    "store",
    "stream",
    "stream_options",
    "include",
    "service_tier",
    "prompt_cache_key",
    "text",
    "client_metadata",
    "previous_response_id",
    "metadata",
    "max_output_tokens",
    "temperature",
    "top_p",
    "truncation",
    "user",
];

/// Upstream's passthrough metadata, accepted on every item.
const METADATA_KEY: &str = "internal_chat_message_metadata_passthrough";

pub fn validate_create_response(body: &Value) -> Result<(), String> {
    let object = body.as_object().ok_or("body is not an object")?;
    for key in object.keys() {
        if !TOP_LEVEL_KEYS.contains(&key.as_str()) {
            return Err(format!("unknown top-level key `{key}`"));
        }
    }
    expect_string(object.get("model"), "model")?;
    if let Some(instructions) = object.get("instructions") {
        expect_string(Some(instructions), "instructions")?;
    }
    for flag in ["parallel_tool_calls", "store", "stream"] {
        if let Some(value) = object.get(flag)
            && !value.is_boolean()
        {
            return Err(format!("`{flag}` is not a boolean"));
        }
    }
    match object.get("tool_choice").and_then(Value::as_str) {
        None | Some("none" | "auto" | "required") => {}
        Some(other) => return Err(format!("tool_choice `{other}`")),
    }
    if let Some(reasoning) = object.get("reasoning") {
        validate_reasoning(reasoning)?;
    }
    if let Some(text) = object.get("text") {
        let text = text.as_object().ok_or("text is not an object")?;
        for (key, value) in text {
            match (key.as_str(), value) {
                ("verbosity", Value::String(v))
                    if ["low", "medium", "high"].contains(&v.as_str()) => {}
                ("format", Value::Object(_)) => {}
                _ => return Err(format!("bad text.{key}: {value}")),
            }
        }
    }
    if let Some(include) = object.get("include") {
        let include = include.as_array().ok_or("include is not an array")?;
        if !include.iter().all(Value::is_string) {
            return Err("include holds a non-string".to_string());
        }
    }
    if let Some(tools) = object.get("tools") {
        for tool in tools.as_array().ok_or("tools is not an array")? {
            validate_tool(tool)?;
        }
    }
    if let Some(metadata) = object.get("client_metadata") {
        let metadata = metadata
            .as_object()
            .ok_or("client_metadata is not an object")?;
        if !metadata.values().all(Value::is_string) {
            return Err("client_metadata values must be strings".to_string());
        }
    }
    let input = object
        .get("input")
        .and_then(Value::as_array)
        .ok_or("input is not an array")?;
    for (index, item) in input.iter().enumerate() {
        validate_input_item(item).map_err(|error| format!("input[{index}]: {error}"))?;
    }
    Ok(())
}

fn expect_string(value: Option<&Value>, what: &str) -> Result<(), String> {
    match value {
        Some(Value::String(_)) => Ok(()),
        _ => Err(format!("`{what}` is not a string")),
    }
}

fn validate_reasoning(reasoning: &Value) -> Result<(), String> {
    let reasoning = reasoning.as_object().ok_or("reasoning is not an object")?;
    for (key, value) in reasoning {
        let allowed: &[&str] = match key.as_str() {
            "effort" => &["none", "minimal", "low", "medium", "high", "xhigh"],
            "summary" => &["auto", "concise", "detailed"],
            "context" => &["auto", "current_turn", "all_turns"],
            other => return Err(format!("unknown reasoning key `{other}`")),
        };
        if !value.as_str().is_some_and(|v| allowed.contains(&v)) {
            return Err(format!("reasoning.{key} = {value}"));
        }
    }
    Ok(())
}

fn validate_tool(tool: &Value) -> Result<(), String> {
    let kind = tool
        .get("type")
        .and_then(Value::as_str)
        .ok_or("tool without type")?;
    match kind {
        "function" => {
            expect_string(tool.get("name"), "tool name")?;
            if !tool.get("parameters").is_some_and(Value::is_object) {
                return Err("function tool without parameters object".to_string());
            }
        }
        "custom" => {
            expect_string(tool.get("name"), "tool name")?;
            let format = tool.get("format").ok_or("custom tool without format")?;
            if format.get("type").and_then(Value::as_str) != Some("grammar") {
                return Err("custom tool format is not a grammar".to_string());
            }
        }
        "namespace" => {
            for inner in tool
                .get("tools")
                .and_then(Value::as_array)
                .ok_or("namespace without tools")?
            {
                validate_tool(inner)?;
            }
        }
        "web_search" | "local_shell" | "tool_search" => {}
        other => return Err(format!("unknown tool type `{other}`")),
    }
    Ok(())
}

fn validate_input_item(item: &Value) -> Result<(), String> {
    let object = item.as_object().ok_or("item is not an object")?;
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .ok_or("item without type")?;
    let allowed: &[&str] = match kind {
        "message" => {
            let role = object
                .get("role")
                .and_then(Value::as_str)
                .ok_or("message without role")?;
            let (part_types, extra): (&[&str], &[&str]) = match role {
                "user" | "developer" | "system" => {
                    (&["input_text", "input_image", "input_file"], &["status"])
                }
                "assistant" => (&["output_text", "refusal"], &["status", "phase"]),
                other => return Err(format!("message role `{other}`")),
            };
            let content = object
                .get("content")
                .and_then(Value::as_array)
                .ok_or("message content is not an array")?;
            for part in content {
                let part_type = part.get("type").and_then(Value::as_str).unwrap_or("");
                if !part_types.contains(&part_type) {
                    return Err(format!("{role} message content type `{part_type}`"));
                }
                if part_type.ends_with("_text") {
                    expect_string(part.get("text"), "content text")?;
                }
            }
            return check_keys(object, &["type", "id", "role", "content"], extra);
        }
        "function_call" => {
            for key in ["call_id", "name", "arguments"] {
                expect_string(object.get(key), key)?;
            }
            &[
                "type",
                "id",
                "name",
                "namespace",
                "arguments",
                "call_id",
                "status",
            ]
        }
        "function_call_output" | "custom_tool_call_output" => {
            expect_string(object.get("call_id"), "call_id")?;
            if !object
                .get("output")
                .is_some_and(|o| o.is_string() || o.is_array())
            {
                return Err("tool output is neither text nor content list".to_string());
            }
            &["type", "id", "call_id", "output"]
        }
        "custom_tool_call" => &["type", "id", "call_id", "name", "input", "status"],
        "reasoning" => &["type", "id", "summary", "content", "encrypted_content"],
        // Responses Lite's request-only tool catalog item.
        "additional_tools" => {
            if !object.get("tools").is_some_and(Value::is_array) {
                return Err("additional_tools without tools".to_string());
            }
            &["type", "id", "role", "tools"]
        }
        other => return Err(format!("unknown item type `{other}`")),
    };
    check_keys(object, allowed, &[])
}

fn check_keys(
    object: &serde_json::Map<String, Value>,
    allowed: &[&str],
    extra: &[&str],
) -> Result<(), String> {
    for key in object.keys() {
        if key != METADATA_KEY && !allowed.contains(&key.as_str()) && !extra.contains(&key.as_str())
        {
            return Err(format!("unexpected key `{key}`"));
        }
    }
    Ok(())
}
