//! The thread's context lines: session metadata, the initial context, the world state (full
//! and patched), the turn context, the thread's settings on resume, and compactions.

use std::io;

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde_json::Value;
use serde_json::json;

use super::Generator;
use super::MODEL;
use super::Shapes;
use super::items::ItemRole;

/// The AGENTS.md text the thread's project holds.
const AGENTS_MD: &str = "# Project notes\n\nRun `cargo test` before committing. Keep modules \
                         small and every public item documented.\n";
/// Stand-ins for fingerprints the releases record (the hash of a text, not the text).
const COLLABORATION_FINGERPRINT: &str = "5be2b9f0c0f1a3e4d2c6a8b7e9f0d1c2b3a4e5f6";
const PERMISSIONS_FINGERPRINT: &str = "0c7d3e1f2a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d";
const CATALOG_FINGERPRINT: &str = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d";
/// The multi-agent tool namespace 0.171 lists.
const MULTI_AGENT_TOOLS: &str = "Tools for starting and coordinating helper agents.";

impl Generator<'_> {
    fn filesystem(&self) -> String {
        format!(
            "<filesystem><workspace_roots><root>{}</root></workspace_roots><permission_profile \
             type=\"managed\"><file_system type=\"restricted\"><entry access=\"read\"><special>\
             :root</special></entry></file_system></permission_profile></filesystem>",
            self.cwd
        )
    }

    fn skills_body(&self) -> String {
        "\n## Skills\nSkills are folders of instructions, each described by a `SKILL.md` \
         file. Open a skill's file when the task matches its description, and follow it.\n\
         ### Available skills\n- release-notes: Drafts release notes from the commits since the \
         last tag. (file: /home/dev/.codex/skills/release-notes/SKILL.md)\n"
            .to_string()
    }

    fn permissions_text(&self) -> String {
        "<permissions instructions>\nThe sandbox is `read-only`: files may be read, not \
         written, and the network is off.\nThe approval policy is `never`: a command the \
         sandbox refuses fails; do not ask for more permissions.\n</permissions instructions>"
            .to_string()
    }

    fn environment_context(&self, date: &str) -> String {
        format!(
            "<environment_context>\n  <cwd>{}</cwd>\n  <shell>bash</shell>\n  <current_date>\
             {date}</current_date>\n  <timezone>Etc/UTC</timezone>\n  {}\n</environment_context>",
            self.cwd,
            self.filesystem()
        )
    }

    /// The developer message of the initial context: its contents and their kinds.
    pub(super) fn developer_message(&self) -> (Vec<Value>, Vec<(&'static str, Value)>) {
        let skills = format!(
            "<skills_instructions>{}</skills_instructions>",
            self.skills_body()
        );
        let mut contents = vec![
            json!({"type": "input_text", "text": skills}),
            json!({"type": "input_text", "text": self.permissions_text()}),
        ];
        let mut kinds = vec![
            ("host_skills.instructions", json!({"type": "skills"})),
            (
                "permissions.instructions",
                json!({"type": "harness", "hook": false}),
            ),
        ];
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                let tools = format!(
                    "<tools>\nDeferred tool namespaces:\n- multi_agent_v1: {MULTI_AGENT_TOOLS}\n</tools>"
                );
                contents.push(json!({"type": "input_text", "text": tools}));
                kinds.push((
                    "tools.deferred_namespaces",
                    json!({"type": "tool", "namespace": "tool_search"}),
                ));
            }
        }
        (contents, kinds)
    }

    /// The contextual user message of the initial context.
    pub(super) fn contextual_message(&self) -> (Vec<Value>, Vec<(&'static str, Value)>) {
        let agents = format!(
            "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{AGENTS_MD}\n</INSTRUCTIONS>",
            self.cwd
        );
        let date = self.clock.date();
        (
            vec![
                json!({"type": "input_text", "text": agents}),
                json!({"type": "input_text", "text": self.environment_context(&date)}),
            ],
            vec![
                ("agents_md.instructions", json!({"type": "agents_md"})),
                (
                    "environments.environment_context",
                    json!({"type": "harness", "hook": false}),
                ),
            ],
        )
    }

    pub(super) fn session_meta(&mut self) -> io::Result<()> {
        let base = TemplateSet::embedded()
            .text(TemplateId::BaseInstructionsDefault)
            .to_string();
        let started = self.clock.timestamp();
        let mut payload = serde_json::Map::new();
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                payload.insert("account_scoped".to_string(), json!(true));
            }
        }
        payload.insert("session_id".to_string(), json!(self.thread_id));
        payload.insert("id".to_string(), json!(self.thread_id));
        payload.insert("timestamp".to_string(), json!(started));
        payload.insert("cwd".to_string(), json!(self.cwd));
        match self.shapes {
            Shapes::V0149 => {}
            Shapes::V0171 => {
                payload.insert("runtime_workspace_roots".to_string(), json!([self.cwd]));
            }
        }
        let rest = json!({
            "originator": "codex_exec",
            "cli_version": self.release.observed_version(),
            "source": "exec",
            "thread_source": "user",
            "model_provider": self.model_provider,
            "base_instructions": {"text": base, "provenance": {"type": "model", "model": MODEL}},
            "history_mode": "paginated",
            "context_window": {"window_id": self.window_id},
            "git": {"commit_hash": self.rng.hex(40), "branch": "main"},
        });
        if let Value::Object(rest) = rest {
            payload.extend(rest);
        }
        self.emit("session_meta", Value::Object(payload), None)
    }

    /// The developer message and the contextual user message of the first turn.
    pub(super) fn initial_context(&mut self) -> io::Result<()> {
        let (contents, kinds) = self.developer_message();
        self.context_message("developer", contents, &kinds, ItemRole::Developer)?;
        let (contents, kinds) = self.contextual_message();
        self.context_message("user", contents, &kinds, ItemRole::Context)
    }

    fn context_message(
        &mut self,
        role: &str,
        contents: Vec<Value>,
        kinds: &[(&str, Value)],
        item_role: ItemRole<'_>,
    ) -> io::Result<()> {
        let id = format!("msg_{}", self.clock.uuid(&mut self.rng));
        let create_time = self.clock.create_time(&mut self.rng);
        let passthrough = self.passthrough(Some(create_time), kinds);
        let metadata = self.item_metadata(item_role);
        let payload = json!({
            "type": "message",
            "id": id,
            "role": role,
            "content": contents,
            "internal_chat_message_metadata_passthrough": passthrough,
        });
        self.context_bytes += payload.to_string().len() as u64;
        self.emit("response_item", payload, metadata)
    }

    /// The full world state, as the first turn and every compaction record it.
    pub(super) fn world_state_full(&mut self) -> io::Result<()> {
        let date = self.clock.date();
        let environments = json!({
            "environments": {"local": {"cwd": self.cwd, "status": "available", "shell": "bash"}},
            "current_date": date,
            "timezone": "Etc/UTC",
            "filesystem": self.filesystem(),
        });
        let collaboration =
            json!({"mode": "default", "model": MODEL, "instructions": COLLABORATION_FINGERPRINT});
        let permissions =
            json!({"instructions": PERMISSIONS_FINGERPRINT, "approved_command_prefixes": []});
        let host_skills = json!({"body": self.skills_body(), "includeInstructions": true});
        let agents_md = json!({"directory": self.cwd, "text": AGENTS_MD});
        let state = match self.shapes {
            Shapes::V0149 => json!({
                "agents_md": agents_md,
                "apps_instructions": false,
                "collaboration_mode": collaboration,
                "environments": environments,
                "environments_instructions": false,
                "git_attribution": false,
                "host_skills": host_skills,
                "model": MODEL,
                "multi_agent_mode": {},
                "orchestrator_skills": {"includeInstructions": true, "enabled": false},
                "permissions": permissions,
                "personality": {"model": MODEL, "personality": "pragmatic"},
                "plugins_instructions": false,
                "realtime": {"active": false},
                "skills": {"includeInstructions": true},
            }),
            Shapes::V0171 => json!({
                "agents_md": agents_md,
                "apps_instructions": false,
                "collaboration_mode": collaboration,
                "context_window_guidance": "",
                "environments": environments,
                "environments_instructions": false,
                "git_attribution": false,
                "host_skills": host_skills,
                "managed_developer_instructions": {},
                "model": MODEL,
                "model_catalog": CATALOG_FINGERPRINT,
                "multi_agent_mode": {},
                "permissions": permissions,
                "persistent_mode": {},
                "plugins_instructions": false,
                "realtime": {"active": false},
                "skills": {"includeInstructions": true},
                "tools": {"multi_agent_v1": MULTI_AGENT_TOOLS},
            }),
        };
        self.recorded_date = date;
        self.emit("world_state", json!({"full": true, "state": state}), None)
    }

    /// A resumed turn on a new day: the new date in an environment context, and the world
    /// state's patch.
    pub(super) fn date_update(&mut self) -> io::Result<()> {
        let date = self.clock.date();
        let text = format!(
            "<environment_context>\n  <current_date>{date}</current_date>\n</environment_context>"
        );
        self.context_message(
            "user",
            vec![json!({"type": "input_text", "text": text})],
            &[(
                "environments.environment_context",
                json!({"type": "harness", "hook": false}),
            )],
            ItemRole::Context,
        )?;
        let patch = json!({"full": false, "state": {"environments": {"current_date": date}}});
        self.recorded_date = date;
        self.emit("world_state", patch, None)
    }

    fn permission_profile() -> Value {
        json!({
            "type": "managed",
            "file_system": {"type": "restricted", "entries": [
                {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}
            ]},
            "network": "restricted",
        })
    }

    fn collaboration_settings() -> Value {
        json!({"mode": "default", "settings": {
            "model": MODEL, "reasoning_effort": null, "developer_instructions": null
        }})
    }

    pub(super) fn turn_context(&mut self) -> io::Result<()> {
        let payload = match self.shapes {
            Shapes::V0149 => json!({
                "turn_id": self.turn_id,
                "cwd": self.cwd,
                "workspace_roots": [self.cwd],
                "current_date": self.clock.date(),
                "timezone": "Etc/UTC",
                "approval_policy": "never",
                "approvals_reviewer": "user",
                "sandbox_policy": {"type": "read-only"},
                "permission_profile": Self::permission_profile(),
                "active_permission_profile": {"id": ":read-only"},
                "model": MODEL,
                "comp_hash": "2911",
                "personality": "pragmatic",
                "collaboration_mode": Self::collaboration_settings(),
                "multi_agent_version": "v1",
                "realtime_active": false,
                "summary": "auto",
            }),
            Shapes::V0171 => json!({
                "turn_id": self.turn_id,
                "root_turn_id": self.turn_id,
                "disabled_plugin_ids": [],
                "cwd": self.cwd,
                "approval_policy": "never",
                "approvals_reviewer": "user",
                "permission_profile": Self::permission_profile(),
                "active_permission_profile": {"id": ":read-only"},
                "model": MODEL,
                "comp_hash": "2911",
                "collaboration_mode": Self::collaboration_settings(),
                "multi_agent_version": "v1",
                "realtime_active": false,
                "summary": "none",
                "sandbox_policy": {"type": "read-only"},
            }),
        };
        self.emit("turn_context", payload, None)
    }

    pub(super) fn thread_settings_applied(&mut self) -> io::Result<()> {
        let payload = match self.shapes {
            Shapes::V0149 => json!({
                "type": "thread_settings_applied",
                "thread_settings": {
                    "model": MODEL,
                    "model_provider_id": self.model_provider,
                    "approval_policy": "never",
                    "approvals_reviewer": "user",
                    "permission_profile": Self::permission_profile(),
                    "active_permission_profile": {"id": ":read-only"},
                    "cwd": self.cwd,
                    "personality": "pragmatic",
                    "collaboration_mode": Self::collaboration_settings(),
                },
            }),
            Shapes::V0171 => json!({
                "type": "thread_settings_applied",
                "thread_id": self.thread_id,
                "thread_settings": {
                    "model": MODEL,
                    "model_provider_id": self.model_provider,
                    "approval_policy": "never",
                    "approvals_reviewer": "user",
                    "requested_approvals_reviewer": "user",
                    "permission_profile": Self::permission_profile(),
                    "active_permission_profile": {"id": ":read-only"},
                    "cwd": self.cwd,
                    "runtime_workspace_roots": [self.cwd],
                    "collaboration_mode": Self::collaboration_settings(),
                    "disabled_plugin_ids": [],
                },
            }),
        };
        self.emit("event_msg", payload, None)
    }
}
