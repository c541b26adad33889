//! The text view of an inspection: each request with the items it adds, a token table by
//! source, the cache report, then the world-state timeline.

use std::fmt::Write as _;
use std::io;

use rayon::prelude::*;

use super::model::CacheReport;
use super::model::EntryClass;
use super::model::EntryReport;
use super::model::Inspection;
use super::model::ItemReport;
use super::model::Recognition;
use super::model::RequestKind;
use super::model::RequestReport;
use super::model::TimelineTurn;
use super::model::TokenBreakdown;
use super::model::TokenSource;
use super::model::ToolsOrigin;
use super::plain::MAX_DIGITS;
use super::plain::Piece::Number;
use super::plain::Piece::Text;
use super::plain::decimal;
use super::plain::push_debug_str;
use super::plain::push_names;
use super::plain::push_pieces;

/// Characters of a merge patch shown in the timeline.
const PATCH_PREVIEW_CHARS: usize = 100;

/// Requests rendered together on one thread.
const RENDER_CHUNK_REQUESTS: usize = 256;

/// Chunks rendered at once, in parallel, before they are handed on.
const RENDER_CHUNKS_AT_ONCE: usize = 8;

/// Widths of the token table's label and number columns.
const LABEL_WIDTH: usize = 11;
const COLUMN_WIDTH: usize = 11;

/// The whole inspection as text.
pub fn render_text(inspection: &Inspection) -> String {
    let mut out = String::new();
    render_text_with(inspection, &mut |text| out.push_str(text));
    out
}

/// Writes [`render_text`]'s text to `writer` as it is rendered, without holding all of it: the
/// text report of a long rollout runs to tens of megabytes.
pub fn write_text(inspection: &Inspection, writer: &mut impl io::Write) -> io::Result<()> {
    let mut written = Ok(());
    render_text_with(inspection, &mut |text| {
        if written.is_ok() {
            written = writer.write_all(text.as_bytes());
        }
    });
    written
}

/// Renders the text report piece by piece, in order, into `sink`.
fn render_text_with(inspection: &Inspection, sink: &mut dyn FnMut(&str)) {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "rollout: thread {}, {} lines, {} requests",
        inspection.thread_id.as_deref().unwrap_or("(unknown)"),
        inspection.rollout_lines,
        inspection.requests.len()
    );
    let _ = writeln!(
        out,
        "release profile: {} ({})",
        inspection.release.name, inspection.release.chosen_because
    );
    match &inspection.base_instructions {
        Some(base) => {
            let _ = writeln!(
                out,
                "base instructions: {} bytes, {} tokens, provenance {}",
                base.bytes, base.tokens, base.provenance
            );
        }
        None => out.push_str("base instructions: not recorded\n"),
    }
    for warning in &inspection.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    sink(&out);
    // A long rollout has tens of thousands of requests: they are rendered in parallel, in
    // chunks handed on in order.
    render_chunks(&inspection.requests, sink, |out, request| {
        out.push('\n');
        render_request(out, request);
    });
    if !inspection.requests.is_empty() {
        let mut header = String::from("\ntokens by source (o200k_base)\n");
        header.push_str(&breakdown_header());
        header.push_str("  prefix reuse\n");
        sink(&header);
        render_chunks(&inspection.requests, sink, |out, request| {
            let start = out.len();
            push_pieces(out, &[Text("request "), Number(request.number)]);
            let label_width = out.len() - start;
            out.extend(std::iter::repeat_n(
                ' ',
                LABEL_WIDTH.saturating_sub(label_width),
            ));
            write_breakdown_cells(out, &request.tokens);
            let _ = writeln!(out, "  {}", reuse_cell(request.cache.as_ref()));
        });
    }
    let mut out = String::from("\nworld-state timeline\n");
    for turn in &inspection.timeline {
        render_turn(&mut out, turn);
    }
    sink(&out);
}

/// Requests rendered one after another by `render` into `sink`: chunks of them are rendered in
/// parallel, a few at a time, so only those few are held.
fn render_chunks(
    requests: &[RequestReport],
    sink: &mut dyn FnMut(&str),
    render: impl Fn(&mut String, &RequestReport) + Sync,
) {
    for window in requests.chunks(RENDER_CHUNK_REQUESTS * RENDER_CHUNKS_AT_ONCE) {
        let chunks: Vec<String> = window
            .par_chunks(RENDER_CHUNK_REQUESTS)
            .map(|chunk| {
                let mut out = String::new();
                for request in chunk {
                    render(&mut out, request);
                }
                out
            })
            .collect();
        chunks.iter().for_each(|chunk| sink(chunk));
    }
}

