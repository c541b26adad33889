//! Forward replay of the history lines that follow the history base.

use std::borrow::Cow;

use codex_prompts::TemplateId;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

use super::segments::rolled_back_turns;
use codex_fragments::is_compaction_summary;
use codex_fragments::is_context_update;
use codex_fragments::is_user_turn_boundary;

/// How many user-message tokens a rebuilt legacy compaction keeps, newest first.
const LEGACY_COMPACTION_USER_TOKENS: usize = 20_000;
/// The usual estimate of bytes per token.
const BYTES_PER_TOKEN: usize = 4;

/// The replayed history and whether a compaction without a replacement history had to be
/// rebuilt (which forces full context on the next turn).
#[derive(Debug, Default)]
pub(super) struct ReplayedHistory {
    pub items: Vec<ResponseItem>,
    pub rebuilt_legacy_compaction: bool,
    /// Summary texts placed into history by rebuilt compactions; they are not user input.
    summaries: Vec<String>,
}

/// Replays `items`: the lines from the history base (the newest surviving compaction with a
/// replacement history, which starts history over) on, or from the first line without a base.
/// Owned items are moved into history; borrowed ones are copied.
pub(super) fn replay_history<'a>(
    items: impl Iterator<Item = Cow<'a, RolloutItem>>,
) -> ReplayedHistory {
    let mut history = ReplayedHistory::default();
    for item in items {
        match &*item {
            RolloutItem::ResponseItem(response) => {
                // System messages are never part of model-visible history.
                if matches!(response, ResponseItem::Message { role, .. } if role == "system") {
                    continue;
                }
                if let RolloutItem::ResponseItem(response) = item.into_owned() {
                    history.items.push(response);
                }
            }
            RolloutItem::Compacted(compacted) => match &compacted.replacement_history {
                Some(_) => {
                    if let RolloutItem::Compacted(compacted) = item.into_owned() {
                        history.items = compacted.replacement_history.unwrap_or_default();
                    }
                }
                None => history.rebuild_legacy_compaction(&compacted.message),
            },
            RolloutItem::Other { .. } => {
                if let Some(turns) = rolled_back_turns(&item) {
                    history.drop_last_user_turns(turns);
                }
            }
            RolloutItem::SessionMeta(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_) => {}
        }
    }
    history
}

impl ReplayedHistory {
    /// Drops the newest `turns` user turns, and the context updates recorded just before the
    /// oldest dropped one; never anything before the first user turn.
    fn drop_last_user_turns(&mut self, turns: usize) {
        let positions: Vec<usize> = self
            .items
            .iter()
            .enumerate()
            .filter_map(|(index, item)| is_user_turn_boundary(item).then_some(index))
            .collect();
        let Some(&first) = positions.first() else {
            return;
        };
        if turns == 0 {
            return;
        }
        let mut cut = positions
            .len()
            .checked_sub(turns)
            .map_or(first, |keep| positions[keep]);
        while cut > first && is_context_update(&self.items[cut - 1]) {
            cut -= 1;
        }
        self.items.truncate(cut);
    }

    /// A compaction recorded before replacement histories existed: keep the newest user messages
    /// within a token budget, then the summary.
    fn rebuild_legacy_compaction(&mut self, summary: &str) {
        self.rebuilt_legacy_compaction = true;
        let own_prefix = TemplateId::CompactionSummaryPrefix.embedded_file();
        let own_prefix = own_prefix.strip_suffix('\n').unwrap_or(own_prefix);
        let user_messages: Vec<String> = self
            .items
            .iter()
            .filter(|item| is_user_turn_boundary(item) && !is_compaction_summary(item, own_prefix))
            .filter_map(|item| {
                let ResponseItem::Message { content, .. } = item else {
                    return None;
                };
                let parts: Vec<&str> = content
                    .iter()
                    .filter_map(|part| match part {
                        ContentItem::InputText { text } => Some(text.as_str()),
                        ContentItem::InputImage { .. }
                        | ContentItem::InputAudio { .. }
                        | ContentItem::OutputText { .. }
                        | ContentItem::Other(_) => None,
                    })
                    .collect();
                Some(parts.join("\n"))
            })
            .filter(|text| !self.summaries.contains(text))
            .collect();
        let mut remaining_bytes = LEGACY_COMPACTION_USER_TOKENS * BYTES_PER_TOKEN;
        let mut kept = Vec::new();
        for message in user_messages.into_iter().rev() {
            if remaining_bytes == 0 {
                break;
            }
            if message.len() <= remaining_bytes {
                remaining_bytes -= message.len();
                kept.push(message);
            } else {
                let mut end = remaining_bytes;
                while !message.is_char_boundary(end) {
                    end -= 1;
                }
                kept.push(message[..end].to_string());
                break;
            }
        }
        kept.reverse();
        self.items = kept
            .into_iter()
            .map(|text| ResponseItem::message("user", vec![ContentItem::input_text(text)]))
            .collect();
        if !summary.is_empty() {
            self.items.push(ResponseItem::message(
                "user",
                vec![ContentItem::input_text(summary)],
            ));
            self.summaries.push(summary.to_string());
        }
    }
}
