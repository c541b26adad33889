//! The newest-to-oldest scan over turn segments that decides what survives rollbacks, which
//! compaction is the history base and which turn context is the reference.
//!
//! A segment is opened (scanning backwards) by the first line that belongs to a turn and closed by
//! the `task_started` whose turn id is compatible with it. Only segments holding a real user
//! message count as user turns; `thread_rolled_back` skips the next N of those (and every
//! segment met while skipping).

use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutItem;
use serde_json::Value;

use super::LoadedLine;
use super::event_types;
use codex_fragments::is_user_turn_boundary;

/// What the scan (and the world-state bookkeeping) needs of one line: a few bytes instead of the
/// line, so it can be kept for every line of a long rollout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LineFacts {
    Compacted {
        replacement: bool,
    },
    TurnContext {
        turn_id: Option<Box<str>>,
    },
    Response {
        user_turn: bool,
    },
    WorldState {
        full: bool,
        line_number: usize,
    },
    Event {
        event: EventFact,
        turn_id: Option<Box<str>>,
    },
    /// Session metadata and lines of other types.
    Quiet,
}

/// The `event_msg` types the scan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EventFact {
    TurnStarted,
    TurnComplete,
    TurnAborted,
    UserMessage,
    RolledBack(usize),
    Other,
}

impl LineFacts {
    pub(super) fn of(loaded: &LoadedLine) -> Self {
        let item = &loaded.line.item;
        match item {
            RolloutItem::Compacted(compacted) => Self::Compacted {
                replacement: compacted.replacement_history.is_some(),
            },
            RolloutItem::TurnContext(context) => Self::TurnContext {
                turn_id: context.turn_id.as_deref().map(Box::from),
            },
            RolloutItem::ResponseItem(item) => Self::Response {
                user_turn: is_user_turn_boundary(item),
            },
            RolloutItem::WorldState(state) => Self::WorldState {
                full: state.full,
                line_number: loaded.line_number,
            },
            RolloutItem::Other { line_type, payload } if line_type == EVENT_MSG_LINE_TYPE => {
                let event = EventFact::of(
                    payload.get("type").and_then(Value::as_str),
                    rolled_back_turns(item).unwrap_or(0),
                );
                Self::Event {
                    event,
                    turn_id: payload
                        .get("turn_id")
                        .and_then(Value::as_str)
                        .map(Box::from),
                }
            }
            RolloutItem::SessionMeta(_) | RolloutItem::Other { .. } => Self::Quiet,
        }
    }
}

impl EventFact {
    /// The fact of an event of type `event_type`; `rolled_back_turns` is what a rollback drops.
    pub(super) fn of(event_type: Option<&str>, rolled_back_turns: usize) -> Self {
        match event_type {
            Some(event_types::TURN_STARTED) => Self::TurnStarted,
            Some(event_types::TURN_COMPLETE) => Self::TurnComplete,
            Some(event_types::TURN_ABORTED) => Self::TurnAborted,
            Some(event_types::USER_MESSAGE) => Self::UserMessage,
            Some(event_types::THREAD_ROLLED_BACK) => Self::RolledBack(rolled_back_turns),
            Some(_) | None => Self::Other,
        }
    }
}

/// What the reverse scan found, as indices into the loaded lines.
#[derive(Debug, Default)]
pub(super) struct SegmentScan {
    /// Per line: whether it sits in a segment that a rollback dropped.
    pub dropped: Vec<bool>,
    /// The newest surviving compaction that carries a replacement history.
    pub base_compaction: Option<usize>,
    /// The `turn_context` of the newest surviving user turn, unless a newer surviving compaction
    /// cleared the baseline.
    pub reference_context: Option<usize>,
    /// The `turn_context` the newest surviving user turn ran with (its previous turn settings).
    pub previous_turn_context: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SegmentReference {
    /// No turn context seen in this segment yet.
    NeverSet,
    /// A compaction newer than any turn context of the segment invalidated the baseline.
    Cleared,
    Latest(usize),
}

#[derive(Debug)]
struct Segment<'a> {
    turn_id: Option<&'a str>,
    newest_line: usize,
    counts_as_user_turn: bool,
    turn_context: Option<usize>,
    reference: SegmentReference,
    base_compaction: Option<usize>,
}

impl<'a> Segment<'a> {
    fn opened_at(newest_line: usize) -> Self {
        Self {
            turn_id: None,
            newest_line,
            counts_as_user_turn: false,
            turn_context: None,
            reference: SegmentReference::NeverSet,
            base_compaction: None,
        }
    }

    /// An unknown id on either side is compatible with anything.
    fn accepts_turn(&self, turn_id: Option<&str>) -> bool {
        match (self.turn_id, turn_id) {
            (Some(own), Some(other)) => own == other,
            (None, _) | (_, None) => true,
        }
    }
}

struct ScanState {
    scan: SegmentScan,
    reference: SegmentReference,
    settings_found: bool,
    pending_rollback_turns: usize,
}

