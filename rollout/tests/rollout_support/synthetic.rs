//! A deterministic synthetic rollout with the line mix of a long coding session: per turn a
//! world-state patch, a turn context, the user message, several reasoning / tool call / tool
//! output rounds with token counts, the reply; a compaction (with replacement history and a
//! fresh full world state) every 100 turns. Shared by the resume benchmark and the memory test.

use std::io;
use std::io::Write;

use serde_json::Value;
use serde_json::json;

const TURNS_PER_WINDOW: usize = 100;

/// Small deterministic generator so every run writes the same bytes.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

fn text_of(random: &mut Lcg, bytes: usize) -> String {
    const WORDS: &[&str] = &[
        "fn",
        "let",
        "match",
        "cargo",
        "test",
        "rollout",
        "error:",
        "src/lib.rs",
        "warning",
        "ok",
        "line",
        "42",
        "passed",
        "->",
        "struct",
        "impl",
        "{",
        "}",
        "\"quoted\"",
        "\\n",
    ];
    let mut text = String::with_capacity(bytes + 16);
    while text.len() < bytes {
        text.push_str(WORDS[random.next(WORDS.len())]);
        text.push(if random.next(8) == 0 { '\n' } else { ' ' });
    }
    text
}

fn line(timestamp_ms: u64, line_type: &str, payload: Value) -> String {
    let seconds = timestamp_ms / 1000;
    let timestamp = format!(
        "2026-11-30T{:02}:{:02}:{:02}.{:03}Z",
        (seconds / 3600) % 24,
        (seconds / 60) % 60,
        seconds % 60,
        timestamp_ms % 1000
    );
    json!({"timestamp": timestamp, "type": line_type, "payload": payload}).to_string()
}

fn message(role: &str, text: String, turn_id: &str) -> Value {
    let part = if role == "assistant" {
        "output_text"
    } else {
        "input_text"
    };
    json!({
        "type": "message",
        "role": role,
        "content": [{"type": part, "text": text}],
        "internal_chat_message_metadata_passthrough": {"turn_id": turn_id}
    })
}

fn token_count(total: usize) -> Value {
    let usage = json!({
        "input_tokens": total, "cached_input_tokens": total / 2, "output_tokens": 120,
        "reasoning_output_tokens": 64, "total_tokens": total + 120
    });
    json!({
        "type": "token_count",
        "info": {"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 258400},
        "rate_limits": null
    })
}

/// The lines of one turn (the last turn may be cut short by the line budget).
fn turn_lines(random: &mut Lcg, turn: usize, mut clock: impl FnMut() -> u64) -> Vec<String> {
    let turn_id = format!("turn-{turn:06}");
    let mut lines = vec![
        line(
            clock(),
            "event_msg",
            json!({"type": "task_started", "turn_id": turn_id}),
        ),
        line(
            clock(),
            "world_state",
            json!({"full": false, "state": {"environments": {"current_date": format!("day {turn}")}}}),
        ),
        line(
            clock(),
            "turn_context",
            json!({
                "turn_id": turn_id, "cwd": "/work/project", "current_date": "2026-11-30",
                "timezone": "Etc/UTC", "approval_policy": "on-request",
                "sandbox_policy": {"type": "read-only"}, "model": "gpt-5.5",
                "personality": "pragmatic", "realtime_active": false, "summary": "auto"
            }),
        ),
    ];
    let request_bytes = 80 + random.next(400);
    let request = text_of(random, request_bytes);
    lines.push(line(
        clock(),
        "response_item",
        message("user", request.clone(), &turn_id),
    ));
    lines.push(line(
        clock(),
        "event_msg",
        json!({"type": "user_message", "message": request, "images": [], "text_elements": []}),
    ));
    for round in 0..(2 + random.next(5)) {
        let call_id = format!("call-{turn}-{round}");
        let encrypted: String = (0..600 + random.next(800))
            .map(|index| char::from(b'A' + ((index * 7 + turn) % 26) as u8))
            .collect();
        lines.push(line(
            clock(),
            "response_item",
            json!({
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": text_of(random, 120)}],
                "encrypted_content": encrypted
            }),
        ));
        lines.push(line(
            clock(),
            "response_item",
            json!({
                "type": "function_call", "name": "exec_command",
                "arguments": json!({"cmd": text_of(random, 40), "workdir": "/work/project"}).to_string(),
                "call_id": call_id
            }),
        ));
        let output_bytes = 200 + random.next(2400);
        lines.push(line(
            clock(),
            "response_item",
            json!({
                "type": "function_call_output", "call_id": call_id,
                "output": text_of(random, output_bytes)
            }),
        ));
        lines.push(line(
            clock(),
            "event_msg",
            token_count(turn * 900 + round * 300),
        ));
    }
    let reply_bytes = 100 + random.next(500);
    let reply = text_of(random, reply_bytes);
    lines.push(line(
        clock(),
        "event_msg",
        json!({"type": "agent_message", "message": reply, "phase": null}),
    ));
    lines.push(line(
        clock(),
        "response_item",
        message("assistant", reply, &turn_id),
    ));
    lines.push(line(clock(), "event_msg", token_count(turn * 900 + 1000)));
    lines.push(line(
        clock(),
        "event_msg",
        json!({"type": "task_complete", "turn_id": turn_id}),
    ));
    lines
}

fn full_world_state(turn: usize) -> Value {
    json!({
        "full": true,
        "state": {
            "agents_md": {"text": "project rules"},
            "environments": {"current_date": format!("day {turn}"), "cwd": "/work/project"},
            "model": "gpt-5.5",
            "permissions": {"instructions": "6f1c0a", "approved_prefixes": []},
            "personality": "pragmatic",
            "realtime": false
        }
    })
}

/// Counts lines and bytes and refuses lines past the budget.
struct Sink<'a, W: Write> {
    out: &'a mut W,
    remaining: usize,
    bytes: u64,
}

