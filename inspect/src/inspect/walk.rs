//! Walking a rollout as the sequence of model requests it records.
//!
//! A rollout does not record requests, only what went into history. A request was sent
//! - before each run of model output (assistant message, reasoning, tool call) that follows new
//!   input (the turn's context and user message, tool outputs), one per sampling step;
//! - at the end of a turn whose newest input got no recorded answer (an empty response), except
//!   when that input is only notices a task records as it ends without calling the model: a
//!   user's own shell command (a task of its own) and the notice of an interrupted turn;
//! - for a local compaction: the model output just before a `compacted` line (only events
//!   between them) answered a request of the history before that output plus a compaction
//!   prompt the rollout does not record: a mid-turn compaction's summary follows new input
//!   (tool outputs), a compaction before a turn's first request follows none.
//!
//! History is replayed as a resumed session would see it: items in order, compactions replacing
//! it with their replacement history (or rebuilding it for legacy compactions), rollbacks
//! dropping user turns; each request's input is that history as the model receives it (every
//! tool call answered, orphan outputs dropped).

use std::borrow::Cow;
use std::collections::HashMap;

use codex_context_fragments::FragmentSpec;
use codex_core::ContextManager;
use codex_core::is_api_item;
use codex_fragments::turn_aborted;
use codex_fragments::user_shell_command::USER_SHELL_COMMAND;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::TurnContextItem;
use codex_protocol::rollout::WorldStateItem;
use codex_rollout::LoadedRollout;
use serde_json::Value;

use super::InspectError;
use super::ahead::Ahead;
use super::ahead::WalkLine;
use super::compactions::legacy_compaction_histories;
use super::model::RequestKind;
use super::pairing::Pairing;

pub(super) const TASK_STARTED: &str = "task_started";
pub(super) const TASK_COMPLETE: &str = "task_complete";
pub(super) const TURN_ABORTED: &str = "turn_aborted";
const THREAD_ROLLED_BACK: &str = "thread_rolled_back";

/// Whether a walk reads anything of `item` beyond its being there: every line but the events
/// of other types than the ones above.
pub(super) fn reads_payload(item: &RolloutItem) -> bool {
    match item {
        RolloutItem::Other { .. } => matches!(
            item.event_msg_type(),
            Some(TASK_STARTED | TASK_COMPLETE | TURN_ABORTED | THREAD_ROLLED_BACK)
        ),
        RolloutItem::SessionMeta(_)
        | RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_) => true,
    }
}

/// Messages recorded as a task ends without a model call: no request was sent for them, but the
/// next one carries them.
const TASK_END_NOTICES: [&FragmentSpec; 3] = [
    &USER_SHELL_COMMAND,
    &turn_aborted::TURN_ABORTED,
    &turn_aborted::TURN_ABORTED_DEVELOPER,
];

/// One request found in the rollout.
pub(super) struct StepRequest<'a> {
    pub kind: RequestKind,
    pub turn: usize,
    pub turn_id: Option<&'a str>,
    pub step: usize,
    pub line: usize,
    /// The newest `turn_context` before the request.
    pub turn_context: Option<&'a TurnContextItem>,
    /// The request's input as history holds it (before provider-specific rewriting).
    pub input: &'a [ResponseItem],
    pub previous: PreviousInput<'a>,
    /// The newest history rewrite between the previous request and this one.
    pub rewrite: Option<Rewrite>,
}

/// How a request's input relates to the previous request's.
pub(super) enum PreviousInput<'a> {
    /// The first request.
    None,
    /// The previous input is exactly the first `len` items of this one.
    Extended { len: usize },
    /// The previous input, which this one does not simply extend.
    Replaced(&'a [ResponseItem]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rewrite {
    Compaction,
    Rollback,
}

impl Rewrite {
    pub fn label(self) -> &'static str {
        match self {
            Rewrite::Compaction => "compaction",
            Rewrite::Rollback => "rollback",
        }
    }
}