impl ScanState {
    fn finalize(&mut self, segment: Segment<'_>, oldest_line: usize) {
        if self.pending_rollback_turns > 0 {
            if segment.counts_as_user_turn {
                self.pending_rollback_turns -= 1;
            }
            self.scan.dropped[oldest_line..=segment.newest_line].fill(true);
            return;
        }
        if self.scan.base_compaction.is_none() {
            self.scan.base_compaction = segment.base_compaction;
        }
        if !self.settings_found && segment.counts_as_user_turn {
            self.scan.previous_turn_context = segment.turn_context;
            self.settings_found = segment.turn_context.is_some();
        }
        if self.reference == SegmentReference::NeverSet
            && (segment.counts_as_user_turn || segment.reference == SegmentReference::Cleared)
        {
            self.reference = segment.reference;
        }
    }
}

pub(super) fn scan_segments(lines: &[LineFacts]) -> SegmentScan {
    let mut state = ScanState {
        scan: SegmentScan {
            dropped: vec![false; lines.len()],
            ..SegmentScan::default()
        },
        reference: SegmentReference::NeverSet,
        settings_found: false,
        pending_rollback_turns: 0,
    };
    let mut active: Option<Segment<'_>> = None;
    for (index, facts) in lines.iter().enumerate().rev() {
        match facts {
            LineFacts::Compacted { replacement } => {
                let segment = active.get_or_insert_with(|| Segment::opened_at(index));
                if segment.reference == SegmentReference::NeverSet {
                    segment.reference = SegmentReference::Cleared;
                }
                if segment.base_compaction.is_none() && *replacement {
                    segment.base_compaction = Some(index);
                }
            }
            LineFacts::TurnContext { turn_id } => {
                let turn_id = turn_id.as_deref();
                let segment = active.get_or_insert_with(|| Segment::opened_at(index));
                if segment.turn_id.is_none() {
                    segment.turn_id = turn_id;
                }
                if segment.accepts_turn(turn_id) {
                    // Scanning backwards, the oldest matching context of the turn is what the turn
                    // ran with; the newest one is its baseline.
                    segment.turn_context = Some(index);
                    if segment.reference == SegmentReference::NeverSet {
                        segment.reference = SegmentReference::Latest(index);
                    }
                }
            }
            LineFacts::Response { user_turn } => {
                let segment = active.get_or_insert_with(|| Segment::opened_at(index));
                segment.counts_as_user_turn |= *user_turn;
            }
            LineFacts::Event { event, turn_id } => {
                let turn_id = turn_id.as_deref();
                match event {
                    EventFact::RolledBack(turns) => {
                        state.pending_rollback_turns =
                            state.pending_rollback_turns.saturating_add(*turns);
                    }
                    EventFact::TurnComplete => {
                        let segment = active.get_or_insert_with(|| Segment::opened_at(index));
                        if segment.turn_id.is_none() {
                            segment.turn_id = turn_id;
                        }
                    }
                    EventFact::TurnAborted => match active.as_mut() {
                        Some(segment) => {
                            if segment.turn_id.is_none() {
                                segment.turn_id = turn_id;
                            }
                        }
                        None => {
                            if turn_id.is_some() {
                                let mut segment = Segment::opened_at(index);
                                segment.turn_id = turn_id;
                                active = Some(segment);
                            }
                        }
                    },
                    EventFact::UserMessage => {
                        active
                            .get_or_insert_with(|| Segment::opened_at(index))
                            .counts_as_user_turn = true;
                    }
                    EventFact::TurnStarted => {
                        if let Some(segment) =
                            active.take_if(|segment| segment.accepts_turn(turn_id))
                        {
                            state.finalize(segment, index);
                        }
                    }
                    EventFact::Other => {}
                }
            }
            LineFacts::WorldState { .. } | LineFacts::Quiet => {}
        }
    }
    if let Some(segment) = active.take() {
        state.finalize(segment, 0);
    }
    let mut scan = state.scan;
    scan.reference_context = match state.reference {
        SegmentReference::Latest(index) => Some(index),
        SegmentReference::NeverSet | SegmentReference::Cleared => None,
    };
    scan
}

/// `Some(num_turns)` when the item is a `thread_rolled_back` event; a missing or malformed count
/// rolls back nothing.
pub(super) fn rolled_back_turns(item: &RolloutItem) -> Option<usize> {
    let RolloutItem::Other { line_type, payload } = item else {
        return None;
    };
    if line_type != EVENT_MSG_LINE_TYPE
        || payload.get("type").and_then(Value::as_str) != Some(event_types::THREAD_ROLLED_BACK)
    {
        return None;
    }
    Some(
        payload
            .get("num_turns")
            .and_then(Value::as_u64)
            .map_or(0, |turns| usize::try_from(turns).unwrap_or(usize::MAX)),
    )
}
