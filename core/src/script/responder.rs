//! Where a turn's model output comes from.

use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;

use super::AssistantReply;
use super::ScriptError;
use super::TurnScript;
use crate::request::ResponsesRequest;

/// Supplies the model's output for a turn once its request is built.
///
/// Implementations return the items as the model produced them (assistant messages, tool
/// calls), unstamped: the session stamps and records them. A scripted responder must be
/// deterministic, since resume equivalence compares whole requests; an error ends the run.
pub trait TurnResponder {
    fn respond(
        &mut self,
        turn: &TurnScript,
        request: &ResponsesRequest,
    ) -> Result<Vec<ResponseItem>, ScriptError>;
}

/// Answers with the script's `assistant` text, or nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptedReplies;

impl TurnResponder for ScriptedReplies {
    fn respond(
        &mut self,
        turn: &TurnScript,
        _request: &ResponsesRequest,
    ) -> Result<Vec<ResponseItem>, ScriptError> {
        Ok(match &turn.assistant {
            AssistantReply::Absent => Vec::new(),
            AssistantReply::Scripted(text) => vec![ResponseItem::message(
                "assistant",
                vec![ContentItem::output_text(text.clone())],
            )],
        })
    }
}
