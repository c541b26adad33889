//! A message from one agent to another (a new task or a follow-up), recorded under the
//! `assistant` role in the receiver's history as a plain envelope with no markers.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

/// Role of messages an agent receives from another agent.
pub const ASSISTANT_ROLE: &str = "assistant";

pub const INTER_AGENT_MESSAGE: FragmentSpec = FragmentSpec {
    role: ASSISTANT_ROLE,
    content_kind: "multi_agent.inter_agent_message",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the task name and of the sender path.
pub const MAX_AGENT_PATH_TOKENS: usize = 500;
/// Cap of the payload; a longer one keeps its beginning.
pub const MAX_PAYLOAD_TOKENS: usize = 8_000;

/// The envelope's message type, spelled as upstream spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterAgentMessageType {
    Message,
    NewTask,
    /// Used by [`InterAgentCompletionMessage`](super::inter_agent_completion_message::InterAgentCompletionMessage).
    FinalAnswer,
}

impl InterAgentMessageType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Message => "MESSAGE",
            Self::NewTask => "NEW_TASK",
            Self::FinalAnswer => "FINAL_ANSWER",
        }
    }
}

/// The envelope text shared with completion messages, with every field capped.
pub(crate) fn render_envelope(
    message_type: InterAgentMessageType,
    task_name: &str,
    sender: &str,
    payload: &str,
    templates: &TemplateSet,
) -> String {
    let path = |text| cap_tokens(text, MAX_AGENT_PATH_TOKENS, Keep::Head, templates);
    templates.render(
        TemplateId::FragmentInterAgentMessage,
        &[
            ("message_type", message_type.as_str()),
            ("task_name", &path(task_name)),
            ("sender", &path(sender)),
            (
                "payload",
                &cap_tokens(payload, MAX_PAYLOAD_TOKENS, Keep::Head, templates),
            ),
        ],
    )
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterAgentMessage {
    body: String,
}

impl InterAgentMessage {
    pub fn new(
        message_type: InterAgentMessageType,
        task_name: &str,
        sender: &str,
        payload: &str,
        templates: &TemplateSet,
    ) -> Self {
        let body = render_envelope(message_type, task_name, sender, payload, templates);
        Self {
            body: cap_rendered_body(&INTER_AGENT_MESSAGE, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(InterAgentMessage, INTER_AGENT_MESSAGE);
