//! The upstream scenario corpus as tests: every script in `examples/upstream/` replays a
//! captured upstream scenario (CODEX_UPSTREAM_FIXTURES) and must compare equal with it, up to
//! the known gaps its README lists; every captured scenario is scripted or listed as not
//! expressible; `docs/upstream-parity.md` is the table of outcomes (`cargo xtask parity`
//! rewrites it: this test does when CODEX_PARITY_UPDATE=1).

#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

mod upstream_parity_support;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use codex_script::Script;
use pretty_assertions::assert_eq;
use upstream_parity_support::Corpus;
use upstream_parity_support::Outcome;
use upstream_parity_support::parity_doc_path;
use upstream_parity_support::render_parity_doc;
use upstream_parity_support::run_scenario;
use upstream_parity_support::upstream_catalog;

/// Names of the captured scenarios, sorted.
fn captured_scenarios(fixtures: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures.join("captures"))
        .expect("captures folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.is_dir())
        .map(|path| {
            path.file_name()
                .expect("folder name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Every scripted scenario's outcome, in README order, computed once per test binary.
fn outcomes(corpus: &Corpus, fixtures: &std::path::Path) -> &'static [Outcome] {
    static OUTCOMES: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        let catalog = upstream_catalog(fixtures);
        corpus
            .scripted
            .iter()
            .map(|scenario| run_scenario(corpus, fixtures, &catalog, &scenario.name))
            .collect()
    })
}

#[test]
fn readme_lists_every_script_once() {
    let corpus = Corpus::load();
    let listed: Vec<String> = corpus
        .scripted
        .iter()
        .map(|scenario| scenario.name.clone())
        .collect();
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(listed, sorted, "scripted scenarios: sorted, each once");
    assert_eq!(corpus.script_files(), listed, "README rows vs *.json files");
    let unscripted: BTreeSet<&str> = corpus
        .not_expressible
        .iter()
        .map(|scenario| scenario.name.as_str())
        .collect();
    let both: Vec<&str> = listed
        .iter()
        .map(String::as_str)
        .filter(|name| unscripted.contains(name))
        .collect();
    assert_eq!(
        both,
        Vec::<&str>::new(),
        "scripted and not expressible at once"
    );
    for scenario in &corpus.not_expressible {
        assert!(
            !scenario.reason.is_empty(),
            "{}: no reason given",
            scenario.name
        );
    }
    for gap in &corpus.gaps {
        assert!(!gap.patterns.is_empty(), "{}: no patterns", gap.id);
    }
    for name in &listed {
        Script::load(&corpus.script_path(name)).expect("script parses");
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn every_captured_scenario_is_scripted_or_listed() {
    let fixtures = upstream_fixtures::root();
    let corpus = Corpus::load();
    let mut accounted: Vec<String> = corpus
        .scripted
        .iter()
        .map(|scenario| scenario.name.clone())
        .chain(
            corpus
                .not_expressible
                .iter()
                .map(|scenario| scenario.name.clone()),
        )
        .collect();
    accounted.sort();
    assert_eq!(accounted, captured_scenarios(&fixtures));
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn scripts_compare_equal_up_to_known_gaps() {
    let fixtures = upstream_fixtures::root();
    let corpus = Corpus::load();
    let outcomes = outcomes(&corpus, &fixtures);
    let mut problems = Vec::new();
    for outcome in outcomes {
        if let Some(failure) = &outcome.failure {
            problems.push(format!("{}: {failure}", outcome.name));
        }
        for finding in outcome.findings() {
            if corpus.gap_for(&finding.detail).is_none() {
                problems.push(format!("{}: {}", outcome.name, finding.line));
            }
        }
    }
    // A gap nothing shows any more has been closed: its row must go, so the table says so.
    for gap in &corpus.gaps {
        for pattern in &gap.patterns {
            let seen = outcomes
                .iter()
                .flat_map(Outcome::findings)
                .any(|finding| finding.detail.contains(pattern.as_str()));
            if !seen {
                problems.push(format!(
                    "known gap {} no longer shows `{pattern}`: remove it from examples/upstream/README.md",
                    gap.id
                ));
            }
        }
    }
    assert_eq!(problems, Vec::<String>::new());
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn parity_table_is_current() {
    let fixtures = upstream_fixtures::root();
    let corpus = Corpus::load();
    let doc = render_parity_doc(
        &corpus,
        outcomes(&corpus, &fixtures),
        captured_scenarios(&fixtures).len(),
    );
    let path = parity_doc_path();
    if std::env::var_os("CODEX_PARITY_UPDATE").is_some_and(|value| value == "1") {
        std::fs::write(&path, &doc).expect("write docs/upstream-parity.md");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        current, doc,
        "docs/upstream-parity.md is out of date: run `cargo xtask parity`"
    );
}
