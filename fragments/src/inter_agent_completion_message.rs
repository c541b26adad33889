//! The message a parent agent receives when a child finishes: the inter-agent envelope with
//! message type `FINAL_ANSWER` and the outcome as payload, under the `assistant` role.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::inter_agent_message::ASSISTANT_ROLE;
use super::inter_agent_message::InterAgentMessageType;
use super::inter_agent_message::render_envelope;
use super::size_cap::cap_rendered_body;

pub const INTER_AGENT_COMPLETION_MESSAGE: FragmentSpec = FragmentSpec {
    role: ASSISTANT_ROLE,
    content_kind: "multi_agent.inter_agent_completion_message",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;

/// How the child agent ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentCompletion {
    /// Finished; the final message, when it wrote one.
    FinalAnswer(Option<String>),
    Errored(String),
    ShutDown,
    NotFound,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterAgentCompletionMessage {
    body: String,
}

impl InterAgentCompletionMessage {
    pub fn new(
        task_name: &str,
        sender: &str,
        completion: &AgentCompletion,
        templates: &TemplateSet,
    ) -> Self {
        let payload = match completion {
            AgentCompletion::FinalAnswer(Some(message)) => message.clone(),
            AgentCompletion::FinalAnswer(None) => templates
                .text(TemplateId::FragmentInterAgentCompletedSilently)
                .to_string(),
            AgentCompletion::Errored(error) => {
                templates.render(TemplateId::FragmentInterAgentErrored, &[("error", error)])
            }
            AgentCompletion::ShutDown => templates
                .text(TemplateId::FragmentInterAgentShutDown)
                .to_string(),
            AgentCompletion::NotFound => templates
                .text(TemplateId::FragmentInterAgentNotFound)
                .to_string(),
        };
        let body = render_envelope(
            InterAgentMessageType::FinalAnswer,
            task_name,
            sender,
            &payload,
            templates,
        );
        Self {
            body: cap_rendered_body(&INTER_AGENT_COMPLETION_MESSAGE, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(InterAgentCompletionMessage, INTER_AGENT_COMPLETION_MESSAGE);
