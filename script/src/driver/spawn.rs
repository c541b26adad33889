//! `spawn_agent`: a sub-agent's thread started by a scripted call, as upstream's multi-agent
//! v1 starts one (`spawn_agent_internal` in `codex-rs/core/src/agent/control/spawn.rs`): a
//! thread of its own with its own rollout, the parent's settings and base instructions (its
//! creation-time AGENTS.md too), and either a fresh history or, with `fork_context`, the
//! parent's history so far without what only the parent's model produced (assistant text that
//! is no final answer, reasoning, tool calls and their outputs).

use std::sync::Arc;

use codex_config::Config;
use codex_context_fragments::ContextualUserFragment;
use codex_core::RunningSubagent;
use codex_core::SpawnedBy;
use codex_core::THREAD_SOURCE_SUBAGENT;
use codex_core::TurnContext;
use codex_core::WorldStateSnapshot;
use codex_fragments::classify;
use codex_fragments::subagent_notification::AgentStatus;
use codex_fragments::subagent_notification::SubagentNotification;
use codex_protocol::MessagePhase;
use codex_protocol::ResponseItem;
use codex_protocol::SessionMeta;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_rollout::ForkPoint;
use codex_rollout::LoadedRollout;
use serde_json::json;

use super::RequestSink;
use super::ScriptedSession;
use super::read_thread;
use crate::AgentEnd;
use crate::AgentRuns;
use crate::AssistantReply;
use crate::NoticeReply;
use crate::ScriptError;
use crate::ScriptSink;
use crate::ScriptedAgent;
use crate::SpawnAgentArgs;
use crate::TimeReminder;
use crate::TurnEnding;
use crate::TurnResponder;
use crate::TurnScript;
use crate::thread::identity_stream;

/// `multi_agent_version` of a sub-agent's `session_meta`.
const MULTI_AGENT_V1: &str = "v1";

/// Who spawns a sub-agent, and the name it goes by.
#[derive(Debug, Clone)]
pub(super) struct AgentSpawn {
    pub spawned_by: SpawnedBy,
    pub nickname: Option<String>,
    /// Which of the parent's sub-agents it is (1-based), as its requests say.
    pub number: usize,
    /// The AGENTS.md the parent's spawning turn held, which the child keeps.
    pub agents_md: Option<codex_config::AgentsMdDiscovery>,
}

impl AgentSpawn {
    /// Makes `meta` a sub-agent's: the parent's session and thread, the spawn source.
    pub(super) fn describe(&self, meta: &mut SessionMeta) {
        let spawned = &self.spawned_by;
        meta.session_id = Some(spawned.session_id.clone());
        meta.parent_thread_id = Some(spawned.parent_thread_id.clone());
        meta.source = Some(json!({"subagent": {"thread_spawn": {
            "parent_thread_id": spawned.parent_thread_id,
            "depth": spawned.depth,
            "agent_path": null,
            "agent_nickname": self.nickname,
            "agent_role": null,
        }}}));
        meta.thread_source = Some(THREAD_SOURCE_SUBAGENT.to_string());
        meta.agent_nickname.clone_from(&self.nickname);
        meta.multi_agent_version = Some(MULTI_AGENT_V1.to_string());
    }
}

/// A sub-agent spawned during a turn whose own turn has yet to play.
pub(super) struct PendingAgent<'env> {
    session: ScriptedSession<'env>,
    config: Config,
    turn: TurnScript,
    agent: ScriptedAgent,
    thread_id: String,
    /// Its place among the parent's sub-agents, which orders the rollouts.
    index: usize,
}

/// What the parent's turn is told once a sub-agent's turn completed.
pub(super) struct AgentNotice {
    pub item: ResponseItem,
    pub reply: NoticeReply,
}

