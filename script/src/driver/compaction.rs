//! `"compact": {"summary": …}`: a compaction task of its own before a turn, as upstream's
//! manual compaction (`/compact`, `run_compact_task` in `codex-rs/core/src/compact.rs`) runs it:
//! the task starts, the summarization prompt goes out as a `/responses` request, the reply is
//! recorded as the summary, and the history is replaced with the user's messages and the
//! summary (`compacted`, `context_compacted`, the `token_count` lines around them).

use codex_config::Config;
use codex_context_fragments::ContextualUserFragment;
use codex_core::CompactionPhase;
use codex_core::ContentItemKindsPolicy;
use codex_core::build_compaction_request;
use codex_fragments::compaction_prompt::CompactionPrompt;
use codex_protocol::rollout::TokenUsageInfo;

use super::RequestSink;
use super::ScriptRequest;
use super::ScriptedSession;
use crate::AssistantReply;
use crate::ScriptError;
use crate::TurnResponder;
use crate::TurnScript;

impl ScriptedSession<'_> {
    /// Runs the compaction task: `summary` is the scripted reply to its request (a live
    /// responder answers with the model's own summary).
    pub(super) fn run_compaction_task(
        &mut self,
        config: &Config,
        summary: &str,
        responder: &mut dyn TurnResponder,
        requests: &mut dyn RequestSink,
    ) -> Result<(), ScriptError> {
        let context = self.turn_context(config)?;
        let position = self.turns_started;
        self.session.start_turn(&context)?;
        self.turns_started += 1;
        let started_at_ms = self.ids.now().as_millisecond();
        let mut input = self.session.build_prompt_input();
        input.push(CompactionPrompt::new(&self.env.templates).into_response_item());
        let body = build_compaction_request(
            &context,
            input,
            &self.ids,
            ContentItemKindsPolicy::Strip,
            CompactionPhase::StandaloneTask,
        )?;
        let request = ScriptRequest {
            turn: position,
            step: 0,
            agent: self.agent_number,
            body,
            base_instructions: context.base_instructions.text().to_string(),
            context_window: context.model.context_window,
            world_state: self.session.world_state_baseline().cloned(),
        };
        requests.request(&request)?;
        let mut task = TurnScript::user(String::new());
        task.assistant = AssistantReply::Scripted(summary.to_string());
        let response = responder.respond(&task, &request.body)?;
        // The running count is recorded again as the reply starts arriving.
        self.session.record_token_count(self.token_usage.as_ref())?;
        let written = codex_core::last_assistant_text(&response.items);
        self.session.record_compaction_reply(response.items)?;
        if let Some(usage) = response.usage {
            let info = TokenUsageInfo::after_response(
                self.token_usage.as_ref(),
                usage,
                context.model.usable_context_window(),
            );
            self.session.record_response_usage(
                response.response_id.as_deref(),
                usage,
                info.total_token_usage,
            )?;
            self.token_usage = Some(info);
        }
        self.session.record_token_count(self.token_usage.as_ref())?;
        let usage = self.session.compact_task(
            &written,
            &context,
            self.token_usage.as_ref(),
            started_at_ms,
        )?;
        self.token_usage = Some(usage);
        self.session.complete_turn()?;
        Ok(())
    }
}
