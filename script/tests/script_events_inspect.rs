//! `inspect` on a rollout that holds every fragment type: the `events` example's rollout (real
//! turn events) plus a turn recording a rendering of each other registered type. Each type
//! must come out classified under its own name.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_events_support;
mod script_support;

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Component;
use std::path::PathBuf;

use codex_fragments::all_fragment_types;
use codex_fragments::classify;
use codex_inspect::EntryClass;
use codex_inspect::InspectOptions;
use codex_inspect::inspect_file;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_script::ContextMode;
use pretty_assertions::assert_eq;
use script_events_support::EXAMPLES_DIR_PLACEHOLDER;
use script_events_support::every_fragment_type_rollout;
use script_events_support::sample;
use script_support::example;
use script_support::examples_dir;
use script_support::run;

/// Set to rewrite the fixture from the current code.
const UPDATE_VAR: &str = "CODEX_UPDATE_FIXTURES";

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join("inspect")
        .join("every_fragment_type.jsonl")
}

/// The fixture as the current code writes it, with the examples folder replaced by a
/// placeholder.
fn generated_fixture() -> String {
    let script = example("events");
    let events = run(&script, ContextMode::Diffs);
    let lines = every_fragment_type_rollout(&events.rollout, &TemplateSet::embedded());
    let mut text = String::new();
    for line in &lines {
        text.push_str(&serde_json::to_string(line).unwrap());
        text.push('\n');
    }
    // Configuration normalizes paths lexically; so does this.
    let mut examples = PathBuf::new();
    for component in std::path::absolute(examples_dir()).unwrap().components() {
        match component {
            Component::ParentDir => {
                examples.pop();
            }
            Component::CurDir => {}
            other => examples.push(other),
        }
    }
    text.replace(examples.to_str().unwrap(), EXAMPLES_DIR_PLACEHOLDER)
}

#[test]
fn fixture_matches_the_generator() {
    let generated = generated_fixture();
    if std::env::var_os(UPDATE_VAR).is_some() {
        std::fs::write(fixture_path(), &generated).unwrap();
    }
    let stored = std::fs::read_to_string(fixture_path()).unwrap_or_default();
    assert!(
        without_path_dependent_hashes(&stored) == without_path_dependent_hashes(&generated),
        "{} is stale: rerun with {UPDATE_VAR}=1 and review the diff",
        fixture_path().display()
    );
}

/// The permissions fingerprint covers the writable roots, which hold the checkout's absolute
/// path; a placeholder can replace the path in text but not inside a hash, so the comparison
/// blanks that one value on both sides.
fn without_path_dependent_hashes(rollout: &str) -> Vec<serde_json::Value> {
    rollout
        .lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(hash) = value
                .pointer_mut("/payload/state/permissions/instructions")
                .filter(|hash| hash.is_string())
            {
                *hash = serde_json::Value::String("<PERMISSIONS_HASH>".to_string());
            }
            value
        })
        .collect()
}

#[test]
fn every_sample_is_recognised_as_its_type() {
    let templates = TemplateSet::embedded();
    for info in all_fragment_types() {
        let sample = sample(info, &templates);
        assert_eq!(
            classify(&sample.role, &sample.text, sample.kind.as_deref()).map(|found| found.name),
            Some(info.name),
            "{sample:?}"
        );
        if !info.spec.start_marker.is_empty() && !info.spec.end_marker.is_empty() {
            assert!(
                info.matches_text(&sample.text),
                "{} markers: {sample:?}",
                info.name
            );
        }
    }
}

/// One row per registered type, in registry order: how `inspect` classified its first entry.
#[test]
fn inspect_classifies_every_fragment_type_by_name() {
    let catalog = ModelCatalog::bundled().unwrap();
    let inspection = inspect_file(&fixture_path(), &InspectOptions::new(&catalog)).unwrap();
    let mut first_seen: BTreeMap<String, String> = BTreeMap::new();
    for request in &inspection.requests {
        for item in &request.items {
            for entry in &item.entries {
                let (name, recognised_by) = match &entry.class {
                    EntryClass::Injected {
                        fragment,
                        recognised_by,
                    } => (fragment.clone(), format!("{recognised_by:?}")),
                    EntryClass::BaseInstructions => {
                        ("base_instructions".to_string(), "ContentKind".to_string())
                    }
                    EntryClass::UserText { .. }
                    | EntryClass::AssistantOutput
                    | EntryClass::Reasoning
                    | EntryClass::ToolCall
                    | EntryClass::ToolOutput
                    | EntryClass::Tools
                    | EntryClass::Other => continue,
                };
                first_seen.entry(name).or_insert_with(|| {
                    format!(
                        "{:<9} {:<50} {:<11} turn {}",
                        item.role.as_deref().unwrap_or("-"),
                        entry.content_kind.as_deref().unwrap_or("(no kind)"),
                        recognised_by,
                        request.turn
                    )
                });
            }
        }
    }
    let registered: BTreeSet<&str> = all_fragment_types().iter().map(|info| info.name).collect();
    assert_eq!(
        first_seen
            .keys()
            .map(String::as_str)
            .collect::<BTreeSet<_>>(),
        registered
    );
    let table: Vec<String> = all_fragment_types()
        .iter()
        .map(|info| format!("{:<42} {}", info.name, first_seen[info.name]))
        .collect();
    insta::assert_snapshot!("every_fragment_type", table.join("\n"));
}
