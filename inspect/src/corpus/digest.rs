//! One rollout reduced to what a folder's report keeps of it: its [`SessionSummary`], and its
//! rows when asked; and the [`CorpusTotals`] summed over summaries.

use std::collections::HashMap;

use codex_release::CodexRelease;
use serde::Serialize;

use super::CorpusFile;
use super::FileDigest;
use super::Rows;
use super::percent;
use super::rows::request_rows;
use crate::inspect::BreakReason;
use crate::inspect::EntryClass;
use crate::inspect::InspectError;
use crate::inspect::InspectOptions;
use crate::inspect::Inspection;
use crate::inspect::RequestKind;
use crate::inspect::TokenBreakdown;
use crate::inspect::TokenSource;
use crate::inspect::inspect_file;

/// Injected items kept per session, and in the totals.
const LARGEST_INJECTED: usize = 5;

/// What a folder's report keeps of one session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionSummary {
    /// The rollout, relative to the folder inspected.
    pub rollout: String,
    /// `session_meta.id`, when the rollout has one.
    pub session_id: Option<String>,
    /// The release whose profile rebuilt the requests.
    pub release: String,
    /// The models the requests went to, in order of first use.
    pub models: Vec<String>,
    pub requests: usize,
    /// Requests that were local compactions (history plus a compaction prompt).
    pub compaction_requests: usize,
    /// History rewrites by compaction the rollout records (local or remote).
    pub compactions: usize,
    /// Input tokens by source, summed over the requests (each request counts everything it
    /// sends, history included).
    pub tokens: TokenBreakdown,
    pub total_tokens: usize,
    /// Tokens each request shared with the one before it (its cacheable prefix), summed.
    pub prefix_tokens: usize,
    /// `prefix_tokens` as a percentage of `total_tokens`.
    pub prefix_percent: f64,
    /// Why prefixes broke, counted per reason.
    pub breaks: BreakCounts,
    /// The request nearest its model's context window (`None` when no request's window is
    /// known).
    pub peak_window: Option<WindowPressure>,
    /// Requests larger than their model's context window.
    pub requests_over_window: usize,
    /// The largest injected entries the session sent, largest first.
    pub largest_injected: Vec<InjectedItem>,
    /// What the inspection warned about (damaged lines skipped, missing records).
    pub warnings: Vec<String>,
}

/// How often each [`BreakReason`] broke a prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct BreakCounts {
    pub compaction: usize,
    pub model_changed: usize,
    pub instructions_changed: usize,
    pub tools_changed: usize,
    pub history_rewritten: usize,
}

impl BreakCounts {
    /// Every reason with its count, in a fixed order.
    pub fn counts(&self) -> [(BreakReason, usize); 5] {
        [
            (BreakReason::Compaction, self.compaction),
            (BreakReason::ModelChanged, self.model_changed),
            (BreakReason::InstructionsChanged, self.instructions_changed),
            (BreakReason::ToolsChanged, self.tools_changed),
            (BreakReason::HistoryRewritten, self.history_rewritten),
        ]
    }

    /// Counts one more break for `reason`, `times` times.
    pub fn add(&mut self, reason: BreakReason, times: usize) {
        let slot = match reason {
            BreakReason::Compaction => &mut self.compaction,
            BreakReason::ModelChanged => &mut self.model_changed,
            BreakReason::InstructionsChanged => &mut self.instructions_changed,
            BreakReason::ToolsChanged => &mut self.tools_changed,
            BreakReason::HistoryRewritten => &mut self.history_rewritten,
        };
        *slot += times;
    }

    /// All breaks.
    pub fn total(&self) -> usize {
        self.counts().iter().map(|(_, count)| count).sum()
    }
}

/// How full one request made its model's context window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowPressure {
    /// The rollout, relative to the folder inspected.
    pub rollout: String,
    /// 1-based request number within the rollout.
    pub request: usize,
    pub model: String,
    pub tokens: usize,
    /// The model's context window in tokens (catalog metadata).
    pub context_window: usize,
    /// `tokens` as a percentage of `context_window`.
    pub percent: f64,
}

impl WindowPressure {
    /// Whether this request fills its window more than `other` fills its own (exactly, not
    /// by the rounded percentages).
    pub fn fuller_than(&self, other: &WindowPressure) -> bool {
        let (mine, theirs) = (
            self.tokens as u128 * other.context_window as u128,
            other.tokens as u128 * self.context_window as u128,
        );
        mine > theirs
    }
}

