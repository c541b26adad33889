//! One scripted turn, sampling step by sampling step, with its [`TurnEvents`] recorded where
//! upstream Codex records them (`run_turn` in `codex-rs/core/src/session/turn.rs`, and
//! `record_context_updates_and_set_reference_context_item` in `codex-rs/core/src/session/mod.rs`):
//!
//! 1. a `shell` command runs first as a task of its own (no context updates);
//! 2. the turn starts, its context updates are recorded, then changed `additional_context`
//!    entries, the user's message and the `hook_context` texts (the turn's input), then what the
//!    configured turn-input contributors add;
//! 3. before the first request: the `subagent_status` notification (input that arrived while
//!    the turn was starting) and the current-time reminder;
//! 4. the first response: the scripted `tool_calls`, or the responder's output;
//! 5. while the tools run: `spawn_agent` calls start their sub-agents (those that run
//!    `before_follow_up` play their turns now), the `network_rule` notice and the
//!    `approve_prefix` approval; then the tool outputs, and the response's `token_count`
//!    (scripted responses use no tokens);
//! 6. `interrupt` ends the turn here (`<turn_aborted>` marker, `turn_aborted` event);
//! 7. after tool calls, a second sampling step: reminder when due, the world-state changes
//!    since the first step (an approved prefix, the agents now listed), the second request, the
//!    responder's output and its `token_count`; then the agents that run `after_follow_up`;
//! 8. when agents completed, their `<subagent_notification>`s and a third sampling step
//!    (`notice_reply`), which may fail the turn (see [`spawn`](super::spawn)).

use std::collections::BTreeSet;

use codex_config::Config;
use codex_context_fragments::ContextualUserFragment;
use codex_core::AssemblyError;
use codex_core::PreviousTurnSettings;
use codex_core::TurnAbortReason;
use codex_core::TurnContext;
use codex_core::WorldStateSnapshot;
use codex_core::turn_context_item;
use codex_fragments::additional_context_developer::AdditionalContextDeveloper;
use codex_fragments::additional_context_user::ADDITIONAL_CONTENT_KIND_PREFIX;
use codex_fragments::additional_context_user::AdditionalContextKey;
use codex_fragments::additional_context_user::AdditionalContextUser;
use codex_fragments::current_time_reminder::CurrentTimeReminder;
use codex_fragments::hook_additional_context::HookAdditionalContext;
use codex_fragments::network_rule_saved::NetworkRuleSaved;
use codex_fragments::subagent_notification::SubagentNotification;
use codex_fragments::turn_aborted::TurnAborted;
use codex_fragments::turn_aborted::TurnAbortedAudience;
use codex_fragments::user_shell_command::UserShellCommand;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use codex_protocol::TurnContextItem;
use codex_protocol::rollout::TokenUsage;
use codex_protocol::rollout::TokenUsageInfo;
use codex_release::ThreadSettingsEvents;
use jiff::Timestamp;

use super::AssembledTurn;
use super::PlayedTurn;
use super::RequestSink;
use super::ScriptRequest;
use super::ScriptedSession;
use super::spawn::NoticeOutcome;
use super::spawn::PendingAgent;
use crate::AgentRuns;
use crate::Compaction;
use crate::ScriptError;
use crate::ScriptedReasoning;
use crate::SpawnAgentArgs;
use crate::TurnResponder;
use crate::TurnScript;
use crate::events::AdditionalContextEntry;
use crate::events::ContextTrust;
use crate::events::ScriptedToolCall;
use crate::events::TimeReminder;
use crate::events::TurnEnding;
use crate::events::UserShellCommandRun;
use crate::thread::IdStream;
use crate::thread::seed_stream;

/// World-state sections whose snapshots hold approved command prefixes.
const PERMISSIONS_SECTION: &str = "permissions";
const APPROVED_PREFIXES_SECTION: &str = "approved_command_prefixes";

/// What earlier turns' events leave behind for later ones.
#[derive(Debug, Clone, Default)]
pub(super) struct EventState {
    /// Every prefix approved so far; a resumed thread reads them back from its world state.
    approved_prefixes: BTreeSet<Vec<String>>,
    /// When the current context window last got a time reminder. Kept in memory only, as
    /// upstream does: a resumed thread sends its next reminder at its first request.
    last_time_reminder: Option<Timestamp>,
}

