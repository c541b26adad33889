//! `docs/releases.md` names, for every difference between the supported releases, the
//! scenario that shows it and the profile field (or catalog data) behind it: every scenario
//! named exists in `examples/real-codex/`, and every profile field named is a field of
//! `ReleaseProfile`, so the page cannot drift from the code unnoticed.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// The backticked words of a table cell.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The rows of every table of the page: (difference, scenarios, field).
fn rows(page: &str) -> Vec<(String, String, String)> {
    page.lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| difference"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            assert_eq!(cells.len(), 3, "a row of three cells: {line}");
            (
                cells[0].trim().to_string(),
                cells[1].trim().to_string(),
                cells[2].trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_scenario_and_profile_field_the_page_names_exists() {
    let root = root();
    let page = std::fs::read_to_string(root.join("docs/releases.md")).expect("docs/releases.md");
    let scenarios: BTreeSet<String> = std::fs::read_dir(root.join("examples/real-codex"))
        .expect("examples/real-codex")
        .filter_map(|entry| {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .to_string();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    let profile = std::fs::read_to_string(root.join("release/src/profile.rs")).expect("profile.rs");
    let fields: BTreeSet<&str> = profile
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub "))
        .filter_map(|rest| rest.split_once(':').map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();

    let rows = rows(&page);
    assert!(
        rows.len() >= 20,
        "the page lists the differences: {}",
        rows.len()
    );
    let mut unknown = Vec::new();
    for (difference, scenario_cell, field_cell) in &rows {
        let named: Vec<&str> = code_spans(scenario_cell);
        assert!(
            !named.is_empty() || scenario_cell.starts_with("every scenario"),
            "a scenario for: {difference}"
        );
        for scenario in named {
            let known = match scenario.strip_suffix('*') {
                Some(prefix) => scenarios.iter().any(|name| name.starts_with(prefix)),
                None => scenarios.contains(scenario),
            };
            if !known {
                unknown.push(format!("scenario {scenario}"));
            }
        }
        // "catalog data: `…`" names a field of the bundled catalog, not of the profile.
        let profile_fields = match field_cell.starts_with("catalog data") {
            true => Vec::new(),
            false => code_spans(field_cell),
        };
        for field in profile_fields
            .into_iter()
            .filter(|span| !span.contains(['/', '.', ' ']))
        {
            if !fields.contains(field) {
                unknown.push(format!("profile field {field}"));
            }
        }
    }
    assert_eq!(unknown, Vec::<String>::new());
}
