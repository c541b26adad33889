//! Token totals by source and prefix reuse for request bodies a caller built (`request --stats`,
//! `session run --stats`). Comparing a run with `--resend-full-context` against a normal run
//! shows what world-state diffs save.

use std::fmt::Write as _;

use codex_core::ResponsesRequest;
use codex_fragments::base_instructions::BASE_INSTRUCTIONS;
use codex_protocol::models::ContentItemKind;
use codex_protocol::models::ResponseItem;
use serde::Serialize;

use super::EntryTexts;
use super::classify::ClassifyContext;
use super::classify::classify_item;
use super::json_len::serialized_len;
use super::model::BreakReason;
use super::model::CacheReport;
use super::model::ItemReport;
use super::model::TokenBreakdown;
use super::model::TokenSource;
use super::summary::ItemLedger;
use super::summary::break_at_item;
use super::summary::break_before_input;
use super::summary::percent;
use super::text::breakdown_header;
use super::text::breakdown_row;
use super::text::reuse_cell;
use super::tokens::TokenCounter;
use crate::compare::carries_base_instructions;

/// The o200k tokens of `request` when they exceed the model's `context_window`; `None` when it
/// fits or the window is unknown. A request whose serialized body is no longer than the window
/// cannot exceed it (every token is at least one byte of the text it covers), so only larger
/// bodies are tokenized.
pub fn context_window_excess(
    request: &ResponsesRequest,
    context_window: Option<i64>,
) -> Option<usize> {
    let window = usize::try_from(context_window?).ok()?;
    let bytes = serde_json::to_vec(request).map_or(usize::MAX, |body| body.len());
    if bytes <= window {
        return None;
    }
    // The same holds for the texts the count reads, which are far fewer bytes than the body
    // (no JSON, no encrypted content): when their bytes fit, the vocabulary is not even loaded.
    let mut bound = RequestStatsAccumulator::counting_with(TokenCounter::bytes_upper_bound());
    if bound.add(request).total_tokens <= window {
        return None;
    }
    let tokens = request_stats(std::slice::from_ref(request)).total_tokens;
    (tokens > window).then_some(tokens)
}

/// Statistics of a sequence of requests of one thread.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestStats {
    pub requests: Vec<RequestStat>,
    /// Tokens by source, summed over the requests.
    pub totals: TokenBreakdown,
    pub total_tokens: usize,
    /// Tokens the previous request had already sent, summed over the requests.
    pub prefix_tokens: usize,
    pub prefix_percent: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestStat {
    /// 1-based.
    pub number: usize,
    pub model: String,
    pub input_items: usize,
    pub tokens: TokenBreakdown,
    pub total_tokens: usize,
    /// `None` for the first request.
    pub cache: Option<CacheReport>,
}

/// Token breakdown and prefix reuse of `requests`, each compared with the one before it.
/// Items carried over from the previous request are counted once and reused.
pub fn request_stats(requests: &[ResponsesRequest]) -> RequestStats {
    let mut accumulator = RequestStatsAccumulator::new();
    for body in requests {
        accumulator.add(body);
    }
    accumulator.finish()
}

/// [`request_stats`] one request at a time, for requests that stream past (`session run
/// --stats`): it keeps the previous body, the token counts of its input items and one small
/// row per request, never the bodies before.
#[derive(Debug)]
pub struct RequestStatsAccumulator {
    counter: TokenCounter,
    ledger: ItemLedger,
    previous: Option<ResponsesRequest>,
    previous_tokens: FieldTokens,
    rows: Vec<RequestStat>,
    /// The classified items of the request added last, after the ones it carried over.
    items: Vec<ItemReport>,
}

/// Tokens of a body's instructions and tools.
#[derive(Debug, Clone, Copy, Default)]
struct FieldTokens {
    instructions: usize,
    tools: usize,
}

impl Default for RequestStatsAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl RequestStatsAccumulator {
    /// No request counted yet.
    pub fn new() -> Self {
        Self::counting_with(TokenCounter::new())
    }

    fn counting_with(counter: TokenCounter) -> Self {
        Self {
            counter,
            ledger: ItemLedger::new(),
            previous: None,
            previous_tokens: FieldTokens::default(),
            rows: Vec::new(),
            items: Vec::new(),
        }
    }

