//! `<subagent_notification>`: tells a parent agent that one of its sub-agents changed status,
//! as one line of compact JSON (`{"agent_path":…,"status":…}`).

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;
use serde_json::Value;
use serde_json::json;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const SUBAGENT_NOTIFICATION: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "multi_agent.subagent_notification",
    start_marker: "<subagent_notification>",
    end_marker: "</subagent_notification>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the agent path.
pub const MAX_AGENT_PATH_TOKENS: usize = 500;
/// Cap of a final message or error carried by the status; a longer one keeps its beginning.
pub const MAX_STATUS_MESSAGE_TOKENS: usize = 8_000;

/// A sub-agent's status, serialised as upstream's `AgentStatus`: unit variants as snake_case
/// strings, the others as one-key objects (`{"completed":"done"}`, `{"errored":"…"}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentStatus {
    PendingInit,
    Running,
    Interrupted,
    Completed(Option<String>),
    Errored(String),
    Shutdown,
    NotFound,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentNotification {
    body: String,
}

impl SubagentNotification {
    pub fn new(agent_path: &str, status: &AgentStatus, templates: &TemplateSet) -> Self {
        let agent_path = cap_tokens(agent_path, MAX_AGENT_PATH_TOKENS, Keep::Head, templates);
        let bounded = |text: &str| {
            cap_tokens(text, MAX_STATUS_MESSAGE_TOKENS, Keep::Head, templates).into_owned()
        };
        let status: Value = match status {
            AgentStatus::PendingInit => json!("pending_init"),
            AgentStatus::Running => json!("running"),
            AgentStatus::Interrupted => json!("interrupted"),
            AgentStatus::Completed(message) => {
                json!({ "completed": message.as_deref().map(&bounded) })
            }
            AgentStatus::Errored(error) => json!({ "errored": bounded(error) }),
            AgentStatus::Shutdown => json!("shutdown"),
            AgentStatus::NotFound => json!("not_found"),
        };
        let notification = json!({ "agent_path": agent_path, "status": status });
        let body = format!("\n{notification}\n");
        Self {
            body: cap_rendered_body(&SUBAGENT_NOTIFICATION, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(SubagentNotification, SUBAGENT_NOTIFICATION);
