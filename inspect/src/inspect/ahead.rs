//! The lines a walk reads, with the little look-ahead it needs: whether the model output just
//! read answered a compaction's summary request, which only the lines after it tell.

use std::borrow::Cow;
use std::collections::VecDeque;

use codex_protocol::rollout::RolloutItem;

use super::walk::TASK_COMPLETE;
use super::walk::TASK_STARTED;
use super::walk::TURN_ABORTED;
use super::walk::is_model_output;

/// A line as a walk reads it: its number in the file and its item, borrowed or owned.
pub(super) type WalkLine<'a> = (usize, Cow<'a, RolloutItem>);

/// The lines of a rollout in file order, holding back only the lines a look-ahead has read
/// (usually none or one), so the walk can run while the file is still being read.
pub(super) struct Ahead<'a, I> {
    lines: I,
    peeked: VecDeque<WalkLine<'a>>,
}

impl<'a, I: Iterator<Item = WalkLine<'a>>> Ahead<'a, I> {
    pub fn new(lines: I) -> Self {
        Self {
            lines,
            peeked: VecDeque::new(),
        }
    }

    /// Whether the model output just read answered a compaction's summary request: it is
    /// followed, in the same task, by more model output and events only, then a `compacted`
    /// line.
    pub fn compaction_follows(&mut self) -> bool {
        for position in 0.. {
            if position == self.peeked.len() {
                match self.lines.next() {
                    Some(line) => self.peeked.push_back(line),
                    None => return false,
                }
            }
            let item = &*self.peeked[position].1;
            match item {
                RolloutItem::Compacted(_) => return true,
                RolloutItem::Other { .. } => {
                    if let Some(TASK_STARTED | TASK_COMPLETE | TURN_ABORTED) = item.event_msg_type()
                    {
                        return false;
                    }
                }
                RolloutItem::ResponseItem(item) if is_model_output(item) => {}
                RolloutItem::ResponseItem(_)
                | RolloutItem::TurnContext(_)
                | RolloutItem::WorldState(_)
                | RolloutItem::SessionMeta(_) => return false,
            }
        }
        false
    }
}

impl<'a, I: Iterator<Item = WalkLine<'a>>> Iterator for Ahead<'a, I> {
    type Item = WalkLine<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        self.peeked.pop_front().or_else(|| self.lines.next())
    }
}
