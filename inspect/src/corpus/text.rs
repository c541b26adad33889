//! The text view of a folder: a block per session as it is inspected, then the totals.

use std::fmt::Write as _;

use super::BreakCounts;
use super::CorpusTotals;
use super::InjectedItem;
use super::SessionSummary;
use super::SkippedFile;
use super::WindowPressure;
use crate::inspect::breakdown_header;
use crate::inspect::breakdown_row;

/// One session's block, ending with a blank line.
pub fn render_session_text(summary: &SessionSummary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "session {} ({})",
        summary.session_id.as_deref().unwrap_or("(unknown)"),
        summary.rollout
    );
    let models = match summary.models.as_slice() {
        [] => "no model".to_string(),
        [model] => format!("model {model}"),
        models => format!("models {}", models.join(", ")),
    };
    let _ = writeln!(
        out,
        "  release {}, {models}, {} requests ({} compaction requests), {} compactions",
        summary.release, summary.requests, summary.compaction_requests, summary.compactions
    );
    let by_source: Vec<String> = crate::inspect::TokenSource::ALL
        .iter()
        .map(|source| format!("{} {}", source.label(), summary.tokens.get(*source)))
        .collect();
    let _ = writeln!(
        out,
        "  tokens: {}; total {}",
        by_source.join(", "),
        summary.total_tokens
    );
    let _ = writeln!(
        out,
        "  prefix reuse: {} tokens ({}%); breaks: {}",
        summary.prefix_tokens,
        summary.prefix_percent,
        breaks(&summary.breaks)
    );
    let _ = writeln!(
        out,
        "  context window: {}; {} requests over their window",
        window(summary.peak_window.as_ref()),
        summary.requests_over_window
    );
    if !summary.largest_injected.is_empty() {
        let largest: Vec<String> = summary
            .largest_injected
            .iter()
            .map(|item| {
                format!(
                    "{} {} tokens (request {})",
                    item.fragment, item.tokens, item.request
                )
            })
            .collect();
        let _ = writeln!(out, "  largest injected: {}", largest.join(", "));
    }
    for warning in &summary.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    out.push('\n');
    out
}

/// The totals, and the files left out.
pub fn render_totals_text(totals: &CorpusTotals, skipped: &[SkippedFile]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "totals: {} sessions, {} skipped, {} with warnings",
        totals.sessions, totals.skipped, totals.sessions_with_warnings
    );
    let _ = writeln!(
        out,
        "  {} requests ({} compaction requests), {} compactions",
        totals.requests, totals.compaction_requests, totals.compactions
    );
    out.push_str("\ntokens by source (o200k_base)\n");
    out.push_str(&breakdown_header());
    out.push('\n');
    out.push_str(&breakdown_row("all", &totals.tokens));
    out.push('\n');
    let _ = writeln!(
        out,
        "\nprefix reuse: {} tokens ({}%)",
        totals.prefix_tokens, totals.prefix_percent
    );
    let _ = writeln!(out, "prefix breaks: {}", breaks(&totals.breaks));
    let peak_rollout = totals
        .peak_window
        .as_ref()
        .map_or(String::new(), |peak| format!(" of {}", peak.rollout));
    let _ = writeln!(
        out,
        "context window: {}{peak_rollout}; {} requests over their window",
        window(totals.peak_window.as_ref()),
        totals.requests_over_window
    );
    if !totals.largest_injected.is_empty() {
        out.push_str("largest injected items:\n");
        for item in &totals.largest_injected {
            out.push_str(&injected_line(item));
        }
    }
    if !skipped.is_empty() {
        out.push_str("skipped:\n");
        for file in skipped {
            let _ = writeln!(out, "  {}: {}", file.rollout, file.reason);
        }
    }
    out
}

fn breaks(counts: &BreakCounts) -> String {
    if counts.total() == 0 {
        return "none".to_string();
    }
    let named: Vec<String> = counts
        .counts()
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(reason, count)| format!("{} {count}", reason.label()))
        .collect();
    named.join(", ")
}

/// The fullest request: how full, of which window, which request.
fn window(peak: Option<&WindowPressure>) -> String {
    let Some(peak) = peak else {
        return "no model with a known window".to_string();
    };
    format!(
        "peak {}% ({} of {} tokens, {}) at request {}",
        peak.percent, peak.tokens, peak.context_window, peak.model, peak.request
    )
}

fn injected_line(item: &InjectedItem) -> String {
    format!(
        "  {} tokens  {} ({})  request {} of {}\n",
        item.tokens,
        item.fragment,
        item.source.label(),
        item.request,
        item.rollout
    )
}