/// Receives what a walk finds, in rollout order.
///
/// Implementations must not assume a request's input is new: consecutive requests usually share
/// all but their last items, and [`PreviousInput::Extended`] lets them skip the shared part.
pub(super) trait WalkVisitor {
    fn request(&mut self, request: StepRequest<'_>) -> Result<(), InspectError>;
    fn turn_started(&mut self, turn: usize, turn_id: Option<&str>, line: usize);
    /// A `response_item` line that entered history.
    fn item_recorded(&mut self, line: usize, item: &ResponseItem);
    fn world_state(&mut self, line: usize, record: &WorldStateItem);
    /// History was replaced (compaction) or cut (rollback) at `line`.
    fn history_rewritten(&mut self, line: usize, rewrite: Rewrite);
}

/// What a request after the previous one is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// Nothing new since the last request.
    Idle,
    /// New input: the next model output answers a request, and so does the end of the turn.
    NewInput,
    /// History changed without input that needs an answer (it was rewritten, or a task-end
    /// notice was recorded): the next model output answers a request, the end of the turn does
    /// not.
    NextOutputOnly,
}

/// The previous request's input, kept as cheaply as possible.
enum PreviousRequest {
    None,
    /// The first `len` items of history (valid until history is rewritten).
    HistoryPrefix(usize),
    Owned(Vec<ResponseItem>),
}

/// Output the model produces (as opposed to input the harness records before a request).
pub(super) fn is_model_output(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role == "assistant",
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::WebSearchCall { .. } => true,
        ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. } => false,
        ResponseItem::Other(raw) => raw
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|item_type| item_type.ends_with("_call")),
    }
}

/// A message made only of [`TASK_END_NOTICES`].
fn is_task_end_notice(item: &ResponseItem) -> bool {
    let ResponseItem::Message { role, content, .. } = item else {
        return false;
    };
    !content.is_empty()
        && content.iter().all(|part| {
            part.text().is_some_and(|text| {
                TASK_END_NOTICES
                    .iter()
                    .any(|spec| spec.recognises(role, text))
            })
        })
}

struct Walker {
    history: ContextManager,
    pairing: Pairing,
    previous: PreviousRequest,
    pending: Pending,
    turn: usize,
    turn_id: Option<String>,
    step: usize,
    /// History length before model output that answered no request seen in this turn.
    unanswered_output_at: Option<usize>,
    /// History length before task-end notices that followed new input: a request the turn's
    /// end implies did not carry them.
    notices_at: Option<usize>,
    turn_context: Option<TurnContextItem>,
    rewrite: Option<Rewrite>,
}

/// The history each legacy compaction (one without a replacement history) leaves, keyed by the
/// compaction's position among the lines, when it could be rebuilt ahead of the walk.
pub(super) enum LegacyHistories {
    /// Rebuilt from the whole rollout (`legacy_compaction_histories`).
    Rebuilt(HashMap<usize, Vec<ResponseItem>>),
    /// Not available: the walk reads lines as they arrive and stops at a legacy compaction.
    Unavailable,
}

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Walked {
    /// Every line was read.
    Complete,
    /// A legacy compaction was reached without [`LegacyHistories::Rebuilt`]: the rollout must
    /// be walked again from the whole of it, with a fresh visitor.
    NeedsWholeRollout,
}

/// Walks `loaded`, copying the items history keeps.
pub(super) fn walk_borrowed(
    loaded: &LoadedRollout,
    visitor: &mut impl WalkVisitor,
) -> Result<(), InspectError> {
    let legacy = LegacyHistories::Rebuilt(legacy_compaction_histories(loaded));
    let lines = loaded
        .lines
        .iter()
        .map(|line| (line.line_number, Cow::Borrowed(&line.line.item)));
    // Every legacy compaction's history is rebuilt, so the walk reads every line.
    walk(lines, legacy, visitor).map(|_| ())
}