fn render_request(out: &mut String, request: &RequestReport) {
    let kind = match request.kind {
        RequestKind::Turn => "",
        RequestKind::Compaction => " (compaction)",
    };
    push_pieces(
        out,
        &[
            Text("request "),
            Number(request.number),
            Text(kind),
            Text(": turn "),
            Number(request.turn),
            Text(" step "),
            Number(request.step),
            Text(", line "),
            Number(request.line),
            Text(", model "),
            Text(&request.model),
            Text(", "),
            Number(request.input_items),
            Text(" input items ("),
            Number(request.carried_items),
            Text(" carried over)\n"),
        ],
    );
    let instructions = if request.instructions_in_field {
        "in the instructions field"
    } else {
        "in the input (Responses Lite)"
    };
    push_pieces(
        out,
        &[
            Text("  instructions: "),
            Text(instructions),
            Text(", "),
            Number(request.tokens.base_instructions),
            Text(" tokens\n"),
        ],
    );
    let tools = &request.tools;
    match (tools.origin, tools.in_field) {
        (ToolsOrigin::RebuiltBuiltin, true) => {
            out.push_str("  tools: built-in list rebuilt for the model (");
            push_names(out, &tools.names);
            push_pieces(
                out,
                &[
                    Text("), "),
                    Number(tools.bytes),
                    Text(" bytes, "),
                    Number(tools.tokens),
                    Text(" tokens\n"),
                ],
            );
        }
        (ToolsOrigin::RebuiltBuiltin, false) => {
            out.push_str("  tools: built-in list rebuilt for the model (");
            push_names(out, &tools.names);
            out.push_str("), sent in the input\n");
        }
        (ToolsOrigin::RebuiltFallback, _) => {
            let _ = writeln!(
                out,
                "  tools: built-in list rebuilt from fallback metadata, the model not being in \
                 the catalog ({})",
                tools.names.join(", ")
            );
        }
        (ToolsOrigin::NoneOffered, _) => out.push_str("  tools: none offered (an empty list)\n"),
        (ToolsOrigin::Recorded, _) => {
            let _ = writeln!(
                out,
                "  tools: as sent ({}), {} tokens",
                tools.names.join(", "),
                tools.tokens
            );
        }
    }
    for item in &request.items {
        render_item(out, item);
    }
    for missing in &request.unrecorded {
        let _ = writeln!(out, "  + {missing}");
    }
    out.push_str("  tokens: ");
    for (position, source) in TokenSource::ALL.iter().enumerate() {
        let separator = if position == 0 { "" } else { ", " };
        push_pieces(
            out,
            &[
                Text(separator),
                Text(source.label()),
                Text(" "),
                Number(request.tokens.get(*source)),
            ],
        );
    }
    push_pieces(
        out,
        &[Text("; total "), Number(request.total_tokens), Text("\n")],
    );
    match &request.cache {
        None => out.push_str("  cache: first request\n"),
        Some(cache) => {
            let _ = writeln!(out, "  cache: {}", cache_summary(cache));
        }
    }
}

fn render_item(out: &mut String, item: &ItemReport) {
    push_pieces(
        out,
        &[
            Text("  ["),
            Number(item.index),
            Text("] "),
            Text(&item.item_type),
        ],
    );
    if let Some(role) = &item.role {
        push_pieces(out, &[Text(" "), Text(role)]);
    }
    push_pieces(
        out,
        &[
            Text(": "),
            Number(item.bytes),
            Text(" bytes, "),
            Number(item.tokens),
            Text(" tokens\n"),
        ],
    );
    for entry in &item.entries {
        push_pieces(out, &[Text("      "), Number(entry.index), Text(": ")]);
        write_class_label(out, entry);
        push_pieces(out, &[Text(" -> "), Text(entry.source.label())]);
        if let Some(origin) = &entry.origin {
            push_pieces(out, &[Text(", "), Text(origin)]);
        }
        if let Some(kind) = &entry.content_kind {
            push_pieces(out, &[Text(", kind "), Text(kind)]);
        }
        push_pieces(
            out,
            &[
                Text(", "),
                Number(entry.bytes),
                Text(" bytes, "),
                Number(entry.tokens),
                Text(" tokens: "),
            ],
        );
        push_debug_str(out, &entry.preview);
        out.push('\n');
    }
}

pub(super) fn class_label(entry: &EntryReport) -> String {
    let mut label = String::new();
    write_class_label(&mut label, entry);
    label
}

/// What an entry is, as the text and HTML views name it.
fn write_class_label(out: &mut String, entry: &EntryReport) {
    let _ = match &entry.class {
        EntryClass::UserText { imitates: None } => write!(out, "user text"),
        EntryClass::UserText {
            imitates: Some(fragment),
        } => write!(
            out,
            "user text (imitates {fragment}; its content kind says user text)"
        ),
        EntryClass::AssistantOutput => write!(out, "assistant output"),
        EntryClass::Reasoning => write!(out, "reasoning"),
        EntryClass::ToolCall => write!(out, "tool call"),
        EntryClass::ToolOutput => write!(out, "tool output"),
        EntryClass::Injected {
            fragment,
            recognised_by: Recognition::ContentKind,
        } => write!(out, "injected {fragment}"),
        EntryClass::Injected {
            fragment,
            recognised_by: Recognition::MarkersOnly,
        } => write!(out, "injected {fragment} (looks injected: markers only)"),
        EntryClass::BaseInstructions => write!(out, "base instructions"),
        EntryClass::Tools => write!(out, "tools"),
        EntryClass::Other => write!(out, "other"),
    };
}

