//! What is compared per scenario and release, in five columns. `A` is always the release,
//! `B` this project; every finding is one line of text.
//!
//! - first request: the release's first `/responses` body against `codex-context request`
//!   and the body `codex-context send` sent (with its headers);
//! - later requests: each step's requests against what this project's own chain (`send`,
//!   then `session resume --write` per step) sent for that step;
//! - inspect rebuild: the requests `inspect` rebuilds from the release's final rollout
//!   against the captured bodies;
//! - resume: `session resume` of the release's rollout after each step against the first
//!   request of the next step;
//! - rollout written: this project's rollout against the release's (line and event types in
//!   order, world-state records, key sets per line type, world-state section order).

use std::path::Path;

use codex_inspect::CompareInput;
use codex_inspect::InputKind;
use codex_inspect::InspectOptions;
use codex_inspect::ProseMode;
use codex_inspect::compare_inputs;
use codex_inspect::load_compare_input;
use codex_models_manager::ModelCatalog;
use serde_json::Value;

use super::headers::header_differences;
use super::ours::Invocation;
use super::ours::OursRun;
use super::real_run::RealRun;
use super::rollout_shape::rollout_shape;
use super::rollout_shape::shape_differences;

/// How findings about a `codex-context` invocation (failures, warnings) start.
const INVOCATION_PREFIX: &str = "codex-context ";

/// The table's columns, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Column {
    FirstRequest,
    LaterRequests,
    InspectRebuild,
    Resume,
    RolloutWritten,
}

impl Column {
    pub const ALL: [Column; 5] = [
        Column::FirstRequest,
        Column::LaterRequests,
        Column::InspectRebuild,
        Column::Resume,
        Column::RolloutWritten,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Column::FirstRequest => "first request",
            Column::LaterRequests => "later requests",
            Column::InspectRebuild => "inspect rebuild",
            Column::Resume => "resume",
            Column::RolloutWritten => "rollout written",
        }
    }
}

/// One column of one run: not applicable (a single request, a single step), or checked
/// with its findings (none: equal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    NotApplicable,
    Checked(Vec<String>),
}

/// Every column of one run, in [`Column::ALL`] order.
pub fn check_run(
    real: &RealRun,
    ours: &OursRun,
    catalog: &ModelCatalog,
    normalise: &dyn Fn(&str) -> String,
) -> Vec<(Column, Cell)> {
    let cells = [
        (Column::FirstRequest, first_request(real, ours)),
        (Column::LaterRequests, later_requests(real, ours)),
        (Column::InspectRebuild, inspect_rebuild(real, catalog)),
        (Column::Resume, resume(real, ours)),
        (Column::RolloutWritten, rollout_written(real, ours, catalog)),
    ];
    cells
        .into_iter()
        .map(|(column, cell)| {
            let cell = match cell {
                Cell::Checked(findings) => {
                    let mut lines: Vec<String> =
                        findings.iter().map(|line| normalise(line)).collect();
                    dedup_keep_order(&mut lines);
                    // What this project's commands said comes after what differs.
                    lines.sort_by_key(|line| line.starts_with(INVOCATION_PREFIX));
                    Cell::Checked(lines)
                }
                Cell::NotApplicable => Cell::NotApplicable,
            };
            (column, cell)
        })
        .collect()
}

fn dedup_keep_order(lines: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    lines.retain(|line| seen.insert(line.clone()));
}

fn request_lines(requests: Vec<Value>) -> CompareInput {
    CompareInput {
        kind: InputKind::RequestLines,
        requests,
        rollout: None,
    }
}

/// The structural differences of two request lists, one line each.
fn body_differences(a: Vec<Value>, b: Vec<Value>) -> Vec<String> {
    let report = compare_inputs(&request_lines(a), &request_lines(b), ProseMode::Ignore);
    report.differences.iter().map(ToString::to_string).collect()
}

/// An invocation's failure and warnings as findings. A warning that a model is not in the
/// catalog is none when the release said the same of that model.
fn invocation_findings(invocation: &Invocation, real: &RealRun) -> Vec<String> {
    let mut findings = Vec::new();
    if let Some(failure) = &invocation.failure {
        findings.push(format!(
            "codex-context {} failed: {failure}",
            invocation.label
        ));
    }
    for warning in &invocation.warnings {
        let shared = real
            .unknown_models
            .iter()
            .any(|model| warning.contains(&format!("model `{model}` is not in the catalog")));
        if shared {
            continue;
        }
        findings.push(format!(
            "codex-context {} warned: {warning}",
            invocation.label
        ));
    }
    findings
}

fn first_request(real: &RealRun, ours: &OursRun) -> Cell {
    let Some(real_first) = real.responses().first().copied() else {
        return Cell::Checked(vec!["the release sent no /responses request".to_string()]);
    };
    let mut findings = invocation_findings(&ours.request, real);
    let request_differences = match &ours.request.body {
        Some(body) => body_differences(vec![real_first.body.clone()], vec![body.clone()]),
        None => Vec::new(),
    };
    findings.extend(request_differences.iter().cloned());
    if let Some(body) = &ours.request.body
        && real_first.body.get("model") != body.get("model")
    {
        let show = |body: &Value| {
            body.get("model")
                .map_or("absent".to_string(), ToString::to_string)
        };
        findings.push(format!(
            "request 1: model: {} != {}",
            show(&real_first.body),
            show(body)
        ));
    }
    findings.extend(invocation_findings(&ours.send, real));
    if let Some(body) = &ours.send.body {
        for difference in body_differences(vec![real_first.body.clone()], vec![body.clone()]) {
            if !request_differences.contains(&difference) {
                findings.push(format!("send: {difference}"));
            }
        }
    }
    if let Some(sent) = &ours.send_request {
        findings.extend(header_differences(&real_first.headers, &sent.headers));
    }
    Cell::Checked(findings)
}

