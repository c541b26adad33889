//! A thread's session across turns: model-visible history, the reference turn context, the
//! world-state baseline, and the rollout lines that let the thread be resumed.
//!
//! A turn runs as
//! 1. [`Session::start_turn`] (`task_started`),
//! 2. [`Session::record_context_updates_and_set_reference_context_item`] — full context when
//!    there is no reference, otherwise only what changed,
//! 3. [`Session::record_user_message`], then [`Session::build_prompt_input`] for the request,
//! 4. [`Session::record_model_output`] for what the model answered, then
//!    [`Session::record_token_count`] for the thread's usage after that response,
//! 5. [`Session::complete_turn`] (`task_complete`).
//!
//! A settings operation applied between turns is recorded with
//! [`Session::record_thread_settings_applied`].
//!
//! [`Session::compact`] replaces history with the user's messages and a summary;
//! [`Session::rollback`] drops the newest user turns. Lines go to a [`RolloutSink`].

mod context_updates;
mod error;
mod events;
mod injected;
mod line_shapes;
mod meta;
mod permission_profile;
mod reasoning;
mod rewrites;
mod sink;
mod thread_settings;
mod turn_context_item;

use std::sync::Arc;

use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_protocol::SessionMeta;
use codex_protocol::TurnContextItem;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::TokenUsage;
use codex_release::CodexRelease;
use codex_rollout::HistorySequence;
use codex_rollout::ItemOrigin;

pub use context_updates::TurnContextContributor;
pub use error::SessionError;
pub use events::CommandExecution;
pub use injected::TurnAbortReason;
pub use meta::BaselineAuthor;
pub use meta::MetaWriter;
pub use meta::NewThreadMeta;
pub use meta::THREAD_SOURCE_USER;
pub use meta::new_thread_meta;
pub use rewrites::Rollback;
pub use sink::RolloutSink;
pub use sink::RolloutSinkError;
pub use turn_context_item::turn_context_item;

use line_shapes::DEFAULT_TRUNCATION_LIMIT;

use crate::context::world_state::WorldStateSnapshot;
use crate::context_manager::ContextManager;
use crate::context_manager::is_api_item;
use crate::ids::IdGenerator;
use crate::ids::rollout_timestamp_of;
use crate::request::stamp_recorded_item;
use crate::turn_context::TurnContext;
use codex_fragments::user_text_message;

/// What every session starts from.
#[derive(Debug, Clone)]
pub struct SessionInit {
    pub thread_id: String,
    /// The instructions recorded for the thread (`session_meta.base_instructions`).
    pub base_instructions: BaseInstructions,
    pub templates: TemplateSet,
    /// Ids and timestamps of items and rollout lines.
    pub ids: Arc<IdGenerator>,
    /// How the thread's rollout records its turns' messages.
    pub history_mode: HistoryMode,
    /// The release whose rollout line shapes the session writes.
    pub release: CodexRelease,
}

/// How a rollout records a turn's user and agent messages (`session_meta.history_mode`,
/// codex-rs/rollout/src/policy.rs): legacy rollouts write `user_message` and `agent_message`
/// events, paginated ones `item_completed` events with the turn items instead (and number
/// their lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HistoryMode {
    /// Rollouts without a `history_mode`, and those that say `legacy`.
    #[default]
    Legacy,
    Paginated,
}

impl HistoryMode {
    /// The protocol spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HistoryMode::Legacy => "legacy",
            HistoryMode::Paginated => "paginated",
        }
    }

    /// The mode of a rollout whose first `session_meta` is `meta`: paginated only when it
    /// says so.
    pub fn of(meta: Option<&SessionMeta>) -> Self {
        match meta.and_then(|meta| meta.history_mode.as_deref()) {
            Some("paginated") => HistoryMode::Paginated,
            Some(_) | None => HistoryMode::Legacy,
        }
    }
}