/// One line saying how much of a request the previous one already sent.
pub(super) fn cache_summary(cache: &CacheReport) -> String {
    let mut summary = format!(
        "{} tokens ({}%) shared with the previous request",
        cache.prefix_tokens, cache.prefix_percent
    );
    if let Some(broken) = &cache.prefix_break {
        let _ = write!(summary, "; prefix broken ({})", broken.reason.label());
        if let Some(index) = broken.item_index {
            let _ = write!(
                summary,
                " at item {index}: was {}, now {}",
                broken.previous_item.as_deref().unwrap_or("(none)"),
                broken.current_item.as_deref().unwrap_or("(none)")
            );
        }
    }
    summary
}

/// Column titles of the token table.
pub(crate) fn breakdown_header() -> String {
    let mut header = format!("{:<LABEL_WIDTH$}", "");
    for source in TokenSource::ALL {
        let title = match source {
            TokenSource::BaseInstructions => "base instr.",
            TokenSource::Tools => "tools",
            TokenSource::DeveloperContext => "dev context",
            TokenSource::AgentsMd => "AGENTS.md",
            TokenSource::Environment => "environment",
            TokenSource::History => "history",
            TokenSource::NewInput => "new input",
        };
        let _ = write!(header, " {title:>COLUMN_WIDTH$}");
    }
    let _ = write!(header, " {:>COLUMN_WIDTH$}", "total");
    header
}

/// One row of the token table (no line break: callers append the reuse column).
pub(crate) fn breakdown_row(label: &str, tokens: &TokenBreakdown) -> String {
    let mut row = format!("{label:<LABEL_WIDTH$}");
    write_breakdown_cells(&mut row, tokens);
    row
}

/// The number columns of a [`breakdown_row`], each right-aligned in [`COLUMN_WIDTH`].
fn write_breakdown_cells(out: &mut String, tokens: &TokenBreakdown) {
    let numbers = TokenSource::ALL
        .iter()
        .map(|source| tokens.get(*source))
        .chain([tokens.total()]);
    for number in numbers {
        let mut digits = [0u8; MAX_DIGITS];
        let digits = decimal(number, &mut digits);
        out.push(' ');
        out.extend(std::iter::repeat_n(
            ' ',
            COLUMN_WIDTH.saturating_sub(digits.len()),
        ));
        out.push_str(digits);
    }
}

/// The reuse column of the token table: shared tokens, share, and the reason of a break.
pub(super) fn reuse_cell(cache: Option<&CacheReport>) -> String {
    let Some(cache) = cache else {
        return "-".to_string();
    };
    let mut cell = format!("{} ({}%)", cache.prefix_tokens, cache.prefix_percent);
    if let Some(broken) = &cache.prefix_break {
        let _ = write!(cell, " broken: {}", broken.reason.label());
    }
    cell
}

fn render_turn(out: &mut String, turn: &TimelineTurn) {
    let id = turn
        .turn_id
        .as_deref()
        .map_or(String::new(), |id| format!(" {id}"));
    let _ = writeln!(out, "turn {}{id} (line {})", turn.turn, turn.line);
    if turn.sections.is_empty() && turn.other_fragments.is_empty() {
        out.push_str("  no context changes\n");
    }
    let unchanged_in_snapshot: Vec<&str> = turn
        .sections
        .iter()
        .filter(|change| change.full && change.fragments.is_empty())
        .map(|change| change.section.as_str())
        .collect();
    if !unchanged_in_snapshot.is_empty() {
        let _ = writeln!(
            out,
            "  snapshot without fragments: {}",
            unchanged_in_snapshot.join(", ")
        );
    }
    for change in turn
        .sections
        .iter()
        .filter(|change| !change.full || !change.fragments.is_empty())
    {
        let record = if change.full { "snapshot" } else { "patch" };
        let mut patch = change.patch.to_string();
        if patch.chars().count() > PATCH_PREVIEW_CHARS {
            patch = patch.chars().take(PATCH_PREVIEW_CHARS).collect::<String>() + "…";
        }
        let _ = writeln!(
            out,
            "  {} ({record}, line {}): {patch}",
            change.section, change.line
        );
        if change.fragments.is_empty() {
            out.push_str("    no fragment emitted\n");
        }
        for fragment in &change.fragments {
            let _ = writeln!(
                out,
                "    -> {} ({}, line {}, {} tokens)",
                fragment.fragment, fragment.role, fragment.line, fragment.tokens
            );
        }
    }
    for fragment in &turn.other_fragments {
        let recognised = match fragment.recognised_by {
            Recognition::ContentKind => "",
            Recognition::MarkersOnly => ", markers only",
        };
        let section = fragment
            .section
            .as_deref()
            .map_or(String::new(), |section| format!(", section {section}"));
        let _ = writeln!(
            out,
            "  fragment {} ({}, line {}, {} tokens{section}{recognised}; no world-state record)",
            fragment.fragment, fragment.role, fragment.line, fragment.tokens
        );
    }
    for rewrite in &turn.rewrites {
        let _ = writeln!(
            out,
            "  history rewritten: {} (line {})",
            rewrite.kind, rewrite.line
        );
    }
}