impl<'env> ScriptedSession<'env> {
    /// Starts the sub-agent a `spawn_agent` call asks for under the parent turn `context`
    /// (configured by `config`) and returns the call's output text (`{"agent_id", "nickname"}`)
    /// and the agent, whose turn plays later.
    pub(super) fn spawn_agent(
        &mut self,
        config: &Config,
        context: &TurnContext,
        args: &SpawnAgentArgs,
        agent: &ScriptedAgent,
    ) -> Result<(String, PendingAgent<'env>), ScriptError> {
        let index = self.subagents.len();
        let mut child_config = config.clone();
        // A stream of its own, so the child draws no id the parent draws.
        child_config.seed = config.seed.map(|seed| agent_seed(seed, index));
        // Upstream hands the child the parent turn's effort as its setting.
        child_config.model_reasoning_effort = context
            .reasoning_effort
            .clone()
            .or_else(|| context.model.default_reasoning_level.clone());
        let spawn = AgentSpawn {
            spawned_by: SpawnedBy {
                parent_thread_id: self.identity.thread_id.clone(),
                parent_turn_id: context.turn_id.clone(),
                root_turn_id: self
                    .spawned_by
                    .as_ref()
                    .map_or(&context.turn_id, |spawned| &spawned.root_turn_id)
                    .clone(),
                session_id: self
                    .spawned_by
                    .as_ref()
                    .map_or(&self.identity.thread_id, |spawned| &spawned.session_id)
                    .clone(),
                depth: self
                    .spawned_by
                    .as_ref()
                    .map_or(0, |spawned| spawned.depth)
                    .saturating_add(1),
            },
            nickname: agent.nickname.clone(),
            number: index + 1,
            agents_md: context.agents_md.clone(),
        };
        let ids = identity_stream(&child_config)?;
        let session = match args.fork_context {
            false => {
                let drawn = ids.draw_turn_ids();
                Self::open(
                    self.env,
                    ids,
                    drawn.identity,
                    self.base_instructions.clone(),
                    &child_config,
                    ScriptSink::memory(),
                    self.mode,
                    Some(&spawn),
                )?
            }
            true => {
                let mut parent = read_thread(&self.earlier_lines, self.session.sink_mut())?;
                fork_for_agent(&mut parent);
                let mut child = Self::fork_with_ids(
                    self.env,
                    Arc::clone(&ids),
                    parent,
                    ForkPoint::FullHistory,
                    &child_config,
                    ScriptSink::memory(),
                    self.mode,
                    Some(&spawn),
                )?;
                child.apply_settings(&child_config)?;
                child
            }
        };
        let thread_id = session.identity.thread_id.clone();
        self.subagents.push(RunningSubagent {
            thread_id: thread_id.clone(),
            nickname: agent.nickname.clone(),
        });
        let mut turn = TurnScript::user(args.message.clone());
        if let Some(reply) = &agent.assistant {
            turn.assistant = AssistantReply::Scripted(reply.clone());
        }
        turn.events.ending = match agent.ends {
            AgentEnd::Completed => TurnEnding::Completed,
            AgentEnd::Unfinished => TurnEnding::Unfinished,
        };
        let output = json!({"agent_id": thread_id, "nickname": agent.nickname}).to_string();
        Ok((
            output,
            PendingAgent {
                session,
                config: child_config,
                turn,
                agent: agent.clone(),
                thread_id,
                index,
            },
        ))
    }

    /// Plays the turns of the `agents` that run at `when` (removing them), keeps their
    /// rollouts and returns the notices their completion sends this thread.
    pub(super) fn play_agents(
        &mut self,
        agents: &mut Vec<PendingAgent<'env>>,
        when: AgentRuns,
        responder: &mut dyn TurnResponder,
        requests: &mut dyn RequestSink,
    ) -> Result<Vec<AgentNotice>, ScriptError> {
        let mut notices = Vec::new();
        let (now, later): (Vec<_>, Vec<_>) = std::mem::take(agents)
            .into_iter()
            .partition(|pending| pending.agent.runs == when);
        *agents = later;
        for mut pending in now {
            pending
                .session
                .play_turn(&pending.config, &pending.turn, responder, requests)?;
            let lines = pending.session.into_sink().finish()?;
            self.keep_agent_rollout(pending.index, lines);
            match pending.agent.ends {
                AgentEnd::Unfinished => {}
                AgentEnd::Completed => {
                    let status = AgentStatus::Completed(pending.agent.assistant.clone());
                    let fragment =
                        SubagentNotification::new(&pending.thread_id, &status, &self.env.templates);
                    notices.push(AgentNotice {
                        item: fragment.into_response_item(),
                        reply: pending.agent.notice_reply.clone(),
                    });
                }
            }
        }
        Ok(notices)
    }

    /// Records the notices completed sub-agents sent and samples once more: the model's
    /// answer is the notices' `notice_reply` (the last one that gives any), else the
    /// responder's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn answer_agent_notices(
        &mut self,
        config: &Config,
        turn: &TurnScript,
        context: &TurnContext,
        position: usize,
        notices: Vec<AgentNotice>,
        responder: &mut dyn TurnResponder,
        requests: &mut dyn RequestSink,
    ) -> Result<NoticeOutcome, ScriptError> {
        let mut reply = NoticeReply::Responder;
        let mut items = Vec::with_capacity(notices.len());
        for notice in notices {
            if notice.reply != NoticeReply::Responder {
                reply = notice.reply;
            }
            items.push(notice.item);
        }
        self.session.record_injected_items(items)?;
        self.record_time_reminder_if_due(config, TimeReminder::WhenDue)?;
        self.session.record_step_world_state_if_changed(context)?;
        let world_state = self.session.world_state_baseline().cloned();
        let request = self.step_request(position, 2, context, world_state)?;
        requests.request(&request)?;
        let assistant = match reply {
            NoticeReply::Responder => AssistantReply::Absent,
            NoticeReply::Assistant(text) => AssistantReply::Scripted(text),
            NoticeReply::Error { message, attempts } => {
                // The first attempt went above.
                for _ in 1..attempts {
                    requests.request(&request)?;
                }
                self.session.fail_turn(&message)?;
                return Ok(NoticeOutcome::TurnFailed);
            }
        };
        let mut answered = turn.clone();
        answered.reasoning = Vec::new();
        answered.assistant = assistant;
        let response = responder.respond(&answered, &request.body)?;
        self.session.record_model_output(response.items)?;
        let response_id = response.response_id.as_deref();
        self.record_token_count(context, response.usage, response_id)?;
        Ok(NoticeOutcome::TurnGoesOn)
    }

    fn keep_agent_rollout(&mut self, index: usize, lines: Vec<RolloutLine>) {
        self.agent_rollouts.push((index, lines));
    }

    /// The rollouts of the sub-agents this thread spawned since the last call, in spawn order
    /// (taken out).
    pub fn take_agent_rollouts(&mut self) -> Vec<Vec<RolloutLine>> {
        let mut rollouts = std::mem::take(&mut self.agent_rollouts);
        rollouts.sort_by_key(|(index, _)| *index);
        rollouts.into_iter().map(|(_, lines)| lines).collect()
    }
}

