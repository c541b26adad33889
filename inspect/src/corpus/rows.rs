//! One flat row per request, for dataframe tools (`inspect --format ndjson`): every column a
//! number, a string or null, with stable names.

use std::collections::HashMap;
use std::collections::HashSet;
use std::io::BufRead as _;
use std::io::BufReader;
use std::path::Path;

use codex_utils_fs::open_regular;
use serde::Deserialize;
use serde::Serialize;

use super::CorpusFile;
use super::percent;
use crate::inspect::BreakReason;
use crate::inspect::Inspection;
use crate::inspect::RequestKind;

/// One request of one rollout. Columns are documented in `cli/README.md`; their names and
/// types do not change between runs (a column that can be unknown is null, never missing).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestRow {
    /// `session_meta.id`; null when the rollout has none.
    pub session_id: Option<String>,
    /// The rollout: relative to the folder inspected, or as given for a single file.
    pub rollout: String,
    /// The release whose profile rebuilt the request (`0.149`, `0.171`).
    pub release: String,
    /// 1-based position among the rollout's requests.
    pub request: usize,
    /// `turn` (a sampling step) or `compaction` (a local compaction request).
    pub kind: RequestKind,
    /// 1-based turn; 0 before the first turn.
    pub turn: usize,
    pub turn_id: Option<String>,
    /// 1-based sampling step within the turn.
    pub step: usize,
    /// The rollout line the request is placed at (its answer's first line, or the line that
    /// ended the turn or recorded the compaction).
    pub line: usize,
    /// That line's `timestamp` (UTC, ISO 8601); null when it has none.
    pub timestamp: Option<String>,
    pub model: String,
    pub input_items: usize,
    /// Leading input items identical to the previous request's.
    pub carried_items: usize,
    pub tokens_base_instructions: usize,
    pub tokens_tools: usize,
    pub tokens_developer_context: usize,
    pub tokens_agents_md: usize,
    pub tokens_environment: usize,
    pub tokens_history: usize,
    pub tokens_new_input: usize,
    /// The sum of the seven `tokens_*` columns before it.
    pub tokens_total: usize,
    /// Tokens shared with the previous request (0 for a rollout's first request).
    pub prefix_tokens: usize,
    /// Leading input items shared with the previous request.
    pub prefix_items: usize,
    /// `prefix_tokens` as a percentage of `tokens_total`.
    pub prefix_percent: f64,
    /// Why the previous request is not a prefix of this one (`compaction`, `model_changed`,
    /// `instructions_changed`, `tools_changed`, `history_rewritten`); null when it is, or for a
    /// first request.
    pub break_reason: Option<BreakReason>,
    /// The first input item that differs, when the break is inside the input.
    pub break_item: Option<usize>,
    /// The model's context window in tokens; null when the catalog does not know it.
    pub context_window: Option<usize>,
    /// `tokens_total` as a percentage of `context_window`; null with it.
    pub window_percent: Option<f64>,
}

/// The rows of `inspection`, read from `file`.
pub(super) fn request_rows(
    file: &CorpusFile,
    inspection: &Inspection,
    windows: &HashMap<String, Option<usize>>,
) -> Vec<RequestRow> {
    let lines: HashSet<usize> = inspection
        .requests
        .iter()
        .map(|request| request.line)
        .collect();
    let timestamps = line_timestamps(&file.path, &lines);
    inspection
        .requests
        .iter()
        .map(|request| {
            let tokens = &request.tokens;
            let cache = request.cache.as_ref();
            let broken = cache.and_then(|cache| cache.prefix_break.as_ref());
            let context_window = windows.get(&request.model).copied().flatten();
            RequestRow {
                session_id: inspection.thread_id.clone(),
                rollout: file.name.clone(),
                release: inspection.release.name.clone(),
                request: request.number,
                kind: request.kind,
                turn: request.turn,
                turn_id: request.turn_id.clone(),
                step: request.step,
                line: request.line,
                timestamp: timestamps.get(&request.line).cloned(),
                model: request.model.clone(),
                input_items: request.input_items,
                carried_items: request.carried_items,
                tokens_base_instructions: tokens.base_instructions,
                tokens_tools: tokens.tools,
                tokens_developer_context: tokens.developer_context,
                tokens_agents_md: tokens.agents_md,
                tokens_environment: tokens.environment,
                tokens_history: tokens.history,
                tokens_new_input: tokens.new_input,
                tokens_total: request.total_tokens,
                prefix_tokens: cache.map_or(0, |cache| cache.prefix_tokens),
                prefix_items: cache.map_or(0, |cache| cache.prefix_items),
                prefix_percent: cache.map_or(0.0, |cache| cache.prefix_percent),
                break_reason: broken.map(|broken| broken.reason),
                break_item: broken.and_then(|broken| broken.item_index),
                context_window,
                window_percent: context_window.map(|window| percent(request.total_tokens, window)),
            }
        })
        .collect()
}

/// The `timestamp` of each of `lines` (1-based, counting every line of the file) that has one.
/// Reads the file once more, keeping only those lines' stamps; a file that can no longer be
/// read gives none.
fn line_timestamps(path: &Path, lines: &HashSet<usize>) -> HashMap<usize, String> {
    #[derive(Deserialize)]
    struct Stamped {
        timestamp: Option<String>,
    }
    let mut timestamps = HashMap::new();
    let Some(last) = lines.iter().max().copied() else {
        return timestamps;
    };
    let Ok(file) = open_regular(path) else {
        return timestamps;
    };
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    for number in 1..=last {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if lines.contains(&number)
            && let Ok(Stamped {
                timestamp: Some(timestamp),
            }) = serde_json::from_slice(&line)
        {
            timestamps.insert(number, timestamp);
        }
    }
    timestamps
}
