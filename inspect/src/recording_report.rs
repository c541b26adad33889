//! A proxy recording as an [`Inspection`]: the bodies the agent really sent, classified and
//! measured as `inspect` measures the requests it rebuilds from a rollout, so the JSON and HTML
//! reports (and `codex-context proxy --ui`) render a recording with the same code.

use codex_proxy::Outcome;
use codex_proxy::RecordedExchange;
use codex_proxy::Recording;
use serde_json::Value;

use crate::compare::tool_names;
use crate::inspect::ExchangeReport;
use crate::inspect::Inspection;
use crate::inspect::RecordingReport;
use crate::inspect::ReleaseReport;
use crate::inspect::RequestKind;
use crate::inspect::RequestReport;
use crate::inspect::RequestStatsAccumulator;
use crate::inspect::ToolsOrigin;
use crate::inspect::ToolsReport;
use crate::recording::TurnCounter;
use crate::recording::parse_recorded_request;

/// What the release report says of a recording: nothing is rebuilt, so no profile is used.
const RECORDED_RELEASE: &str = "as recorded";
const RECORDED_REASON: &str = "the bodies the agent sent, as the proxy recorded them";

/// Every Responses request of `recording`, thread by thread in its order, each with what
/// became of its exchange; `folder` is the path the user named. Prefix reuse is measured
/// against the previous request of the same thread. A body this project cannot read is named
/// in a warning.
pub fn inspect_recording(recording: &Recording, folder: &str) -> Inspection {
    let mut requests: Vec<RequestReport> = Vec::new();
    let mut warnings = Vec::new();
    let mut exchanges = 0;
    let mut failed = 0;
    for thread in &recording.threads {
        let mut stats = RequestStatsAccumulator::new();
        let mut turns = TurnCounter::default();
        let mut step = (0, 0);
        for exchange in &thread.exchanges {
            exchanges += 1;
            if exchange.outcome == Some(Outcome::Failed) {
                failed += 1;
            }
            let Some(body) = &exchange.request else {
                continue;
            };
            let Some(request) = parse_recorded_request(body) else {
                warnings.push(format!(
                    "{} request {}: not a Responses request this project can read",
                    thread.key, exchange.number
                ));
                continue;
            };
            let turn = turns.turn(exchange.turn_id.as_deref());
            let turn_number = turn.unwrap_or(0);
            step = match step {
                (last, steps) if last == turn_number && turn.is_some() => (last, steps + 1),
                _ => (turn_number, 1),
            };
            let stat = stats.add(&request).clone();
            let items = stats.take_items();
            let tools = body.get("tools").and_then(Value::as_array);
            requests.push(RequestReport {
                number: requests.len() + 1,
                kind: RequestKind::Turn,
                turn: turn_number,
                turn_id: exchange.turn_id.clone(),
                step: step.1,
                line: 0,
                model: request.model.clone(),
                instructions_in_field: !request.instructions.is_empty(),
                tools: ToolsReport {
                    origin: ToolsOrigin::Recorded,
                    names: tools
                        .map(|tools| tool_names(tools))
                        .unwrap_or_default()
                        .into(),
                    in_field: tools.is_some(),
                    bytes: tools
                        .and_then(|tools| serde_json::to_string(tools).ok())
                        .map_or(0, |text| text.len()),
                    tokens: stat.tokens.tools,
                },
                input_items: request.input.len(),
                carried_items: request.input.len() - items.len(),
                items,
                tokens: stat.tokens,
                total_tokens: stat.total_tokens,
                cache: stat.cache,
                unrecorded: Vec::new(),
                exchange: Some(exchange_report(&thread.key, exchange)),
            });
        }
    }
    let thread_id = match recording.threads.as_slice() {
        [thread] => Some(thread.key.clone()),
        _ => None,
    };
    Inspection {
        thread_id,
        release: ReleaseReport {
            name: RECORDED_RELEASE.to_string(),
            chosen_because: RECORDED_REASON.to_string(),
        },
        rollout_lines: 0,
        base_instructions: None,
        requests,
        timeline: Vec::new(),
        warnings,
        recording: Some(RecordingReport {
            folder: folder.to_string(),
            threads: recording.threads.len(),
            exchanges,
            failed,
        }),
    }
}

fn exchange_report(thread: &str, exchange: &RecordedExchange) -> ExchangeReport {
    let usage = |pointer: &str| {
        exchange
            .usage
            .as_ref()
            .and_then(|usage| usage.pointer(pointer))
            .and_then(Value::as_u64)
    };
    ExchangeReport {
        thread: thread.to_string(),
        number: exchange.number,
        status: exchange.status,
        total_ms: exchange.total_ms,
        input_tokens: usage("/input_tokens"),
        cached_tokens: usage("/input_tokens_details/cached_tokens"),
        output_tokens: usage("/output_tokens"),
        failure: match exchange.outcome {
            Some(Outcome::Completed) => None,
            Some(Outcome::Failed) => Some(
                exchange
                    .reason
                    .clone()
                    .unwrap_or_else(|| "failed".to_string()),
            ),
            None => Some("the recording ends before this exchange did".to_string()),
        },
    }
}