/// The state a resumed or forked thread continues from (what rollout reconstruction yields).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResumedSession {
    pub history: Vec<ResponseItem>,
    /// `None` makes the next turn inject full context.
    pub reference_context_item: Option<TurnContextItem>,
    /// The recorded baseline. When another renderer wrote it, its fingerprints of this project's
    /// own text are re-derived from `reference_context_item` on the first turn (see
    /// [`TurnContext::under_recorded_settings`]), so a baseline another renderer wrote
    /// counts as changed only where the settings changed.
    pub world_state_baseline: Option<WorldStateSnapshot>,
    /// The catalog entry of the model `reference_context_item` names, for that re-derivation
    /// when the next turn runs another model; without it the recorded fingerprints of such a
    /// turn are kept as they are.
    pub recorded_model: Option<ModelInfo>,
    /// Who rendered the baseline: only another renderer's fingerprints are re-derived.
    pub baseline_author: BaselineAuthor,
}

/// Reference and baseline as they were before a user turn's context updates, so a rollback of
/// that turn can put them back.
#[derive(Debug, Clone)]
struct TurnCheckpoint {
    reference_context_item: Option<TurnContextItem>,
    /// Shared with the previous checkpoint when equal (most turns change no setting): a long
    /// thread keeps one copy per change, not one per turn.
    world_state_baseline: Option<Arc<WorldStateSnapshot>>,
}

/// What a baseline read from a rollout is re-derived with.
#[derive(Debug, Clone)]
struct RecordedBaseline {
    /// The catalog entry of the recorded model, when known.
    model: Option<ModelInfo>,
}

/// The turn in progress.
#[derive(Debug, Clone)]
struct ActiveTurn {
    turn_id: String,
    started_at: jiff::Timestamp,
    /// When the turn's first model output was recorded.
    first_output_at: Option<jiff::Timestamp>,
    checkpoint: Option<TurnCheckpoint>,
    last_agent_message: Option<String>,
    /// The token usage of the turn's responses so far.
    usage: TokenUsage,
    /// The model's truncation limit, which a tool output's line metadata derives its budget from.
    truncation_limit: i64,
    /// Whether raw reasoning entries get event lines.
    raw_reasoning: crate::turn_context::RawReasoning,
}

/// One thread's model-visible state and its rollout.
pub struct Session<S: RolloutSink> {
    thread_id: String,
    base_instructions: BaseInstructions,
    templates: TemplateSet,
    ids: Arc<IdGenerator>,
    history_mode: HistoryMode,
    release: CodexRelease,
    sink: S,
    history: ContextManager,
    reference_context_item: Option<TurnContextItem>,
    contributors: Vec<Box<dyn TurnContextContributor>>,
    active_turn: Option<ActiveTurn>,
    /// One per real user message recorded since the history was last rewritten wholesale.
    turn_checkpoints: Vec<TurnCheckpoint>,
    /// A baseline read from a rollout, until the first context update re-derives it.
    recorded_baseline: Option<RecordedBaseline>,
    /// When the newest rollout line was written.
    last_line_at: Option<jiff::Timestamp>,
    /// Mid-turn compactions this process ran (a resumed thread counts afresh).
    compactions: u64,
    /// The numbering of response items in line metadata, when the release writes it.
    history_sequence: HistorySequence,
    /// The newest `token_usage_record` payload, which a compaction records.
    last_usage_record: Option<serde_json::Value>,
}

impl<S: RolloutSink> std::fmt::Debug for Session<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("thread_id", &self.thread_id)
            .field("history_len", &self.history.len())
            .field("reference_context_item", &self.reference_context_item)
            .field("active_turn", &self.active_turn)
            .finish_non_exhaustive()
    }
}

impl<S: RolloutSink> Session<S> {
    /// A new thread: empty history, no reference, no baseline.
    pub fn new(init: SessionInit, sink: S) -> Self {
        Self::resume(init, ResumedSession::default(), sink)
    }

