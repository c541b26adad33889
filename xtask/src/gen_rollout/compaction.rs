//! A compaction inside a turn, as the releases record one: the summarising response, the
//! `compacted` line with the history that replaces the thread's, the full world state and
//! turn context again, and the `ContextCompaction` item.

use std::io;

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde_json::Value;
use serde_json::json;

use super::Generator;
use super::MODEL;
use super::Shapes;
use super::items::ItemRole;
use super::random::prose;

impl Generator<'_> {
    pub(super) fn compaction(&mut self) -> io::Result<()> {
        self.compactions += 1;
        let started = self.clock.ms();
        let last = self.last_usage;
        self.token_count(last)?;
        let summary_bytes = self.rng.range(600, 3_000) as usize;
        let summary = prose(&mut self.rng, summary_bytes);
        self.summary_response(&summary)?;
        let usage = self.request_usage();
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => self.token_usage_record(usage)?,
        }
        self.token_count(usage)?;
        let prefix = TemplateSet::embedded()
            .text(TemplateId::CompactionSummaryPrefix)
            .to_string();
        let message = format!("{prefix}\n{summary}");
        let (history, history_metadata) = self.replacement_history(&message);
        let previous_window_id = self.window_id.clone();
        self.window_id = self.clock.uuid(&mut self.rng);
        self.window_number += 1;
        let mut payload = serde_json::Map::new();
        payload.insert("message".to_string(), json!(message));
        payload.insert("replacement_history".to_string(), json!(history));
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                payload.insert(
                    "replacement_history_metadata".to_string(),
                    json!(history_metadata),
                );
                payload.insert("retained_context".to_string(), self.retained_context());
            }
        }
        payload.insert("window_number".to_string(), json!(self.window_number));
        payload.insert("first_window_id".to_string(), json!(self.first_window_id));
        payload.insert("previous_window_id".to_string(), json!(previous_window_id));
        payload.insert("window_id".to_string(), json!(self.window_id));
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                payload.insert(
                    "compaction_response_id".to_string(),
                    json!(format!("resp_{:08}", self.response_number)),
                );
                payload.insert(
                    "latest_token_usage_record".to_string(),
                    self.usage_record(usage),
                );
                payload.insert(
                    "resume_metadata".to_string(),
                    json!({
                        "dynamic_tools": {"thread_id": self.thread_id, "tools": []},
                        "multi_agent_version": "v1",
                        "last_started_turn_id": self.turn_id,
                        "turn_attribution": self.turn_attribution(),
                        "previous_turn_settings": {
                            "model": MODEL, "comp_hash": "2911", "realtime_active": false
                        },
                    }),
                );
            }
        }
        self.context_bytes = json!(history).to_string().len() as u64;
        self.emit("compacted", Value::Object(payload), None)?;
        self.world_state_full()?;
        self.turn_context()?;
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => self.thread_settings_applied()?,
        }
        let total = self.context_tokens();
        let after = self.token_count_after_compaction(total);
        self.emit("event_msg", after, None)?;
        let id = self.clock.uuid(&mut self.rng);
        let payload = json!({
            "type": "item_completed",
            "thread_id": self.thread_id,
            "turn_id": self.turn_id,
            "item": {"type": "ContextCompaction", "id": id},
            "started_at_ms": started,
            "completed_at_ms": self.clock.ms(),
        });
        self.emit("event_msg", payload, None)
    }

    /// The summarising response, recorded as an assistant message.
    fn summary_response(&mut self, summary: &str) -> io::Result<()> {
        let id = format!("msg_{}", self.rng.hex(32));
        let mut passthrough = self.passthrough(None, &[("unknown", Value::Null)]);
        if let Some(object) = passthrough.as_object_mut() {
            object.remove("content_item_metadata");
        }
        let metadata = self.item_metadata(ItemRole::Assistant { message_id: &id });
        let payload = json!({
            "type": "message",
            "id": id,
            "role": "assistant",
            "content": [{"type": "output_text", "text": summary}],
            "internal_chat_message_metadata_passthrough": passthrough,
        });
        self.emit("response_item", payload, metadata)
    }

    /// What replaces the history: the initial context rebuilt, the last user messages, the
    /// summary; and (0.171) each item's metadata.
    fn replacement_history(&mut self, message: &str) -> (Vec<Value>, Vec<Value>) {
        let mut history = Vec::new();
        let mut metadata = Vec::new();
        let (developer, developer_kinds) = self.developer_message();
        let (contextual, contextual_kinds) = self.contextual_message();
        for (role, contents, kinds) in [
            ("developer", developer, developer_kinds),
            ("user", contextual, contextual_kinds),
        ] {
            let id = format!("msg_{}", self.clock.uuid(&mut self.rng));
            let passthrough = self.passthrough(None, &kinds);
            history.push(json!({
                "type": "message", "id": id, "role": role, "content": contents,
                "internal_chat_message_metadata_passthrough": passthrough,
            }));
            metadata.push(self.history_entry_metadata());
        }
        for kept in self.kept_user_messages.clone() {
            let id = match self.shapes {
                Shapes::V0149 => format!("msg_{}", self.clock.uuid(&mut self.rng)),
                Shapes::V0171 => kept.id.clone(),
            };
            let mut passthrough = json!({"turn_id": kept.turn_id, "create_time": kept.create_time});
            match (self.shapes, passthrough.as_object_mut()) {
                (Shapes::V0171, Some(object)) => {
                    object.insert("content_item_kinds".to_string(), json!(["user.text"]));
                    object.insert(
                        "content_item_metadata".to_string(),
                        json!([{"provenance": {"type": "user"}}]),
                    );
                }
                (Shapes::V0171 | Shapes::V0149, _) => {}
            }
            history.push(json!({
                "type": "message", "id": id, "role": "user",
                "content": [{"type": "input_text", "text": kept.text}],
                "internal_chat_message_metadata_passthrough": passthrough,
            }));
            metadata.push(json!({
                "history_sequence": self.history_sequence,
                "sampled_through_sequence": self.sampled_through,
                "retained_source": {
                    "id": {"message_id": kept.id, "turn_id": kept.turn_id, "role": "user"},
                    "revision": kept.revision,
                    "complete": true,
                },
                "client_authored": false,
                "user_input_order": kept.order,
                "mcp_attribution": {"status": "none"},
                "model_search_state": "unused",
            }));
        }
        let id = format!("msg_{}", self.clock.uuid(&mut self.rng));
        let passthrough = self.passthrough(
            None,
            &[(
                "compaction.summary",
                json!({"type": "harness", "hook": false}),
            )],
        );
        history.push(json!({
            "type": "message", "id": id, "role": "user",
            "content": [{"type": "input_text", "text": message}],
            "internal_chat_message_metadata_passthrough": passthrough,
        }));
        metadata.push(self.history_entry_metadata());
        (history, metadata)
    }

    fn history_entry_metadata(&mut self) -> Value {
        self.history_sequence += 1;
        json!({
            "history_sequence": self.history_sequence,
            "sampled_through_sequence": self.sampled_through,
            "client_authored": false,
            "model_search_state": "unused",
        })
    }

    /// 0.171's account of the user messages a compaction kept.
    fn retained_context(&self) -> Value {
        let messages: Vec<Value> = self
            .kept_user_messages
            .iter()
            .map(|kept| {
                json!({
                    "revision": kept.revision,
                    "order": kept.order,
                    "turn_id": kept.turn_id,
                    "message_id": kept.id,
                    "text": kept.text,
                    "complete": true,
                })
            })
            .collect();
        json!({
            "verified_answers": [],
            "incomplete": false,
            "user_messages": messages,
            "user_messages_incomplete": false,
            "assistant_messages": [],
            "assistant_messages_incomplete": false,
            "next_order": self.user_input_order,
        })
    }

    /// The `token_count` right after a compaction: no request's usage, the new context's
    /// total.
    fn token_count_after_compaction(&self, total: u64) -> Value {
        let zero = json!({
            "input_tokens": 0, "cached_input_tokens": 0, "cache_write_input_tokens": 0,
            "output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": total,
        });
        let mut info = json!({
            "total_token_usage": self.thread_usage.to_json(),
            "last_token_usage": zero,
        });
        if let Some(object) = info.as_object_mut() {
            match self.shapes {
                Shapes::V0149 => {}
                Shapes::V0171 => {
                    object.insert("last_usage_includes_reasoning".to_string(), json!(true));
                }
            }
            object.insert(
                "model_context_window".to_string(),
                json!(super::CONTEXT_WINDOW),
            );
        }
        json!({
            "type": "token_count",
            "info": info,
            "rate_limits": {
                "limit_id": "codex", "limit_name": null, "primary": null, "secondary": null,
                "credits": null, "individual_limit": null, "spend_control_reached": null,
                "plan_type": null, "rate_limit_reached_type": null,
            },
        })
    }
}
