//! The lines of a turn's body: the user's prompt, reasoning, `exec_command` rounds, token
//! counts and the answer, in each release's shapes.

use std::io;

use serde_json::Value;
use serde_json::json;

use super::EVENT_OUTPUT_CAP;
use super::Generator;
use super::KeptUserMessage;
use super::Shapes;
use super::Usage;
use super::random::command_output;
use super::random::opaque;
use super::random::prose;

/// What a response item's 0.171 `metadata` describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemRole<'m> {
    /// Injected context (developer or contextual user message).
    Context,
    /// A developer message the harness wrote for the whole thread (the initial bundle).
    Developer,
    /// The user's own message.
    User { message_id: &'m str },
    /// The model's answer.
    Assistant { message_id: &'m str },
    /// A reasoning item or a function call.
    ModelOutput,
    /// A tool's output.
    ToolOutput,
}

const PROMPTS: [&str; 8] = [
    "Find where the request body is assembled and explain the order of its fields.",
    "Run the tests of the reader and fix the first failure.",
    "Why does the second turn send the environment again? Look at the diff code.",
    "Add a flag that limits how many turns are printed, with a test.",
    "Profile the resume path on the big rollout and tell me where the time goes.",
    "Rename the helper to something clearer and update its callers.",
    "Check that damaged lines are reported with their line numbers.",
    "Summarise what changed in the last three commits.",
];

const COMMANDS: [&str; 8] = [
    "rg -n \"fn build\" src",
    "cargo test -p codex-rollout",
    "sed -n '1,200p' src/reader.rs",
    "git log --oneline -n 30",
    "ls -la src tests",
    "cargo clippy --all-targets",
    "git diff --stat HEAD~3",
    "cat Cargo.toml",
];

impl Generator<'_> {
    /// The 0.171 `metadata` of a response item (0.149 writes none); advances the history's
    /// sequence.
    pub(super) fn item_metadata(&mut self, role: ItemRole<'_>) -> Option<Value> {
        self.history_sequence += 1;
        let sequence = self.history_sequence;
        let sampled = self.sampled_through;
        match self.shapes {
            Shapes::V0149 => None,
            Shapes::V0171 => Some(match role {
                ItemRole::Developer => json!({
                    "history_sequence": sequence,
                    "sampled_through_sequence": sampled,
                    "client_authored": false,
                    "mcp_attribution": {"status": "none"},
                    "model_search_state": "unused",
                }),
                ItemRole::Context => json!({
                    "history_sequence": sequence,
                    "sampled_through_sequence": sampled,
                    "client_authored": false,
                    "model_search_state": "unused",
                }),
                ItemRole::User { message_id } => {
                    let revision = format!("retained_{}", self.clock.uuid(&mut self.rng));
                    let order = self.user_input_order;
                    self.user_input_order += 1;
                    json!({
                        "history_sequence": sequence,
                        "sampled_through_sequence": sampled,
                        "retained_source": {
                            "id": {"message_id": message_id, "turn_id": self.turn_id, "role": "user"},
                            "revision": revision,
                            "complete": true,
                        },
                        "client_authored": false,
                        "user_input_order": order,
                        "mcp_attribution": {"status": "none"},
                        "model_search_state": "unused",
                    })
                }
                ItemRole::Assistant { message_id } => {
                    let revision = format!("retained_{}", self.clock.uuid(&mut self.rng));
                    let order = self.user_input_order;
                    self.user_input_order += 1;
                    json!({
                        "history_sequence": sequence,
                        "sampled_through_sequence": sampled,
                        "retained_source": {
                            "id": {"message_id": message_id, "turn_id": self.turn_id, "role": "assistant"},
                            "revision": revision,
                            "complete": true,
                        },
                        "client_authored": false,
                        "user_input_order": order,
                        "model_search_state": "unused",
                    })
                }
                ItemRole::ModelOutput => json!({
                    "history_sequence": sequence,
                    "sampled_through_sequence": sampled,
                    "client_authored": false,
                    "model_search_state": "unused",
                }),
                ItemRole::ToolOutput => json!({
                    "history_sequence": sequence,
                    "sampled_through_sequence": sampled,
                    "client_authored": false,
                    "fallback_token_limit_override": 12000,
                    "model_search_state": "unused",
                }),
            }),
        }
    }

    /// `internal_chat_message_metadata_passthrough` of a message: the turn, the creation
    /// time when given, and (0.171) the content kinds with their provenance.
    pub(super) fn passthrough(
        &mut self,
        create_time: Option<f64>,
        kinds: &[(&str, Value)],
    ) -> Value {
        let mut passthrough = json!({"turn_id": self.turn_id});
        if let (Some(time), Some(object)) = (create_time, passthrough.as_object_mut()) {
            object.insert("create_time".to_string(), json!(time));
        }
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                if let Some(object) = passthrough.as_object_mut() {
                    let names: Vec<&str> = kinds.iter().map(|(name, _)| *name).collect();
                    let provenance: Vec<Value> = kinds
                        .iter()
                        .map(|(_, provenance)| json!({"provenance": provenance}))
                        .collect();
                    object.insert("content_item_kinds".to_string(), json!(names));
                    if !provenance.is_empty() {
                        object.insert("content_item_metadata".to_string(), json!(provenance));
                    }
                }
            }
        }
        passthrough
    }

    pub(super) fn task_started(&mut self) -> io::Result<()> {
        let started_at = self.clock.secs();
        let payload = match self.shapes {
            Shapes::V0149 => json!({
                "type": "task_started",
                "turn_id": self.turn_id,
                "started_at": started_at,
                "model_context_window": super::CONTEXT_WINDOW,
                "collaboration_mode_kind": "default",
            }),
            Shapes::V0171 => json!({
                "type": "task_started",
                "turn_attribution": self.turn_attribution(),
                "turn_id": self.turn_id,
                "root_turn_id": self.turn_id,
                "started_at": started_at,
                "model_context_window": super::CONTEXT_WINDOW,
                "collaboration_mode_kind": "default",
            }),
        };
        self.emit("event_msg", payload, None)
    }

    pub(super) fn turn_attribution(&self) -> Value {
        json!({
            "turn_id": self.turn_id,
            "turn_trigger": "exec",
            "parent_turn_id": null,
            "initiating_agent_path": null,
            "root_turn_id": self.turn_id,
        })
    }

    /// An `item_completed` event.
    fn item_completed(&mut self, item: Value, started_at_ms: u64) -> io::Result<()> {
        let payload = json!({
            "type": "item_completed",
            "thread_id": self.thread_id,
            "turn_id": self.turn_id,
            "item": item,
            "started_at_ms": started_at_ms,
            "completed_at_ms": self.clock.ms(),
        });
        self.emit("event_msg", payload, None)
    }

    /// The user's prompt and its `UserMessage` event.
    pub(super) fn user_prompt(&mut self) -> io::Result<()> {
        let mut text = format!("{} (task {})", self.rng.pick(&PROMPTS), self.turns);
        if self.rng.chance(10) {
            text.push_str("\n\n");
            let pasted = self.rng.range(500, 6000) as usize;
            text.push_str(&command_output(&mut self.rng, pasted));
        }
        let id = format!("msg_{}", self.clock.uuid(&mut self.rng));
        let create_time = self.clock.create_time(&mut self.rng);
        let passthrough =
            self.passthrough(Some(create_time), &[("user.text", json!({"type": "user"}))]);
        let metadata = self.item_metadata(ItemRole::User { message_id: &id });
        let payload = json!({
            "type": "message",
            "id": id,
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
            "internal_chat_message_metadata_passthrough": passthrough,
        });
        self.context_bytes += text.len() as u64 + 200;
        self.emit("response_item", payload, metadata)?;
        let revision = format!("retained_{}", self.clock.uuid(&mut self.rng));
        self.kept_user_messages.push(KeptUserMessage {
            id,
            turn_id: self.turn_id.clone(),
            text: text.clone(),
            create_time,
            revision,
            order: self.user_input_order.saturating_sub(1),
        });
        if self.kept_user_messages.len() > 3 {
            self.kept_user_messages.remove(0);
        }
        let event_id = self.clock.uuid(&mut self.rng);
        let started = self.clock.ms();
        self.item_completed(
            json!({
                "type": "UserMessage",
                "id": event_id,
                "content": [{"type": "text", "text": text, "text_elements": []}],
            }),
            started,
        )
    }

    /// A reasoning item with a summary and encrypted content.
    pub(super) fn reasoning(&mut self) -> io::Result<()> {
        let summary_bytes = self.rng.range(60, 400) as usize;
        let summary = prose(&mut self.rng, summary_bytes);
        let encrypted_bytes = self.rng.range(200, 1600) as usize;
        let encrypted = opaque(&mut self.rng, encrypted_bytes);
        let id = format!("rs_{}", self.rng.hex(32));
        let metadata = self.item_metadata(ItemRole::ModelOutput);
        self.context_bytes += (summary.len() + encrypted.len()) as u64;
        let payload = json!({
            "type": "reasoning",
            "id": id,
            "summary": [{"type": "summary_text", "text": summary}],
            "encrypted_content": encrypted,
            "internal_chat_message_metadata_passthrough": {"turn_id": self.turn_id},
        });
        self.emit("response_item", payload, metadata)
    }

    /// One model request answered with an `exec_command` call, the command's run and its
    /// output.
    pub(super) fn tool_round(&mut self) -> io::Result<()> {
        self.call_number += 1;
        let call_id = format!("call_{}", self.rng.hex(24));
        let command = self.rng.pick(&COMMANDS);
        let arguments = json!({"cmd": command, "workdir": self.cwd}).to_string();
        let metadata = self.item_metadata(ItemRole::ModelOutput);
        let payload = json!({
            "type": "function_call",
            "id": format!("fc_{}", self.rng.hex(32)),
            "name": "exec_command",
            "arguments": arguments,
            "call_id": call_id,
            "internal_chat_message_metadata_passthrough": {"turn_id": self.turn_id},
        });
        self.context_bytes += arguments.len() as u64 + 150;
        self.emit("response_item", payload, metadata)?;
        let usage = self.request_usage();
        self.sampled_through = self.history_sequence;
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => self.token_usage_record(usage)?,
        }
        let started = self.clock.ms();
        let wall_ms = self.rng.range(3, 20_000);
        self.clock.advance(wall_ms);
        let output_bytes = match (self.huge_output.take(), self.rng.range(0, 99)) {
            (Some(bytes), _) => bytes,
            // Mostly short outputs, a few long ones: 100,000 lines come to about 80 MB, near
            // the 40 MB of 105,000 lines a user's long 0.149.1 session measured.
            (None, 0..=79) => self.rng.range(60, 600) as usize,
            (None, 80..=95) => self.rng.range(600, 3_000) as usize,
            (None, 96..=98) => self.rng.range(3_000, 12_000) as usize,
            (None, _) => self.rng.range(12_000, 40_000) as usize,
        };
        let output = command_output(&mut self.rng, output_bytes);
        // The output is ASCII, so any byte offset is a character boundary.
        let event_output = output.get(..EVENT_OUTPUT_CAP).unwrap_or(&output);
        let mut item = json!({
            "type": "CommandExecution",
            "id": call_id,
            "process_id": self.rng.range(1000, 99_999).to_string(),
            "command": ["/bin/bash", "-lc", command],
            "cwd": format!("file://{}", self.cwd),
            "parsed_cmd": [{"type": "unknown", "cmd": command}],
            "source": "unified_exec_startup",
            "status": "completed",
        });
        if let Some(object) = item.as_object_mut() {
            match self.shapes {
                Shapes::V0149 => {
                    object.insert("stdout".to_string(), json!(event_output));
                    object.insert("stderr".to_string(), json!(""));
                    object.insert("aggregated_output".to_string(), json!(event_output));
                }
                Shapes::V0171 => {
                    object.insert("aggregated_output".to_string(), json!(event_output));
                }
            }
            object.insert("exit_code".to_string(), json!(0));
            object.insert(
                "duration".to_string(),
                json!({"secs": wall_ms / 1000, "nanos": (wall_ms % 1000) * 1_000_000}),
            );
            match self.shapes {
                Shapes::V0149 => {
                    object.insert("formatted_output".to_string(), json!(event_output));
                }
                Shapes::V0171 => {}
            }
        }
        self.item_completed(item, started)?;
        let text = format!(
            "Chunk ID: {}\nWall time: {}.{:04} seconds\nProcess exited with code 0\n\
             Original token count: {}\nOutput:\n{output}",
            self.rng.hex(6),
            wall_ms / 1000,
            (wall_ms % 1000) * 10,
            output.len() / 4
        );
        self.context_bytes += text.len() as u64;
        let create_time = self.clock.create_time(&mut self.rng);
        let metadata = self.item_metadata(ItemRole::ToolOutput);
        let payload = json!({
            "type": "function_call_output",
            "id": format!("fco_{}", self.clock.uuid(&mut self.rng)),
            "call_id": call_id,
            "output": text,
            "internal_chat_message_metadata_passthrough": {
                "turn_id": self.turn_id,
                "create_time": create_time,
            },
        });
        self.emit("response_item", payload, metadata)?;
        self.token_count(usage)
    }

    /// The usage of one more request over the current context, added to the turn's and the
    /// thread's.
    pub(super) fn request_usage(&mut self) -> Usage {
        self.response_number += 1;
        let input = self.context_tokens();
        let output = self.rng.range(20, 900);
        let usage = Usage {
            input,
            cached: input.saturating_sub(self.rng.range(500, 4000)),
            output,
            reasoning: output / 2,
        };
        self.turn_usage.add(usage);
        self.thread_usage.add(usage);
        self.last_usage = usage;
        usage
    }

    /// 0.171's `token_usage_record` of the last response.
    pub(super) fn token_usage_record(&mut self, usage: Usage) -> io::Result<()> {
        let record = self.usage_record(usage);
        self.emit("token_usage_record", record, None)
    }

    pub(super) fn usage_record(&self, usage: Usage) -> Value {
        json!({
            "thread_id": self.thread_id,
            "turn_id": self.turn_id,
            "session_id": self.thread_id,
            "root_turn_id": self.turn_id,
            "response_id": format!("resp_{:08}", self.response_number),
            "usage": usage.to_json(),
            "turn_token_usage": self.turn_usage.to_json(),
            "thread_token_usage": self.thread_usage.to_json(),
        })
    }

    /// A `token_count` event: the thread's total and `last` usage.
    pub(super) fn token_count(&mut self, last: Usage) -> io::Result<()> {
        let mut info = json!({
            "total_token_usage": self.thread_usage.to_json(),
            "last_token_usage": last.to_json(),
        });
        if let Some(object) = info.as_object_mut() {
            match self.shapes {
                Shapes::V0149 => {}
                Shapes::V0171 => {
                    object.insert("last_usage_includes_reasoning".to_string(), json!(false));
                }
            }
            object.insert(
                "model_context_window".to_string(),
                json!(super::CONTEXT_WINDOW),
            );
        }
        let payload = json!({
            "type": "token_count",
            "info": info,
            "rate_limits": {
                "limit_id": "codex", "limit_name": null, "primary": null, "secondary": null,
                "credits": null, "individual_limit": null, "spend_control_reached": null,
                "plan_type": null, "rate_limit_reached_type": null,
            },
        });
        self.emit("event_msg", payload, None)
    }

    /// The assistant's answer and the end of the turn.
    pub(super) fn answer(&mut self) -> io::Result<()> {
        let bytes = match self.rng.range(0, 9) {
            0 => self.rng.range(2_000, 8_000),
            _ => self.rng.range(80, 1_500),
        } as usize;
        let text = prose(&mut self.rng, bytes);
        let id = format!("msg_{}", self.rng.hex(32));
        let started = self.clock.ms();
        self.item_completed(
            json!({"type": "AgentMessage", "id": id, "content": [{"type": "Text", "text": text}]}),
            started,
        )?;
        let passthrough = self.passthrough(None, &[("unknown", Value::Null)]);
        let passthrough = match self.shapes {
            // 0.171 lists the answer's kind without provenance.
            Shapes::V0171 => {
                let mut passthrough = passthrough;
                if let Some(object) = passthrough.as_object_mut() {
                    object.remove("content_item_metadata");
                }
                passthrough
            }
            Shapes::V0149 => passthrough,
        };
        let metadata = self.item_metadata(ItemRole::Assistant { message_id: &id });
        let payload = json!({
            "type": "message",
            "id": id,
            "role": "assistant",
            "content": [{"type": "output_text", "text": text}],
            "internal_chat_message_metadata_passthrough": passthrough,
        });
        self.context_bytes += text.len() as u64 + 150;
        self.emit("response_item", payload, metadata)?;
        let usage = self.request_usage();
        self.sampled_through = self.history_sequence;
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => self.token_usage_record(usage)?,
        }
        self.token_count(usage)?;
        let started_at = self.turn_started_ms / 1000;
        let completed_at = self.clock.secs();
        let duration_ms = self.clock.ms() - self.turn_started_ms;
        let first_token_ms = self.rng.range(60, 2_000).min(duration_ms);
        let payload = match self.shapes {
            Shapes::V0149 => json!({
                "type": "task_complete",
                "turn_id": self.turn_id,
                "last_agent_message": text,
                "started_at": started_at,
                "completed_at": completed_at,
                "duration_ms": duration_ms,
                "time_to_first_token_ms": first_token_ms,
            }),
            Shapes::V0171 => json!({
                "type": "task_complete",
                "root_turn_id": self.turn_id,
                "turn_id": self.turn_id,
                "last_agent_message": text,
                "started_at": started_at,
                "completed_at": completed_at,
                "duration_ms": duration_ms,
                "time_to_first_token_ms": first_token_ms,
            }),
        };
        self.emit("event_msg", payload, None)
    }
}