/// Walks `loaded`, moving the items history keeps out of it.
pub(super) fn walk_owned(
    loaded: LoadedRollout,
    visitor: &mut impl WalkVisitor,
) -> Result<(), InspectError> {
    let legacy = LegacyHistories::Rebuilt(legacy_compaction_histories(&loaded));
    let lines = loaded
        .lines
        .into_iter()
        .map(|line| (line.line_number, Cow::Owned(line.line.item)));
    walk(lines, legacy, visitor).map(|_| ())
}

/// Reports every request, turn start, recorded item, world-state record and history rewrite of
/// `lines` (line number and item, in file order), reading ahead only as far as telling a
/// compaction's summary request from a turn's needs.
pub(super) fn walk<'a>(
    lines: impl Iterator<Item = WalkLine<'a>>,
    mut legacy: LegacyHistories,
    visitor: &mut impl WalkVisitor,
) -> Result<Walked, InspectError> {
    let mut walker = Walker {
        history: ContextManager::new(),
        pairing: Pairing::default(),
        previous: PreviousRequest::None,
        pending: Pending::Idle,
        turn: 0,
        turn_id: None,
        step: 0,
        unanswered_output_at: None,
        notices_at: None,
        turn_context: None,
        rewrite: None,
    };
    let mut lines = Ahead::new(lines);
    let mut index = 0;
    while let Some((line, item)) = lines.next() {
        // The line's position among the lines (legacy histories are keyed by it).
        let position = index;
        index += 1;
        match &*item {
            RolloutItem::ResponseItem(recorded) => {
                if !is_api_item(recorded) {
                    continue;
                }
                if is_task_end_notice(recorded) {
                    match walker.pending {
                        Pending::NewInput => {
                            walker.notices_at.get_or_insert(walker.history.len());
                        }
                        Pending::Idle | Pending::NextOutputOnly => {
                            walker.pending = Pending::NextOutputOnly;
                        }
                    }
                } else if !is_model_output(recorded) {
                    walker.pending = Pending::NewInput;
                    walker.notices_at = None;
                } else if walker.pending == Pending::Idle {
                    if walker.step == 0 && walker.unanswered_output_at.is_none() {
                        walker.unanswered_output_at = Some(walker.history.len());
                    }
                } else {
                    let kind = match lines.compaction_follows() {
                        true => RequestKind::Compaction,
                        false => RequestKind::Turn,
                    };
                    walker.emit(kind, line, None, visitor)?;
                    walker.pending = Pending::Idle;
                    walker.notices_at = None;
                }
                visitor.item_recorded(line, recorded);
                walker.pairing.record(recorded);
                if let RolloutItem::ResponseItem(recorded) = item.into_owned() {
                    walker.history.record_items([recorded]);
                }
            }
            RolloutItem::Compacted(compacted) => {
                if let Some(end) = walker.unanswered_output_at.take() {
                    walker.emit(RequestKind::Compaction, line, Some(end), visitor)?;
                }
                let replacement = match compacted.replacement_history.is_some() {
                    true => match item.into_owned() {
                        RolloutItem::Compacted(compacted) => {
                            compacted.replacement_history.unwrap_or_default()
                        }
                        RolloutItem::SessionMeta(_)
                        | RolloutItem::ResponseItem(_)
                        | RolloutItem::TurnContext(_)
                        | RolloutItem::WorldState(_)
                        | RolloutItem::Other { .. } => Vec::new(),
                    },
                    false => match &mut legacy {
                        LegacyHistories::Rebuilt(histories) => {
                            histories.remove(&position).unwrap_or_default()
                        }
                        LegacyHistories::Unavailable => return Ok(Walked::NeedsWholeRollout),
                    },
                };
                // The replaced history is the previous request's input: moved, not copied.
                let mut replaced = walker.history.swap(replacement);
                if let PreviousRequest::HistoryPrefix(len) = walker.previous {
                    replaced.truncate(len);
                    walker.previous = PreviousRequest::Owned(replaced);
                }
                walker.rewritten(Rewrite::Compaction);
                visitor.history_rewritten(line, Rewrite::Compaction);
            }
            RolloutItem::TurnContext(_) => {
                if let RolloutItem::TurnContext(context) = item.into_owned() {
                    walker.turn_context = Some(*context);
                }
            }
            RolloutItem::WorldState(record) => visitor.world_state(line, record),
            RolloutItem::SessionMeta(_) => {}
            RolloutItem::Other { payload, .. } => {
                let turn_id = payload.get("turn_id").and_then(Value::as_str);
                match item.event_msg_type() {
                    Some(TASK_STARTED) => {
                        walker.turn += 1;
                        walker.turn_id = turn_id.map(str::to_string);
                        walker.step = 0;
                        walker.unanswered_output_at = None;
                        visitor.turn_started(walker.turn, turn_id, line);
                    }
                    Some(TASK_COMPLETE | TURN_ABORTED) => {
                        if walker.pending == Pending::NewInput {
                            let end = walker.notices_at;
                            walker.emit(RequestKind::Turn, line, end, visitor)?;
                        }
                        walker.pending = Pending::Idle;
                        walker.notices_at = None;
                        walker.unanswered_output_at = None;
                    }
                    Some(THREAD_ROLLED_BACK) => {
                        let turns = payload
                            .get("num_turns")
                            .and_then(Value::as_u64)
                            .map_or(0, |turns| usize::try_from(turns).unwrap_or(usize::MAX));
                        walker.keep_previous_input();
                        walker.history.drop_last_n_user_turns(turns);
                        walker.rewritten(Rewrite::Rollback);
                        visitor.history_rewritten(line, Rewrite::Rollback);
                    }
                    Some(_) | None => {}
                }
            }
        }
    }
    Ok(Walked::Complete)
}