/// An injected entry and the request that first sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InjectedItem {
    /// The rollout, relative to the folder inspected.
    pub rollout: String,
    /// 1-based request number within the rollout.
    pub request: usize,
    /// The fragment type (`agents_md`, `environment_context`, …).
    pub fragment: String,
    /// Its token bucket.
    pub source: TokenSource,
    pub tokens: usize,
}

/// Inspects `file` and keeps its summary and, with [`Rows::Collect`], one row per request. The
/// whole inspection is dropped before this returns.
pub fn digest_file(
    file: &CorpusFile,
    options: &InspectOptions<'_>,
    rows: Rows,
) -> Result<FileDigest, InspectError> {
    let inspection = inspect_file(&file.path, options)?;
    let windows = context_windows(&inspection, options);
    let rows = match rows {
        Rows::Collect => request_rows(file, &inspection, &windows),
        Rows::Skip => Vec::new(),
    };
    Ok(FileDigest {
        summary: summarize(file, inspection, &windows),
        rows,
    })
}

/// The context window of every model the inspection's requests use (`None`: unknown).
fn context_windows(
    inspection: &Inspection,
    options: &InspectOptions<'_>,
) -> HashMap<String, Option<usize>> {
    // The report names a release this build supports; the reference release otherwise.
    let release = inspection
        .release
        .name
        .parse::<CodexRelease>()
        .unwrap_or(CodexRelease::REFERENCE);
    let catalog = options.catalog(release);
    let mut windows = HashMap::new();
    for request in &inspection.requests {
        if !windows.contains_key(&request.model) {
            let window = catalog
                .lookup(&request.model)
                .info
                .resolved_context_window()
                .and_then(|window| usize::try_from(window).ok())
                .filter(|window| *window > 0);
            windows.insert(request.model.clone(), window);
        }
    }
    windows
}

fn summarize(
    file: &CorpusFile,
    inspection: Inspection,
    windows: &HashMap<String, Option<usize>>,
) -> SessionSummary {
    let mut summary = SessionSummary {
        rollout: file.name.clone(),
        session_id: inspection.thread_id,
        release: inspection.release.name,
        models: Vec::new(),
        requests: inspection.requests.len(),
        compaction_requests: 0,
        compactions: inspection
            .timeline
            .iter()
            .flat_map(|turn| &turn.rewrites)
            .filter(|rewrite| rewrite.kind == "compaction")
            .count(),
        tokens: TokenBreakdown::default(),
        total_tokens: 0,
        prefix_tokens: 0,
        prefix_percent: 0.0,
        breaks: BreakCounts::default(),
        peak_window: None,
        requests_over_window: 0,
        largest_injected: Vec::new(),
        warnings: inspection.warnings,
    };
    for request in &inspection.requests {
        if !summary.models.contains(&request.model) {
            summary.models.push(request.model.clone());
        }
        match request.kind {
            RequestKind::Compaction => summary.compaction_requests += 1,
            RequestKind::Turn => {}
        }
        for source in TokenSource::ALL {
            summary.tokens.add(source, request.tokens.get(source));
        }
        summary.total_tokens += request.total_tokens;
        if let Some(cache) = &request.cache {
            summary.prefix_tokens += cache.prefix_tokens;
            if let Some(broken) = &cache.prefix_break {
                summary.breaks.add(broken.reason, 1);
            }
        }
        if let Some(Some(window)) = windows.get(&request.model) {
            if request.total_tokens > *window {
                summary.requests_over_window += 1;
            }
            let pressure = WindowPressure {
                rollout: file.name.clone(),
                request: request.number,
                model: request.model.clone(),
                tokens: request.total_tokens,
                context_window: *window,
                percent: percent(request.total_tokens, *window),
            };
            if summary
                .peak_window
                .as_ref()
                .is_none_or(|peak| pressure.fuller_than(peak))
            {
                summary.peak_window = Some(pressure);
            }
        }
        let injected = request
            .items
            .iter()
            .flat_map(|item| &item.entries)
            .filter_map(|entry| match &entry.class {
                EntryClass::Injected { fragment, .. } => Some(InjectedItem {
                    rollout: file.name.clone(),
                    request: request.number,
                    fragment: fragment.clone(),
                    source: entry.source,
                    tokens: entry.tokens,
                }),
                EntryClass::UserText { .. }
                | EntryClass::AssistantOutput
                | EntryClass::Reasoning
                | EntryClass::ToolCall
                | EntryClass::ToolOutput
                | EntryClass::BaseInstructions
                | EntryClass::Tools
                | EntryClass::Other => None,
            });
        keep_largest(&mut summary.largest_injected, injected);
    }
    summary.prefix_percent = percent(summary.prefix_tokens, summary.total_tokens);
    summary
}

