//! `inspect` against upstream captures: for every captured scenario with one rollout, the
//! requests rebuilt from the rollout match the captured `request-NN.json` bodies item for item.
//! Needs `CODEX_UPSTREAM_FIXTURES` (ignored without it; run with `-- --ignored`).
#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::Path;
use std::path::PathBuf;

use codex_core::ModelProviderKind;
use codex_inspect::InspectOptions;
use codex_inspect::RequestKind;
use codex_inspect::inspect_rollout;
use codex_inspect::rebuild_requests;
use codex_models_manager::ModelCatalog;
use codex_rollout::read_rollout;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Scenarios whose requests differ from what the rollout alone gives, and why.
enum Known {
    /// The test renames its provider to a non-OpenAI one, so item metadata is stripped on the
    /// wire, while `session_meta` still records `openai`.
    NonOpenAiProvider,
    /// As above, and request `n` (1-based) is a local compaction whose final item, the
    /// compaction prompt, is not recorded in the rollout.
    NonOpenAiProviderWithCompaction { request: usize },
}

const KNOWN: &[(&str, Known)] = &[
    (
        "compact_resume_fork.snapshot_rollback_followup_turn_trims_context_updates",
        Known::NonOpenAiProvider,
    ),
    (
        "compact_resume_fork.snapshot_rollback_past_compaction_replays_append_only_history",
        Known::NonOpenAiProviderWithCompaction { request: 2 },
    ),
];

fn files_with_prefix(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read scenario dir")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix))
        })
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn rebuilt_requests_match_captured_bodies_item_for_item() {
    let root = upstream_fixtures::captures();
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let mut scenarios: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("captures dir")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| path.is_dir())
        .collect();
    scenarios.sort();
    let mut checked = 0;
    for scenario in scenarios {
        let name = scenario
            .file_name()
            .and_then(|name| name.to_str())
            .expect("scenario name")
            .to_string();
        let rollouts = files_with_prefix(&scenario, "rollout-");
        if rollouts.len() != 1 {
            continue;
        }
        let known = KNOWN
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, known)| known);
        let mut options = InspectOptions::new(&catalog);
        if known.is_some() {
            options.provider = Some(ModelProviderKind::Other);
        }
        let loaded = read_rollout(&rollouts[0], None).expect("read rollout");
        let rebuilt = rebuild_requests(&loaded, &options).expect("rebuild");
        let captured: Vec<Value> = files_with_prefix(&scenario, "request-")
            .iter()
            .map(|path| {
                serde_json::from_str(&std::fs::read_to_string(path).expect("read request"))
                    .expect("request json")
            })
            .collect();
        assert_eq!(rebuilt.len(), captured.len(), "{name}: number of requests");
        for (number, (request, body)) in rebuilt.iter().zip(&captured).enumerate() {
            let number = number + 1;
            let mut expected = body["input"].as_array().expect("input array").clone();
            let mut actual = serde_json::to_value(&request.body.input).expect("serialize input");
            if let Some(Known::NonOpenAiProviderWithCompaction {
                request: compaction,
            }) = known
                && *compaction == number
            {
                // The rollout does not record the compaction prompt: upstream's text was sent,
                // this project's stands in, both a user message at the end of the request.
                assert_eq!(request.kind, RequestKind::Compaction, "{name} #{number}");
                let prompt = expected.pop().expect("compaction prompt");
                assert_eq!(prompt["role"], "user", "{name} #{number}: prompt role");
                let stand_in = actual
                    .as_array_mut()
                    .and_then(Vec::pop)
                    .expect("stand-in compaction prompt");
                assert_eq!(
                    (stand_in["type"].clone(), stand_in["role"].clone()),
                    (prompt["type"].clone(), prompt["role"].clone()),
                    "{name} #{number}: stand-in prompt"
                );
                assert_eq!(
                    (
                        serde_json::to_value(&request.body.tools).expect("tools"),
                        serde_json::to_value(request.body.parallel_tool_calls).expect("flag"),
                    ),
                    (body["tools"].clone(), body["parallel_tool_calls"].clone()),
                    "{name} #{number}: a compaction request offers no tools"
                );
            }
            assert_eq!(
                actual,
                Value::Array(expected),
                "{name} request {number}: input"
            );
            assert_eq!(
                request.body.instructions,
                body["instructions"].as_str().unwrap_or_default(),
                "{name} request {number}: instructions"
            );
            assert_eq!(
                request.body.model, body["model"],
                "{name} request {number}: model"
            );
        }
        // The inspection of the same rollout sees the same requests.
        let inspection = inspect_rollout(&loaded, &options).expect("inspect");
        assert_eq!(
            inspection.requests.len(),
            rebuilt.len(),
            "{name}: inspected requests"
        );
        for (report, request) in inspection.requests.iter().zip(&rebuilt) {
            assert_eq!(report.input_items, request.body.input.len(), "{name}");
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} scenarios checked");
}