    /// Counts `body`, the thread's next request, against the one added before it, and returns
    /// its row.
    pub fn add(&mut self, body: &ResponsesRequest) -> &RequestStat {
        let context = ClassifyContext {
            instructions_provenance: "request input",
            texts: EntryTexts::Whole,
        };
        self.items.clear();
        let counter = &mut self.counter;
        let ledger = &mut self.ledger;
        let previous = self.previous.as_ref();
        let carried = previous.map_or(0, |previous| {
            previous
                .input
                .iter()
                .zip(&body.input)
                .take_while(|(before, now)| before == now)
                .count()
        });
        ledger.keep(carried);
        let instructions_index = base_instructions_index(body).filter(|index| *index >= carried);
        for (index, item) in body.input.iter().enumerate().skip(carried) {
            let classified = match item {
                ResponseItem::Message { content, .. } if Some(index) == instructions_index => {
                    let mut annotated = item.clone();
                    if let Some(slot) = annotated.metadata_slot_mut() {
                        slot.get_or_insert_with(Default::default).content_item_kinds = Some(
                            content
                                .iter()
                                .map(|_| ContentItemKind::new(BASE_INSTRUCTIONS.content_kind))
                                .collect(),
                        );
                    }
                    classify_item(index, &annotated, serialized_len(item), &context, counter)
                }
                _ => classify_item(index, item, serialized_len(item), &context, counter),
            };
            ledger.push(classified.tokens);
            self.items.push(classified.report);
        }
        // Instructions and tools rarely change between requests: their counts carry over.
        let instructions = match previous {
            Some(previous) if previous.instructions == body.instructions => {
                self.previous_tokens.instructions
            }
            _ => counter.count(&body.instructions),
        };
        let tools = match previous {
            Some(previous) if previous.tools == body.tools => self.previous_tokens.tools,
            _ => match &body.tools {
                Some(tools) => counter.count(&serde_json::to_string(tools).unwrap_or_default()),
                None => 0,
            },
        };
        let tokens = ledger.breakdown(carried, instructions, tools);
        let total_tokens = tokens.total();
        let cache = previous.map(|previous| match break_before_input(previous, body) {
            Some(broken) => CacheReport {
                prefix_tokens: 0,
                prefix_percent: 0.0,
                prefix_items: 0,
                prefix_break: Some(broken),
            },
            None => {
                let prefix_tokens = instructions + tools + ledger.sum_of_first(carried).total();
                CacheReport {
                    prefix_tokens,
                    prefix_percent: percent(prefix_tokens, total_tokens),
                    prefix_items: carried,
                    prefix_break: (carried < previous.input.len()).then(|| {
                        break_at_item(
                            BreakReason::HistoryRewritten,
                            carried,
                            previous.input.get(carried),
                            body.input.get(carried),
                        )
                    }),
                }
            }
        });
        self.rows.push(RequestStat {
            number: self.rows.len() + 1,
            model: body.model.clone(),
            input_items: body.input.len(),
            tokens,
            total_tokens,
            cache,
        });
        match &mut self.previous {
            Some(kept) => kept.clone_from(body),
            None => self.previous = Some(body.clone()),
        }
        self.previous_tokens = FieldTokens {
            instructions,
            tools,
        };
        &self.rows[self.rows.len() - 1]
    }

    /// The classified input items of the request added last, after the ones it carried over
    /// (what an inspection lists for it); taking them leaves none.
    pub(crate) fn take_items(&mut self) -> Vec<ItemReport> {
        std::mem::take(&mut self.items)
    }

    /// The statistics of every request added, with their totals.
    pub fn finish(self) -> RequestStats {
        let stats = self.rows;
        let mut totals = TokenBreakdown::default();
        for stat in &stats {
            for source in TokenSource::ALL {
                totals.add(source, stat.tokens.get(source));
            }
        }
        let total_tokens = totals.total();
        let prefix_tokens = stats
            .iter()
            .filter_map(|stat| stat.cache.as_ref())
            .map(|cache| cache.prefix_tokens)
            .sum();
        RequestStats {
            requests: stats,
            totals,
            total_tokens,
            prefix_tokens,
            prefix_percent: percent(prefix_tokens, total_tokens),
        }
    }
}

/// The input item that carries `body`'s base instructions when it has no `instructions` field:
/// Responses Lite's developer message after the tool catalog, or the developer message newer
/// releases send as `input[0]`. Outgoing bodies carry no content kinds, so it is recognised as
/// `compare` recognises it: the first message, a developer message of text no fragment type
/// claims.
fn base_instructions_index(body: &ResponsesRequest) -> Option<usize> {
    if !body.instructions.is_empty() {
        return None;
    }
    let index = body
        .input
        .iter()
        .position(|item| matches!(item, ResponseItem::Message { .. }))?;
    let message = serde_json::to_value(&body.input[index]).ok()?;
    carries_base_instructions(&message).then_some(index)
}

/// The statistics as a table: one row per request, then the totals.
pub fn render_request_stats(stats: &RequestStats) -> String {
    let mut out = String::from("token statistics (o200k_base)\n");
    out.push_str(&breakdown_header());
    out.push_str("  prefix reuse\n");
    for stat in &stats.requests {
        out.push_str(&breakdown_row(
            &format!("request {}", stat.number),
            &stat.tokens,
        ));
        let _ = writeln!(out, "  {}", reuse_cell(stat.cache.as_ref()));
    }
    out.push_str(&breakdown_row("total", &stats.totals));
    let _ = writeln!(
        out,
        "  {} tokens ({}%) reused",
        stats.prefix_tokens, stats.prefix_percent
    );
    out
}