impl EventState {
    /// The state a thread resumed with `baseline` continues from.
    pub(super) fn resumed(baseline: Option<&WorldStateSnapshot>) -> Self {
        let mut approved_prefixes = BTreeSet::new();
        if let Some(baseline) = baseline {
            let recorded = [
                baseline
                    .get(PERMISSIONS_SECTION)
                    .and_then(|section| section.get(APPROVED_PREFIXES_SECTION)),
                baseline.get(APPROVED_PREFIXES_SECTION),
            ];
            for prefixes in recorded.into_iter().flatten() {
                if let Ok(prefixes) = serde_json::from_value::<Vec<Vec<String>>>(prefixes.clone()) {
                    approved_prefixes.extend(prefixes);
                }
            }
        }
        Self {
            approved_prefixes,
            last_time_reminder: None,
        }
    }
}

impl<'env> ScriptedSession<'env> {
    /// Runs one turn under `config` (compaction when it asks, its events, the context updates,
    /// the user's message, the model's output from `responder` or its scripted tool calls, the
    /// turn's end), handing every request it sends (one per sampling step) to `requests` as
    /// soon as it is built.
    pub fn run_turn_steps(
        &mut self,
        config: &Config,
        turn: &TurnScript,
        responder: &mut dyn TurnResponder,
        requests: &mut dyn RequestSink,
    ) -> Result<PlayedTurn, ScriptError> {
        self.play_turn(config, turn, responder, requests)
    }