/// Whether the parent's turn survived the request the agents' notices brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoticeOutcome {
    TurnGoesOn,
    TurnFailed,
}

/// The sub-agents a recorded world state lists (`environments.subagents`, one `- ID: NICKNAME`
/// or `- ID` a line), in order.
pub(super) fn recorded_subagents(baseline: Option<&WorldStateSnapshot>) -> Vec<RunningSubagent> {
    let listed = baseline
        .and_then(|baseline| baseline.get(ENVIRONMENTS_SECTION))
        .and_then(|environments| environments.get("subagents"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    listed
        .lines()
        .filter_map(|line| line.strip_prefix("- "))
        .map(|entry| match entry.split_once(": ") {
            Some((thread_id, nickname)) => RunningSubagent {
                thread_id: thread_id.to_string(),
                nickname: Some(nickname.to_string()),
            },
            None => RunningSubagent {
                thread_id: entry.to_string(),
                nickname: None,
            },
        })
        .collect()
}

/// The world-state section that lists a thread's sub-agents.
const ENVIRONMENTS_SECTION: &str = "environments";

/// The seed of the `index`-th sub-agent's id streams.
fn agent_seed(seed: u64, index: usize) -> u64 {
    let number = u64::try_from(index).unwrap_or(u64::MAX).wrapping_add(1);
    seed ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17)
}

/// The parent's lines as a full-history fork hands them to a sub-agent (upstream's
/// `spawn_forked_thread`): what only the parent's model made of them goes, and so do the
/// parent's own multi-agent instructions and time reminders; after a compaction that kept no
/// replacement history the child rebuilds its context, so the recorded settings go too.
fn fork_for_agent(parent: &mut LoadedRollout) {
    let rebuilds_context = parent
        .lines
        .iter()
        .rev()
        .find_map(|loaded| match &loaded.line.item {
            RolloutItem::Compacted(compacted) => Some(compacted.replacement_history.is_none()),
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Other { .. } => None,
        })
        == Some(true);
    parent
        .lines
        .retain_mut(|loaded| match &mut loaded.line.item {
            RolloutItem::ResponseItem(item) => kept_in_fork(item),
            RolloutItem::Compacted(compacted) => {
                if let Some(history) = compacted.replacement_history.as_mut() {
                    history.retain_mut(kept_in_fork);
                }
                true
            }
            RolloutItem::TurnContext(_) | RolloutItem::WorldState(_) => !rebuilds_context,
            RolloutItem::SessionMeta(_) | RolloutItem::Other { .. } => true,
        });
}

/// Whether a parent's item goes into a sub-agent's fork (upstream's `keep_forked_rollout_item`
/// and `retain_forked_developer_message`); a developer message keeps only its other entries.
fn kept_in_fork(item: &mut ResponseItem) -> bool {
    match item {
        ResponseItem::Message {
            role,
            phase,
            content,
            ..
        } => match role.as_str() {
            "developer" => {
                content.retain(|entry| {
                    entry.text().is_none_or(|text| {
                        classify("developer", text, None)
                            .is_none_or(|info| !PARENT_ONLY_FRAGMENTS.contains(&info.name))
                    })
                });
                !content.is_empty()
            }
            "system" | "user" => true,
            "assistant" => *phase == Some(MessagePhase::FinalAnswer),
            _ => false,
        },
        ResponseItem::FunctionCallOutput { call_id, .. } => call_id.is_none(),
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => false,
    }
}

/// Developer fragments that speak to the parent only: its multi-agent role and mode, and its
/// current-time reminders.
const PARENT_ONLY_FRAGMENTS: [&str; 3] = [
    "multi_agent_role",
    "multi_agent_mode",
    "current_time_reminder",
];