    /// A thread continuing from reconstructed state. Nothing is written until the first turn.
    pub fn resume(init: SessionInit, resumed: ResumedSession, sink: S) -> Self {
        let mut history = ContextManager::from_items(resumed.history);
        let recorded_baseline = match resumed.baseline_author {
            BaselineAuthor::Other => {
                resumed
                    .world_state_baseline
                    .is_some()
                    .then_some(RecordedBaseline {
                        model: resumed.recorded_model,
                    })
            }
            BaselineAuthor::ThisProject => None,
        };
        history.set_world_state_baseline(resumed.world_state_baseline);
        Self {
            thread_id: init.thread_id,
            base_instructions: init.base_instructions,
            templates: init.templates,
            ids: init.ids,
            history_mode: init.history_mode,
            release: init.release,
            sink,
            history,
            reference_context_item: resumed.reference_context_item,
            contributors: Vec::new(),
            active_turn: None,
            turn_checkpoints: Vec::new(),
            recorded_baseline,
            last_line_at: None,
            compactions: 0,
            history_sequence: HistorySequence::default(),
            last_usage_record: None,
        }
    }

    /// Adds an extension whose fragments are sent whenever the turn context changes.
    pub fn add_turn_context_contributor(&mut self, contributor: Box<dyn TurnContextContributor>) {
        self.contributors.push(contributor);
    }

    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    pub fn base_instructions(&self) -> &BaseInstructions {
        &self.base_instructions
    }

    pub fn history(&self) -> &ContextManager {
        &self.history
    }

    /// The settings the model's context currently describes; `None` until the first turn and
    /// after compaction.
    pub fn reference_context_item(&self) -> Option<&TurnContextItem> {
        self.reference_context_item.as_ref()
    }

    pub fn world_state_baseline(&self) -> Option<&WorldStateSnapshot> {
        self.history.world_state_baseline()
    }

    pub fn sink(&self) -> &S {
        &self.sink
    }

    pub fn into_sink(self) -> S {
        self.sink
    }

    /// The `input` of the next request: history with every tool call answered and orphan
    /// outputs dropped.
    pub fn build_prompt_input(&self) -> Vec<ResponseItem> {
        self.history.for_prompt()
    }

    /// Writes the thread's `session_meta` line.
    pub fn record_session_meta(&mut self, meta: SessionMeta) -> Result<(), SessionError> {
        self.persist(RolloutItem::SessionMeta(meta.into()))
    }

    /// Opens a turn (`task_started`) and remembers the reference and baseline it starts from.
    pub fn start_turn(&mut self, turn: &TurnContext) -> Result<(), SessionError> {
        let started_at = self.ids.now();
        let mode_kind =
            serde_json::to_value(turn.collaboration_mode.mode).map_err(SessionError::Encode)?;
        self.persist_event(events::task_started(events::TaskStart {
            turn_id: &turn.turn_id,
            record: self.release.profile().task_events,
            started_at: started_at.as_second(),
            model_context_window: turn.model.usable_context_window(),
            collaboration_mode_kind: mode_kind,
        }))?;
        self.active_turn = Some(ActiveTurn {
            turn_id: turn.turn_id.clone(),
            started_at,
            first_output_at: None,
            checkpoint: Some(TurnCheckpoint {
                reference_context_item: self.reference_context_item.clone(),
                world_state_baseline: match (
                    self.turn_checkpoints
                        .last()
                        .and_then(|last| last.world_state_baseline.as_ref()),
                    self.history.world_state_baseline(),
                ) {
                    (Some(last), Some(now)) if **last == *now => Some(Arc::clone(last)),
                    (_, now) => now.cloned().map(Arc::new),
                },
            }),
            last_agent_message: None,
            usage: TokenUsage::default(),
            truncation_limit: turn.model.truncation_policy.limit,
            raw_reasoning: turn.raw_reasoning,
        });
        Ok(())
    }

    fn active_turn_mut(&mut self) -> Result<&mut ActiveTurn, SessionError> {
        self.active_turn.as_mut().ok_or(SessionError::NoActiveTurn)
    }