    /// [`ScriptedSession::run_turn_steps`], returning the turn's first request too.
    pub(super) fn play_turn(
        &mut self,
        config: &Config,
        turn: &TurnScript,
        responder: &mut dyn TurnResponder,
        requests: &mut dyn RequestSink,
    ) -> Result<PlayedTurn, ScriptError> {
        seed_stream(&self.ids, config, IdStream::Turn(self.turns_started))?;
        match &turn.compact {
            None => {}
            Some(Compaction::Rewrite(summary)) => {
                self.session.compact(summary)?;
                // A compacted history starts a new context window.
                self.events.last_time_reminder = None;
            }
            Some(Compaction::Task(summary)) => {
                self.run_compaction_task(config, summary, responder, requests)?;
                self.events.last_time_reminder = None;
            }
        }
        match self.mode {
            super::ContextMode::Diffs => {}
            super::ContextMode::ResendFullContext => self.forget_baseline(),
        }
        // The shell task runs first, so its id is drawn first.
        let shell_task = turn
            .events
            .shell
            .as_ref()
            .map(|run| (self.ids.turn_id().to_string(), run));
        let mut context = match (
            self.turn_context_or_failure(config)?,
            &turn.events.expect_failure,
        ) {
            (AssembledTurn::Ready(context), _) => *context,
            // The turn starts, then fails before anything reaches the model or its history.
            (AssembledTurn::AgentsMdFailed { context, error }, Some(_)) => {
                let message = error.to_string();
                self.session.start_turn(&context)?;
                self.turns_started += 1;
                self.session.fail_turn(&message)?;
                return Ok(PlayedTurn::FailedBeforeRequest(message));
            }
            (AssembledTurn::AgentsMdFailed { error, .. }, None) => {
                return Err(ScriptError::Assembly(AssemblyError::AgentsMd(error)));
            }
        };
        context.approved_command_prefixes = self.events.approved_prefixes.iter().cloned().collect();
        if let Some((task_id, run)) = shell_task {
            self.run_user_shell_command(&context, task_id, run)?;
        }
        let position = self.turns_started;
        if self.settings_announcement == super::SettingsAnnouncement::NextTurn {
            self.settings_announcement = super::SettingsAnnouncement::None;
            for _ in 0..self.settings_announcements(&context) {
                self.session.record_thread_settings_applied(&context)?;
            }
        }
        self.session.start_turn(&context)?;
        self.turns_started += 1;
        self.session
            .record_context_updates_and_set_reference_context_item(&context)?;
        let world_state = self.session.world_state_baseline().cloned();
        if let Some(entries) = &turn.events.additional_context {
            self.record_additional_context(entries)?;
        }
        self.session.record_user_message(&turn.user)?;
        let templates = &self.env.templates;
        let hook_context = turn
            .events
            .hook_context
            .iter()
            .map(|text| HookAdditionalContext::new(text, templates).into_response_item())
            .collect();
        self.session.record_injected_items(hook_context)?;
        // Extensions' turn input follows the user's input, as upstream records it.
        self.session
            .record_injected_items(context.turn_input_contributions(templates))?;
        self.previous_turn = Some(PreviousTurnSettings {
            model: context.model.slug.clone(),
            personality: context.personality,
        });

        if let Some(notice) = &turn.events.subagent_status {
            let fragment = SubagentNotification::new(&notice.agent_path, &notice.status, templates);
            self.session
                .record_injected_items(vec![fragment.into_response_item()])?;
        }
        self.record_time_reminder_if_due(config, turn.events.time_reminder)?;
        let first = self.step_request(position, 0, &context, world_state)?;
        requests.request(&first)?;
        let mut agents = Vec::new();
        let mut notices = Vec::new();
        let (outputs, usage, response_id) = match turn.events.tool_calls.as_slice() {
            [] => {
                let response = responder.respond(turn, &first.body)?;
                self.session.record_model_output(response.items)?;
                (Vec::new(), response.usage, response.response_id)
            }
            calls => {
                let outputs = self.record_tool_calls(config, &context, &turn.reasoning, calls)?;
                agents = outputs.agents;
                context.subagents.clone_from(&self.subagents);
                notices =
                    self.play_agents(&mut agents, AgentRuns::BeforeFollowUp, responder, requests)?;
                (outputs.items, Some(TokenUsage::default()), None)
            }
        };
        if let Some(rule) = &turn.events.network_rule {
            let fragment = NetworkRuleSaved::new(rule.action, &rule.host, &self.env.templates);
            self.session
                .record_injected_items(vec![fragment.into_response_item()])?;
        }
        if let Some(prefix) = &turn.events.approve_prefix {
            self.events.approved_prefixes.insert(prefix.clone());
        }
        self.session.record_injected_items(outputs)?;
        self.record_token_count(&context, usage, response_id.as_deref())?;
        match turn.events.ending {
            TurnEnding::Completed => {}
            TurnEnding::Interrupted => {
                let marker = TurnAborted::new(TurnAbortedAudience::User, &self.env.templates);
                self.session
                    .record_injected_items(vec![marker.into_response_item()])?;
                self.session.abort_turn(TurnAbortReason::Interrupted)?;
                // Agents still to play run on; the parent's turn is over, so nothing it could
                // be told is recorded.
                self.play_agents(&mut agents, AgentRuns::AfterFollowUp, responder, requests)?;
                return Ok(PlayedTurn::Sent(Box::new(first)));
            }
            TurnEnding::Unfinished => {
                if turn.events.tool_calls.is_empty() {
                    return Ok(PlayedTurn::Sent(Box::new(first)));
                }
            }
        }
        if !turn.events.tool_calls.is_empty() {
            context.approved_command_prefixes =
                self.events.approved_prefixes.iter().cloned().collect();
            self.record_time_reminder_if_due(config, TimeReminder::WhenDue)?;
            self.session.record_step_world_state_if_changed(&context)?;
            let world_state = self.session.world_state_baseline().cloned();
            let request = self.step_request(position, 1, &context, world_state)?;
            requests.request(&request)?;
            let response = responder.respond(turn, &request.body)?;
            self.session.record_model_output(response.items)?;
            let response_id = response.response_id.as_deref();
            self.record_token_count(&context, response.usage, response_id)?;
            notices.extend(self.play_agents(
                &mut agents,
                AgentRuns::AfterFollowUp,
                responder,
                requests,
            )?);
        }
        if !notices.is_empty()
            && self.answer_agent_notices(
                config, turn, &context, position, notices, responder, requests,
            )? == NoticeOutcome::TurnFailed
        {
            return Ok(PlayedTurn::Sent(Box::new(first)));
        }
        match turn.events.ending {
            TurnEnding::Unfinished => {}
            TurnEnding::Completed | TurnEnding::Interrupted => self.session.complete_turn()?,
        }
        Ok(PlayedTurn::Sent(Box::new(first)))
    }