impl<W: Write> Sink<'_, W> {
    /// Writes one line; `false` once the line budget is spent.
    fn emit(&mut self, text: &str) -> io::Result<bool> {
        if self.remaining == 0 {
            return Ok(false);
        }
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.remaining -= 1;
        self.bytes += text.len() as u64 + 1;
        Ok(true)
    }
}

/// Writes `line_count` lines; returns the number of bytes written.
pub fn write_synthetic_rollout(out: &mut impl Write, line_count: usize) -> io::Result<u64> {
    let mut random = Lcg(0x5eed);
    let mut now_ms = 0u64;
    let mut clock = move || {
        now_ms += 7;
        now_ms
    };
    let mut sink = Sink {
        out,
        remaining: line_count,
        bytes: 0,
    };
    let meta = json!({
        "session_id": "synthetic-thread", "id": "synthetic-thread", "timestamp": "2026-11-30T00:00:00.000Z",
        "cwd": "/work/project", "originator": "codex_cli_rs", "cli_version": "0.0.0", "source": "exec",
        "model_provider": "openai",
        "base_instructions": {"text": text_of(&mut random, 20_000), "provenance": {"type": "model", "model": "gpt-5.5"}},
        "history_mode": "legacy"
    });
    sink.emit(&line(clock(), "session_meta", meta))?;
    sink.emit(&line(clock(), "world_state", full_world_state(0)))?;
    let mut recent_requests: Vec<Value> = Vec::new();
    let mut turn = 1;
    while sink.remaining > 0 {
        if turn % TURNS_PER_WINDOW == 0 {
            let mut replacement = recent_requests.clone();
            replacement.push(message("user", text_of(&mut random, 1500), "summary"));
            sink.emit(&line(
                clock(),
                "compacted",
                json!({"message": "summary of the window", "replacement_history": replacement}),
            ))?;
            sink.emit(&line(clock(), "world_state", full_world_state(turn)))?;
            recent_requests.clear();
        }
        let lines = turn_lines(&mut random, turn, &mut clock);
        let user: Value = serde_json::from_str(&lines[3]).map_err(io::Error::other)?;
        recent_requests.push(user["payload"].clone());
        if recent_requests.len() > 10 {
            recent_requests.remove(0);
        }
        for text in &lines {
            sink.emit(text)?;
        }
        turn += 1;
    }
    Ok(sink.bytes)
}