impl Walker {
    /// Reports a request whose input is history (its first `end` items when given).
    fn emit(
        &mut self,
        kind: RequestKind,
        line: usize,
        end: Option<usize>,
        visitor: &mut impl WalkVisitor,
    ) -> Result<(), InspectError> {
        self.step += 1;
        let items = self.history.items();
        let raw = &items[..end.unwrap_or(items.len()).min(items.len())];
        let normalized = match (self.pairing.is_clean(), end) {
            (true, _) => None,
            (false, None) => Some(self.history.for_prompt()),
            (false, Some(_)) => Some(ContextManager::from_items(raw.to_vec()).for_prompt()),
        };
        let input = normalized.as_deref().unwrap_or(raw);
        let previous = match (&self.previous, &normalized) {
            (PreviousRequest::None, _) => PreviousInput::None,
            (PreviousRequest::HistoryPrefix(len), None) if *len <= input.len() => {
                PreviousInput::Extended { len: *len }
            }
            (PreviousRequest::HistoryPrefix(len), _) => {
                PreviousInput::Replaced(&items[..(*len).min(items.len())])
            }
            (PreviousRequest::Owned(previous), _) => PreviousInput::Replaced(previous),
        };
        visitor.request(StepRequest {
            kind,
            turn: self.turn,
            turn_id: self.turn_id.as_deref(),
            step: self.step,
            line,
            turn_context: self.turn_context.as_ref(),
            input,
            previous,
            rewrite: self.rewrite,
        })?;
        self.previous = match normalized {
            None => PreviousRequest::HistoryPrefix(input.len()),
            Some(items) => PreviousRequest::Owned(items),
        };
        self.rewrite = None;
        Ok(())
    }

    /// Copies the previous request's input out of history before history is rewritten.
    fn keep_previous_input(&mut self) {
        if let PreviousRequest::HistoryPrefix(len) = self.previous {
            let items = self.history.items();
            self.previous = PreviousRequest::Owned(items[..len.min(items.len())].to_vec());
        }
    }

    fn rewritten(&mut self, rewrite: Rewrite) {
        self.pairing = Pairing::of(self.history.items());
        // Positions in the old history mean nothing in the new one.
        self.notices_at = None;
        self.rewrite = Some(rewrite);
        if self.pending == Pending::Idle {
            self.pending = Pending::NextOutputOnly;
        }
    }
}