    /// How many `thread_settings_applied` events open a resumed step: one, and with newer
    /// releases one more when the step runs with settings other than the recorded ones (the
    /// resume applies them before the turn does).
    fn settings_announcements(&self, context: &TurnContext) -> usize {
        match context.profile().thread_settings_events {
            ThreadSettingsEvents::ResumedStepsOnly => 1,
            ThreadSettingsEvents::EveryFullContextWithThreadId => {
                let mut next = turn_context_item(context);
                let changed = self
                    .session
                    .reference_context_item()
                    .is_some_and(|recorded| {
                        next.turn_id.clone_from(&recorded.turn_id);
                        next.root_turn_id.clone_from(&recorded.root_turn_id);
                        recorded_settings_differ(recorded, &next)
                    });
                1 + usize::from(changed)
            }
        }
    }

    pub(super) fn step_request(
        &self,
        position: usize,
        step: usize,
        context: &TurnContext,
        world_state: Option<WorldStateSnapshot>,
    ) -> Result<ScriptRequest, ScriptError> {
        Ok(ScriptRequest {
            turn: position,
            step,
            agent: self.agent_number,
            body: self.build_request(context)?,
            base_instructions: context.base_instructions.text().to_string(),
            context_window: context.model.context_window,
            world_state,
        })
    }

    /// Adds a response's usage to the thread's total and records the total (`token_count`),
    /// after the response's usage record when the release writes one; a response without usage
    /// records the total unchanged.
    pub(super) fn record_token_count(
        &mut self,
        context: &TurnContext,
        usage: Option<TokenUsage>,
        response_id: Option<&str>,
    ) -> Result<(), ScriptError> {
        if let Some(usage) = usage {
            let info = TokenUsageInfo::after_response(
                self.token_usage.as_ref(),
                usage,
                context.model.usable_context_window(),
            );
            self.session
                .record_response_usage(response_id, usage, info.total_token_usage)?;
            self.token_usage = Some(info);
        }
        Ok(self.session.record_token_count(self.token_usage.as_ref())?)
    }

    /// `!command` while no turn runs: a task of its own that records the command and its
    /// result as a user message, without context updates.
    fn run_user_shell_command(
        &mut self,
        context: &TurnContext,
        task_id: String,
        run: &UserShellCommandRun,
    ) -> Result<(), ScriptError> {
        let mut task = context.clone();
        task.turn_id = task_id;
        self.session.start_turn(&task)?;
        self.turns_started += 1;
        let fragment = UserShellCommand::new(
            &run.command,
            run.exit_code,
            run.duration,
            &run.output,
            &self.env.templates,
        );
        self.session
            .record_injected_items(vec![fragment.into_response_item()])?;
        self.session.complete_turn()?;
        Ok(())
    }

    /// Records each entry whose rendering differs from the newest one history holds for its
    /// key, one message per key in key order.
    fn record_additional_context(
        &mut self,
        entries: &std::collections::BTreeMap<AdditionalContextKey, AdditionalContextEntry>,
    ) -> Result<(), ScriptError> {
        let templates = &self.env.templates;
        let mut changed = Vec::new();
        for (key, entry) in entries {
            let item = match entry.trust {
                ContextTrust::Untrusted => {
                    AdditionalContextUser::new(key.clone(), &entry.value, templates)
                        .into_response_item()
                }
                ContextTrust::Application => {
                    AdditionalContextDeveloper::new(key.clone(), &entry.value, templates)
                        .into_response_item()
                }
            };
            if latest_additional_context(self.session.history().items(), key) != content_of(&item) {
                changed.push(item);
            }
        }
        Ok(self.session.record_injected_items(changed)?)
    }

    /// Reads the clock when a reminder may be due and records one when it is.
    pub(super) fn record_time_reminder_if_due(
        &mut self,
        config: &Config,
        request: TimeReminder,
    ) -> Result<(), ScriptError> {
        let interval = config.current_time_reminder_interval;
        if request == TimeReminder::WhenDue && interval.is_none() {
            return Ok(());
        }
        let now = self.ids.now();
        let due = match (request, self.events.last_time_reminder, interval) {
            (TimeReminder::Requested, _, _) | (TimeReminder::WhenDue, None, _) => true,
            (TimeReminder::WhenDue, Some(last), Some(interval)) => {
                now.as_second().saturating_sub(last.as_second())
                    >= i64::try_from(interval).unwrap_or(i64::MAX)
            }
            (TimeReminder::WhenDue, Some(_), None) => false,
        };
        if !due {
            return Ok(());
        }
        self.events.last_time_reminder = Some(now);
        let reminder = CurrentTimeReminder::new(now, &self.env.templates);
        Ok(self
            .session
            .record_injected_items(vec![reminder.into_response_item()])?)
    }