    /// Records what the user typed (kind `user.text`, so it is never taken for injected
    /// context) and the matching event: `user_message` in a legacy rollout, a completed
    /// `UserMessage` item in a paginated one.
    pub fn record_user_message(&mut self, text: &str) -> Result<(), SessionError> {
        let turn = self.active_turn_mut()?;
        let turn_id = turn.turn_id.clone();
        if let Some(checkpoint) = turn.checkpoint.take() {
            self.turn_checkpoints.push(checkpoint);
        }
        let message = user_text_message(text);
        self.record_items_from(&turn_id, vec![message], ItemOrigin::User)?;
        match self.history_mode {
            HistoryMode::Legacy => self.persist_event(events::user_message(text)),
            HistoryMode::Paginated => {
                let item_id = self.ids.uuid_v7().to_string();
                self.persist_completed_item(&turn_id, |at| {
                    events::user_message_completed(at, &item_id, text)
                })
            }
        }
    }

    /// Records the model's output items of the current turn, with events before each
    /// assistant message (`agent_message` in a legacy rollout, a completed `AgentMessage`
    /// item in a paginated one) and each reasoning item (see `record_reasoning_events`).
    pub fn record_model_output(&mut self, items: Vec<ResponseItem>) -> Result<(), SessionError> {
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        self.history_sequence.sampled();
        for mut item in items {
            if let ResponseItem::Reasoning {
                id,
                summary,
                content,
                ..
            } = &item
            {
                let reasoning =
                    reasoning::ReasoningText::of(id.as_deref(), summary, content.as_deref());
                self.record_reasoning_events(&turn_id, &reasoning)?;
            }
            if let ResponseItem::Message { role, content, .. } = &item
                && role == "assistant"
            {
                let text: String = content.iter().filter_map(ContentItem::text).collect();
                match self.history_mode {
                    HistoryMode::Legacy => self.persist_event(events::agent_message(&text))?,
                    HistoryMode::Paginated => {
                        let item_id = item.id().unwrap_or_default();
                        self.persist_completed_item(&turn_id, |at| {
                            events::agent_message_completed(at, item_id, &text)
                        })?
                    }
                }
                self.active_turn_mut()?.last_agent_message = Some(text);
                self.mark_assistant_content_kinds(&mut item);
            }
            self.record_items_from(&turn_id, vec![item], ItemOrigin::Model)?;
            // The output's arrival is taken from when its first item was written: reading the
            // clock once more would shift every later id of a seeded run.
            let written_at = self.last_line_at;
            let turn = self.active_turn_mut()?;
            turn.first_output_at = turn.first_output_at.or(written_at);
        }
        Ok(())
    }

    /// Records a command the model ran, between its call and its output: a completed
    /// `CommandExecution` item in a paginated rollout, nothing in a legacy one.
    pub fn record_command_execution(
        &mut self,
        execution: &events::CommandExecution,
    ) -> Result<(), SessionError> {
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        match self.history_mode {
            HistoryMode::Legacy => Ok(()),
            HistoryMode::Paginated => self.persist_completed_item(&turn_id, |at| {
                events::command_execution_completed(at, execution)
            }),
        }
    }

    /// Records that a compaction begun at `started_at_ms` (milliseconds since the epoch) is
    /// done: a completed `ContextCompaction` item in a paginated rollout; in a legacy one a
    /// `context_compacted` event after a compaction task, nothing after a mid-turn compaction.
    pub fn record_context_compaction(
        &mut self,
        started_at_ms: i64,
        phase: crate::request::CompactionPhase,
    ) -> Result<(), SessionError> {
        use crate::request::CompactionPhase;
        let turn_id = self.active_turn_mut()?.turn_id.clone();
        match (self.history_mode, phase) {
            (HistoryMode::Legacy, CompactionPhase::MidTurn) => Ok(()),
            (HistoryMode::Legacy, CompactionPhase::StandaloneTask) => {
                self.persist_event(events::context_compacted())
            }
            (HistoryMode::Paginated, _) => {
                let item_id = self.ids.uuid_v7().to_string();
                self.persist_completed_item(&turn_id, |at| {
                    events::context_compaction_completed(at, &item_id, started_at_ms)
                })
            }
        }
    }

    /// Closes the current turn (`task_complete`).
    pub fn complete_turn(&mut self) -> Result<(), SessionError> {
        self.close_turn(None)
    }