/// Adds `items` to `largest`, keeping the [`LARGEST_INJECTED`] largest: by tokens, then in
/// the order they came (so ties resolve the same way on every run).
fn keep_largest(largest: &mut Vec<InjectedItem>, items: impl IntoIterator<Item = InjectedItem>) {
    for item in items {
        let position = largest.partition_point(|kept| kept.tokens >= item.tokens);
        if position < LARGEST_INJECTED {
            largest.insert(position, item);
            largest.truncate(LARGEST_INJECTED);
        }
    }
}

/// A folder's figures summed over its sessions.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CorpusTotals {
    pub sessions: usize,
    /// Files left out (unreadable, not rollouts, folders that could not be listed).
    pub skipped: usize,
    /// Sessions whose inspection warned about something (damaged lines among them).
    pub sessions_with_warnings: usize,
    pub requests: usize,
    pub compaction_requests: usize,
    pub compactions: usize,
    pub tokens: TokenBreakdown,
    pub total_tokens: usize,
    pub prefix_tokens: usize,
    /// `prefix_tokens` as a percentage of `total_tokens`.
    pub prefix_percent: f64,
    pub breaks: BreakCounts,
    /// The request nearest its model's context window, over every session.
    pub peak_window: Option<WindowPressure>,
    pub requests_over_window: usize,
    /// The largest injected entries over every session, largest first.
    pub largest_injected: Vec<InjectedItem>,
}

impl CorpusTotals {
    /// Adds one session. Sessions are added in path order, so ties keep the first session's
    /// figures.
    pub fn add(&mut self, summary: &SessionSummary) {
        self.sessions += 1;
        if !summary.warnings.is_empty() {
            self.sessions_with_warnings += 1;
        }
        self.requests += summary.requests;
        self.compaction_requests += summary.compaction_requests;
        self.compactions += summary.compactions;
        for source in TokenSource::ALL {
            self.tokens.add(source, summary.tokens.get(source));
        }
        self.total_tokens += summary.total_tokens;
        self.prefix_tokens += summary.prefix_tokens;
        self.prefix_percent = percent(self.prefix_tokens, self.total_tokens);
        for (reason, count) in summary.breaks.counts() {
            self.breaks.add(reason, count);
        }
        if let Some(peak) = &summary.peak_window
            && self
                .peak_window
                .as_ref()
                .is_none_or(|kept| peak.fuller_than(kept))
        {
            self.peak_window = Some(peak.clone());
        }
        self.requests_over_window += summary.requests_over_window;
        keep_largest(
            &mut self.largest_injected,
            summary.largest_injected.iter().cloned(),
        );
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn item(request: usize, tokens: usize) -> InjectedItem {
        InjectedItem {
            rollout: "rollout-a.jsonl".to_string(),
            request,
            fragment: "agents_md".to_string(),
            source: TokenSource::AgentsMd,
            tokens,
        }
    }

    #[test]
    fn the_largest_injected_items_are_kept_ties_in_arrival_order() {
        let mut largest = Vec::new();
        keep_largest(
            &mut largest,
            [(1, 10), (2, 30), (3, 10), (4, 50), (5, 30), (6, 5), (7, 30)]
                .map(|(request, tokens)| item(request, tokens)),
        );
        assert_eq!(
            largest,
            [(4, 50), (2, 30), (5, 30), (7, 30), (1, 10)]
                .map(|(request, tokens)| item(request, tokens))
        );
    }

    #[test]
    fn window_pressure_compares_exact_shares_not_rounded_percents() {
        let pressure = |tokens, context_window| WindowPressure {
            rollout: String::new(),
            request: 1,
            model: "gpt-5.5".to_string(),
            tokens,
            context_window,
            percent: percent(tokens, context_window),
        };
        let (a, b) = (pressure(2363, 272_000), pressure(2340, 272_000));
        assert_eq!((a.percent, b.percent), (0.9, 0.9));
        assert_eq!((a.fuller_than(&b), b.fuller_than(&a)), (true, false));
        assert!(!a.fuller_than(&a));
    }
}
