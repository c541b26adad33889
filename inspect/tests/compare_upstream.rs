//! `compare` on upstream's captured requests and rollouts (CODEX_UPSTREAM_FIXTURES): every
//! capture equals itself, and known scenario pairs differ exactly as their configurations do.

#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::fs;
use std::path::Path;
use std::path::PathBuf;

use codex_inspect::CompareReport;
use codex_inspect::Difference;
use codex_inspect::DifferenceDetail;
use codex_inspect::Position;
use codex_inspect::ProseMode;
use codex_inspect::compare_inputs;
use codex_inspect::load_compare_input;
use codex_models_manager::ModelCatalog;
use pretty_assertions::assert_eq;

fn compare_paths(a: &Path, b: &Path) -> CompareReport {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let a = load_compare_input(a, &codex_inspect::InspectOptions::new(&catalog)).expect("loads");
    let b = load_compare_input(b, &codex_inspect::InspectOptions::new(&catalog)).expect("loads");
    compare_inputs(&a, &b, ProseMode::Ignore)
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_capture_equals_itself() {
    let captures = upstream_fixtures::captures();
    let mut scenarios: Vec<PathBuf> = fs::read_dir(&captures)
        .expect("captures folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.is_dir())
        .collect();
    scenarios.sort();
    let mut unequal = Vec::new();
    let mut requests = 0;
    let mut rollouts = 0;
    for scenario in &scenarios {
        let mut files: Vec<PathBuf> = fs::read_dir(scenario)
            .expect("scenario folder")
            .map(|entry| entry.expect("entry").path())
            .collect();
        files.sort();
        let has_requests = files.iter().any(|file| {
            file.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("request-"))
        });
        let mut inputs: Vec<&Path> = files
            .iter()
            .filter(|file| {
                file.extension()
                    .is_some_and(|extension| extension == "jsonl")
            })
            .map(PathBuf::as_path)
            .collect();
        rollouts += inputs.len();
        if has_requests {
            inputs.push(scenario);
        }
        for input in inputs {
            let report = compare_paths(input, input);
            requests += report.requests_compared;
            if !report.is_structurally_equal() {
                unequal.push(format!("{}:\n{}", input.display(), report.render_text()));
            }
        }
    }

    assert_eq!(unequal, Vec::<String>::new());
    // INDEX.md: 53 scenarios, 108 request bodies, 62 rollout files.
    assert_eq!((scenarios.len(), rollouts), (53, 62));
    assert!(requests >= 108, "{requests} requests compared");
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn project_instructions_for_a_directory_differ_from_global_ones_by_their_header() {
    let captures = upstream_fixtures::captures();
    let report = compare_paths(
        &captures.join(
            "agents_md.agents_docs_are_concatenated_from_project_root_to_cwd/request-01.json",
        ),
        &captures.join("agents_md.untrusted_project_excludes_project_instructions/request-01.json"),
    );

    assert_eq!(
        report,
        CompareReport {
            requests_compared: 1,
            rollouts_compared: false,
            differences: vec![Difference {
                request: Some(1),
                position: Position::Entry {
                    a: 1,
                    b: 1,
                    entry: 0
                },
                detail: DifferenceDetail::Header {
                    classification: "agents_md".to_string(),
                    a: "# AGENTS.md instructions for <dir>".to_string(),
                    b: "# AGENTS.md instructions".to_string(),
                },
            }],
            prose_differences: Vec::new(),
        }
    );
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn a_changed_second_turn_adds_context_updates_that_an_unchanged_one_lacks() {
    let captures = upstream_fixtures::captures();
    let report = compare_paths(
        &captures.join("prompt_caching.send_user_turn_with_changes_sends_environment_context"),
        &captures.join(
            "prompt_caching.send_user_turn_with_no_changes_does_not_send_environment_context",
        ),
    );

    insta::assert_snapshot!(report.render_text(), @r#"
    request 2: tools: tool multi_agent_v1 only in A
    request 2: tools: tool apply_patch only in B
    request 2: tools: tool tool_search only in B
    request 2: tools: tool view_image parameters [path] != [detail, path]
    request 2: tools: tool web_search keys [external_web_access, type] != [external_web_access, search_content_types, type]
    request 2: reasoning: {"effort":"high","summary":"detailed"} != {"effort":"medium","summary":"auto"}
    request 2: text: absent != present
    request 2: input[3]: only in A (message/developer [model_switch])
    request 2: input[4]: only in A (message/developer [permissions])
    request 2: input[5]: only in A (message/user [environment_context])
    2 requests compared, 10 structural differences
    "#);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn requests_rebuilt_from_a_rollout_have_the_captured_input_items() {
    let captures = upstream_fixtures::captures();
    let scenario = captures.join("agents_md.agents_docs_are_concatenated_from_project_root_to_cwd");
    let rollout = fs::read_dir(&scenario)
        .expect("scenario folder")
        .map(|entry| entry.expect("entry").path())
        .find(|path| {
            path.extension()
                .is_some_and(|extension| extension == "jsonl")
        })
        .expect("one rollout");

    let report = compare_paths(&rollout, &scenario);

    // Rollouts record no tool list, so only the rebuilt input items are held to the capture.
    let input_differences: Vec<&Difference> = report
        .differences
        .iter()
        .filter(|difference| {
            matches!(
                difference.position,
                Position::Item { .. } | Position::Entry { .. }
            )
        })
        .collect();
    assert_eq!(
        (report.requests_compared, input_differences),
        (1, Vec::new())
    );
}