    /// Closes the current turn as failed before it sent anything: a `task_complete` whose
    /// `error` carries `message`.
    pub fn fail_turn(&mut self, message: &str) -> Result<(), SessionError> {
        self.close_turn(Some(message))
    }

    fn close_turn(&mut self, error: Option<&str>) -> Result<(), SessionError> {
        let turn = self.active_turn.take().ok_or(SessionError::NoActiveTurn)?;
        let completed_at = self.ids.now();
        let millis_since_start = |instant: jiff::Timestamp| {
            instant
                .as_millisecond()
                .saturating_sub(turn.started_at.as_millisecond())
        };
        self.persist_event(events::task_complete(events::TaskTimes {
            turn_id: &turn.turn_id,
            record: self.release.profile().task_events,
            last_agent_message: turn.last_agent_message.as_deref(),
            started_at: turn.started_at.as_second(),
            completed_at: completed_at.as_second(),
            duration_ms: millis_since_start(completed_at),
            time_to_first_token_ms: turn.first_output_at.map(millis_since_start),
            error,
        }))
    }

    /// Items the harness adds, recorded as [`Session::record_items_from`] records them.
    fn record_conversation_items(
        &mut self,
        turn_id: &str,
        items: Vec<ResponseItem>,
    ) -> Result<(), SessionError> {
        let truncation_limit = self
            .active_turn
            .as_ref()
            .map_or(DEFAULT_TRUNCATION_LIMIT, |turn| turn.truncation_limit);
        self.record_items_from(turn_id, items, ItemOrigin::Harness { truncation_limit })
    }

    /// Stamps (ids, turn id, `create_time`), records and persists items that came from
    /// `origin` (with line metadata when the release writes it); items that do not belong in
    /// history (see [`is_api_item`]) are neither recorded nor persisted.
    fn record_items_from(
        &mut self,
        turn_id: &str,
        items: Vec<ResponseItem>,
        origin: ItemOrigin,
    ) -> Result<(), SessionError> {
        for mut item in items {
            if !is_api_item(&item) {
                tracing::debug!(item_type = item.item_type(), "not recording a non-API item");
                continue;
            }
            stamp_recorded_item(&mut item, &self.ids, turn_id);
            let metadata = self.line_metadata(&item, origin, turn_id);
            let now = self.ids.now();
            let mut line = RolloutLine::new(
                rollout_timestamp_of(now),
                RolloutItem::ResponseItem(item.clone()),
            );
            line.extra = metadata;
            self.persist_line(now, line)?;
            self.history.record_items([item]);
        }
        Ok(())
    }

    fn persist(&mut self, item: RolloutItem) -> Result<(), SessionError> {
        let now = self.ids.now();
        self.persist_at(now, item)
    }

    /// An `item_completed` event of `turn_id`, completed when its line is written.
    fn persist_completed_item(
        &mut self,
        turn_id: &str,
        payload: impl FnOnce(events::CompletedAt<'_>) -> serde_json::Value,
    ) -> Result<(), SessionError> {
        let now = self.ids.now();
        let payload = payload(events::CompletedAt {
            thread_id: &self.thread_id,
            turn_id,
            millis: now.as_millisecond(),
        });
        self.persist_at(
            now,
            RolloutItem::Other {
                line_type: EVENT_MSG_LINE_TYPE.to_string(),
                payload,
            },
        )
    }

    fn persist_at(&mut self, now: jiff::Timestamp, item: RolloutItem) -> Result<(), SessionError> {
        self.persist_line(now, RolloutLine::new(rollout_timestamp_of(now), item))
    }

    fn persist_line(
        &mut self,
        now: jiff::Timestamp,
        line: RolloutLine,
    ) -> Result<(), SessionError> {
        self.sink.append(line).map_err(SessionError::Rollout)?;
        self.last_line_at = Some(now);
        Ok(())
    }

    fn persist_event(&mut self, payload: serde_json::Value) -> Result<(), SessionError> {
        self.persist(RolloutItem::Other {
            line_type: EVENT_MSG_LINE_TYPE.to_string(),
            payload,
        })
    }
}
