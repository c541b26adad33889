use std::collections::HashMap;

use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;

/// Why a section looks for its fragment in history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FragmentMatchPurpose {
    /// No snapshot is stored: does history hold text the model already saw (→ Unknown)?
    Legacy,
    /// A snapshot is stored: is the fragment it relies on still retained?
    Retained,
}

/// One "is this section's fragment in history?" question.
pub struct FragmentQuery<'a> {
    pub section_id: &'a str,
    pub purpose: FragmentMatchPurpose,
    /// Changes whenever `matcher` may answer differently for the same text.
    pub matcher_key: &'a str,
    /// Called with (role, text) of every `input_text` content item of every message.
    pub matcher: &'a dyn Fn(&str, &str) -> bool,
}

/// Retained model history as world-state diffing sees it.
///
/// Implementations must answer exactly as a full scan would: true iff some
/// [`ResponseItem::Message`] has an [`ContentItem::InputText`] item for which the matcher
/// returns true given the message role and the text. Other item and content kinds (assistant
/// `output_text` included) are never inspected.
pub trait FragmentHistory {
    fn contains_fragment(&mut self, query: &FragmentQuery<'_>) -> bool;
}

/// Any slice of items is a history that is scanned in full for every question.
impl<T: AsRef<[ResponseItem]>> FragmentHistory for T {
    fn contains_fragment(&mut self, query: &FragmentQuery<'_>) -> bool {
        self.as_ref()
            .iter()
            .any(|item| item_contains_fragment(item, query.matcher))
    }
}

fn item_contains_fragment(item: &ResponseItem, matcher: &dyn Fn(&str, &str) -> bool) -> bool {
    let ResponseItem::Message { role, content, .. } = item else {
        return false;
    };
    content.iter().any(|content_item| match content_item {
        ContentItem::InputText { text } => matcher(role, text),
        ContentItem::InputImage { .. }
        | ContentItem::InputAudio { .. }
        | ContentItem::OutputText { .. }
        | ContentItem::Other(_) => false,
    })
}

/// Remembers, per section and purpose, how much of an append-only history has been scanned
/// and whether the fragment was found, so each turn scans only the items appended since the
/// previous question.
///
/// The owner of the history must call [`invalidate`](Self::invalidate) whenever items are
/// removed or rewritten (compaction, rollback, trimming); a history that became shorter than
/// what was scanned is detected and rescanned automatically.
#[derive(Debug, Default)]
pub struct HistoryFragmentIndex {
    entries: HashMap<(String, FragmentMatchPurpose), IndexEntry>,
}

#[derive(Debug)]
struct IndexEntry {
    matcher_key: String,
    scanned: usize,
    found: bool,
}

impl HistoryFragmentIndex {
    /// Forgets every cached answer.
    pub fn invalidate(&mut self) {
        self.entries.clear();
    }

    /// A history view over `items`, which must extend the items seen by earlier views unless
    /// the index was invalidated since.
    pub fn over<'a>(&'a mut self, items: &'a [ResponseItem]) -> IndexedHistory<'a> {
        IndexedHistory { index: self, items }
    }
}

/// [`FragmentHistory`] backed by a [`HistoryFragmentIndex`].
pub struct IndexedHistory<'a> {
    index: &'a mut HistoryFragmentIndex,
    items: &'a [ResponseItem],
}

impl FragmentHistory for IndexedHistory<'_> {
    fn contains_fragment(&mut self, query: &FragmentQuery<'_>) -> bool {
        let entry = self
            .index
            .entries
            .entry((query.section_id.to_string(), query.purpose))
            .or_insert_with(|| IndexEntry {
                matcher_key: query.matcher_key.to_string(),
                scanned: 0,
                found: false,
            });
        if entry.matcher_key != query.matcher_key || entry.scanned > self.items.len() {
            entry.matcher_key = query.matcher_key.to_string();
            entry.scanned = 0;
            entry.found = false;
        }
        if !entry.found {
            entry.found = self
                .items
                .get(entry.scanned..)
                .unwrap_or_default()
                .iter()
                .any(|item| item_contains_fragment(item, query.matcher));
        }
        entry.scanned = self.items.len();
        entry.found
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