fn later_requests(real: &RealRun, ours: &OursRun) -> Cell {
    let steps = real.step_requests.len();
    let total: usize = real.step_requests.iter().map(Vec::len).sum();
    if steps <= 1 && total <= 1 {
        return Cell::NotApplicable;
    }
    let mut findings = Vec::new();
    let first_body = ours.send.body.clone().or_else(|| ours.request.body.clone());
    for (index, requests) in real.step_requests.iter().enumerate() {
        let step = index + 1;
        let ours_bodies: Vec<Value> = match index {
            0 if !ours.send_bodies.is_empty() => ours.send_bodies.clone(),
            0 => first_body.clone().into_iter().collect(),
            _ => match ours.chain.get(index - 1) {
                Some(invocation) => {
                    findings.extend(invocation_findings(invocation, real));
                    invocation.body.clone().into_iter().collect()
                }
                None => Vec::new(),
            },
        };
        let real_bodies: Vec<Value> = requests
            .iter()
            .filter_map(|&request| real.requests.get(request))
            .map(|request| request.body.clone())
            .collect();
        for difference in body_differences(real_bodies, ours_bodies) {
            // The first step's first request is the first-request column.
            if index == 0 && difference.starts_with("request 1:") {
                continue;
            }
            findings.push(format!("step {step}: {difference}"));
        }
    }
    Cell::Checked(findings)
}

fn rollout_input(path: &Path, catalog: &ModelCatalog) -> Result<CompareInput, String> {
    load_compare_input(path, &InspectOptions::new(catalog)).map_err(|error| error.to_string())
}

/// Damaged lines of a loaded rollout as findings.
fn rollout_warnings(input: &CompareInput, side: &str) -> Vec<String> {
    input
        .rollout
        .iter()
        .flat_map(|rollout| &rollout.warnings)
        .map(|warning| {
            format!(
                "{side} rollout line {} read with a warning: {}",
                warning.line_number, warning.message
            )
        })
        .collect()
}

fn inspect_rebuild(real: &RealRun, catalog: &ModelCatalog) -> Cell {
    let Some(rollout) = real.rollouts.last() else {
        return Cell::Checked(vec!["the release wrote no rollout".to_string()]);
    };
    let rebuilt = match rollout_input(rollout, catalog) {
        Ok(input) => input,
        Err(error) => return Cell::Checked(vec![format!("inspect cannot read: {error}")]),
    };
    let mut findings = rollout_warnings(&rebuilt, "the release's");
    let captured: Vec<Value> = real
        .responses()
        .iter()
        .map(|request| request.body.clone())
        .collect();
    let report = compare_inputs(&request_lines(captured), &rebuilt, ProseMode::Ignore);
    findings.extend(report.differences.iter().map(ToString::to_string));
    Cell::Checked(findings)
}

fn resume(real: &RealRun, ours: &OursRun) -> Cell {
    if real.step_requests.len() <= 1 {
        return Cell::NotApplicable;
    }
    let mut findings = Vec::new();
    for (index, requests) in real.step_requests.iter().enumerate().skip(1) {
        let step = index + 1;
        let Some(invocation) = ours.resumes.get(index - 1) else {
            continue;
        };
        findings.extend(invocation_findings(invocation, real));
        let real_first = requests
            .first()
            .and_then(|&request| real.requests.get(request))
            .map(|request| request.body.clone());
        let Some(body) = &invocation.body else {
            continue;
        };
        match real_first {
            None => findings.push(format!("step {step}: the release sent no request")),
            Some(real_body) => {
                for difference in body_differences(vec![real_body], vec![body.clone()]) {
                    let difference = difference
                        .strip_prefix("request 1: ")
                        .unwrap_or(&difference)
                        .to_string();
                    findings.push(format!("step {step}: {difference}"));
                }
            }
        }
    }
    Cell::Checked(findings)
}

fn rollout_written(real: &RealRun, ours: &OursRun, catalog: &ModelCatalog) -> Cell {
    let (Some(real_path), Some(ours_path)) = (real.rollouts.last(), ours.rollout.as_ref()) else {
        return Cell::Checked(vec!["this project wrote no rollout".to_string()]);
    };
    let mut findings = Vec::new();
    let inputs = (
        rollout_input(real_path, catalog),
        rollout_input(ours_path, catalog),
    );
    match inputs {
        (Ok(real_input), Ok(ours_input)) => {
            findings.extend(rollout_warnings(&ours_input, "this project's"));
            let report = compare_inputs(&real_input, &ours_input, ProseMode::Ignore);
            findings.extend(
                report
                    .differences
                    .iter()
                    .filter(|difference| difference.request.is_none())
                    .map(ToString::to_string),
            );
        }
        (Err(error), _) | (_, Err(error)) => findings.push(format!("cannot compare: {error}")),
    }
    let shapes = [real_path, ours_path].map(|path| {
        std::fs::read_to_string(path)
            .map(|text| rollout_shape(&text))
            .unwrap_or_default()
    });
    findings.extend(shape_differences(&shapes[0], &shapes[1]));
    Cell::Checked(findings)
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
