//! Where a turn's model output comes from.

use codex_core::ResponsesRequest;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::TokenUsage;

use super::AssistantReply;
use super::ScriptError;
use super::ScriptedReasoning;
use super::TurnScript;

/// The model's answer to one request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelResponse {
    /// Output items as the model produced them, unstamped.
    pub items: Vec<ResponseItem>,
    /// The tokens the response used; `None` when the server reported none.
    pub usage: Option<TokenUsage>,
    /// The response's id; `None` for a scripted reply.
    pub response_id: Option<String>,
}

/// Supplies the model's output for a turn once its request is built.
///
/// Implementations return the items as the model produced them (assistant messages, tool
/// calls), unstamped: the session stamps and records them, and adds the usage to the thread's
/// running total in a `token_count` event. A scripted responder must be deterministic, since
/// resume equivalence compares whole requests and rollouts; an error ends the run.
pub trait TurnResponder {
    fn respond(
        &mut self,
        turn: &TurnScript,
        request: &ResponsesRequest,
    ) -> Result<ModelResponse, ScriptError>;
}

/// Answers with the script's `reasoning` items (unless its tool calls came first, carrying
/// them) and `assistant` text, or nothing, using no tokens (as upstream's mock server reports).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptedReplies;

impl TurnResponder for ScriptedReplies {
    fn respond(
        &mut self,
        turn: &TurnScript,
        _request: &ResponsesRequest,
    ) -> Result<ModelResponse, ScriptError> {
        let mut items: Vec<ResponseItem> = match turn.events.tool_calls.as_slice() {
            [] => turn
                .reasoning
                .iter()
                .map(ScriptedReasoning::to_response_item)
                .collect(),
            _ => Vec::new(),
        };
        match &turn.assistant {
            AssistantReply::Absent => {}
            AssistantReply::Scripted(text) => items.push(ResponseItem::message(
                "assistant",
                vec![ContentItem::output_text(text.clone())],
            )),
        }
        Ok(ModelResponse {
            items,
            usage: Some(TokenUsage::default()),
            response_id: None,
        })
    }
}