    /// Records the scripted calls as the model's output and returns their outputs, to be
    /// recorded once the tools have run; a `spawn_agent` call with an `agent` starts it here
    /// (the tools run once the model's output is recorded) and answers with its id.
    fn record_tool_calls(
        &mut self,
        config: &Config,
        context: &TurnContext,
        reasoning: &[ScriptedReasoning],
        calls: &[ScriptedToolCall],
    ) -> Result<ToolOutputs<'env>, ScriptError> {
        let mut items: Vec<ResponseItem> = reasoning
            .iter()
            .map(ScriptedReasoning::to_response_item)
            .collect();
        items.reserve(calls.len());
        let mut call_ids = Vec::with_capacity(calls.len());
        for call in calls {
            let call_id = call
                .call_id
                .clone()
                .unwrap_or_else(|| format!("call_{}", self.ids.uuid_v4().simple()));
            items.push(ResponseItem::FunctionCall {
                encrypted_content: None,
                status: None,
                id: None,
                name: call.name.clone(),
                namespace: call.namespace.clone(),
                arguments: call.arguments.clone(),
                encrypted_function_args: None,
                call_id: call_id.clone(),
                internal_chat_message_metadata_passthrough: None,
            });
            call_ids.push(call_id);
        }
        self.session.record_model_output(items)?;
        let mut outputs = ToolOutputs {
            items: Vec::new(),
            agents: Vec::new(),
        };
        for (call, call_id) in calls.iter().zip(call_ids) {
            let output = match &call.agent {
                Some(agent) => {
                    let args = SpawnAgentArgs::parse(&call.arguments, &call.name)?;
                    let (output, pending) = self.spawn_agent(config, context, &args, agent)?;
                    outputs.agents.push(pending);
                    Some(output)
                }
                None => call.output.clone(),
            };
            if let Some(output) = output {
                outputs.items.push(ResponseItem::FunctionCallOutput {
                    id: None,
                    call_id: Some(call_id),
                    name: None,
                    namespace: None,
                    output: FunctionCallOutputPayload::from_text(output),
                    internal_chat_message_metadata_passthrough: None,
                });
            }
        }
        Ok(outputs)
    }
}

/// The outputs of a response's tool calls, and the sub-agents they started.
struct ToolOutputs<'env> {
    items: Vec<ResponseItem>,
    agents: Vec<PendingAgent<'env>>,
}

/// The content of the newest message in `history` recorded as additional context for `key`.
fn latest_additional_context<'a>(
    history: &'a [ResponseItem],
    key: &AdditionalContextKey,
) -> Option<&'a [ContentItem]> {
    let kind = ContentItemKind::new(format!("{ADDITIONAL_CONTENT_KIND_PREFIX}{}", key.as_str()));
    history.iter().rev().find_map(|item| {
        let kinds = item.content_item_kinds()?;
        if let ResponseItem::Message { content, .. } = item
            && kinds.contains(&kind)
        {
            Some(content.as_slice())
        } else {
            None
        }
    })
}

fn content_of(item: &ResponseItem) -> Option<&[ContentItem]> {
    if let ResponseItem::Message { content, .. } = item {
        Some(content.as_slice())
    } else {
        None
    }
}

/// Whether `next` runs with other settings than `recorded`: the model, the policies, the
/// sandbox, the working directory or the collaboration mode.
fn recorded_settings_differ(recorded: &TurnContextItem, next: &TurnContextItem) -> bool {
    recorded.model != next.model
        || recorded.approval_policy != next.approval_policy
        || recorded.sandbox_policy != next.sandbox_policy
        || recorded.cwd != next.cwd
        || recorded.effort != next.effort
        || recorded.collaboration_mode.as_ref().map(|mode| mode.mode)
            != next.collaboration_mode.as_ref().map(|mode| mode.mode)
}
