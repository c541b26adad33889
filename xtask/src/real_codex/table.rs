//! Rendering `docs/real-codex-parity.md` from the runs: a summary line per release, the
//! table scenario × release × column, and every difference under its gap. The text holds
//! nothing that changes from run to run (no ids, times or temporary paths).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::checks::Cell;
use super::checks::Column;
use super::gaps::FindingPlace;
use super::gaps::Gap;
use super::gaps::assign;
use super::scenario::Scenario;

/// The generated table, relative to the workspace root.
pub const REAL_CODEX_DOC_PATH: &str = "docs/real-codex-parity.md";
/// Longest difference text shown in a table cell.
const CELL_TEXT: usize = 110;

/// One scenario run with one release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    pub scenario: String,
    pub version: String,
    /// The columns, or why the run could not be compared.
    pub outcome: Result<Vec<(Column, Cell)>, String>,
}

/// The rendered document and what makes it fail `--check` beyond being stale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub problems: Vec<String>,
}

/// Markdown code span text: no backticks, no table breaks, no line breaks.
fn code(text: &str) -> String {
    format!(
        "`{}`",
        text.replace('`', "'")
            .replace('|', "\\|")
            .replace('\n', " ")
    )
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(CELL_TEXT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Everything, in the order of `versions` and then of `scenarios`.
pub fn render(
    runs: &[RunResult],
    scenarios: &[Scenario],
    versions: &[&str],
    gaps: &[Gap],
) -> Rendered {
    let mut problems = Vec::new();
    // gap id (or "" for none) → difference text → runs showing it.
    let mut by_gap: BTreeMap<&str, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut rows = String::new();
    let mut summaries = String::new();
    for version in versions {
        let mut equal = [0usize; 5];
        let mut checked = [0usize; 5];
        let mut failed = 0;
        let mut distinct = std::collections::BTreeSet::new();
        for run in runs.iter().filter(|run| run.version == *version) {
            let place = |column: Column| FindingPlace {
                version,
                scenario: &run.scenario,
                column: column.title(),
            };
            let cells = match &run.outcome {
                Err(failure) => {
                    failed += 1;
                    problems.push(format!("{} with {version}: {failure}", run.scenario));
                    let _ = writeln!(
                        rows,
                        "| `{}` | {version} | run failed: {} | | | | |",
                        run.scenario,
                        code(failure)
                    );
                    continue;
                }
                Ok(cells) => cells,
            };
            let mut row = format!("| `{}` | {version} |", run.scenario);
            for (index, (column, cell)) in cells.iter().enumerate() {
                let findings = match cell {
                    Cell::NotApplicable => {
                        row.push_str(" — |");
                        continue;
                    }
                    Cell::Checked(findings) => findings,
                };
                checked[index] += 1;
                if findings.is_empty() {
                    equal[index] += 1;
                    row.push_str(" equal |");
                    continue;
                }
                for text in findings {
                    let gap = assign(gaps, place(*column), text);
                    let id = gap.map_or("", |gap| gap.id.as_str());
                    distinct.insert((id, text.clone()));
                    by_gap
                        .entry(id)
                        .or_default()
                        .entry(text.clone())
                        .or_default()
                        .push(format!("{}@{version} ({})", run.scenario, column.title()));
                }
                // The first difference with its gap, then how many more and their other gaps.
                let mut ids: Vec<&str> = Vec::new();
                for text in findings {
                    let id = assign(gaps, place(*column), text).map_or("?", |gap| gap.id.as_str());
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                let more = match (findings.len(), ids.len()) {
                    (1, _) => String::new(),
                    (n, 1) => format!(" (+{})", n - 1),
                    (n, _) => format!(" (+{}: {})", n - 1, ids[1..].join(", ")),
                };
                let _ = write!(row, " {}: {}{more} |", ids[0], code(&shorten(&findings[0])));
            }
            rows.push_str(&row);
            rows.push('\n');
        }
        let columns: Vec<String> = Column::ALL
            .iter()
            .enumerate()
            .map(|(index, column)| {
                format!("{} {}/{}", column.title(), equal[index], checked[index])
            })
            .collect();
        let unexplained = distinct.iter().filter(|(id, _)| id.is_empty()).count();
        let _ = writeln!(
            summaries,
            "- **{version}:** {} runs ({failed} failed); equal: {}; {} distinct differences, {unexplained} in no gap.",
            runs.iter().filter(|run| run.version == *version).count(),
            columns.join(", "),
            distinct.len(),
        );
    }

    let mut text = String::new();
    text.push_str(HEADER);
    text.push_str("\n## Summary\n\n");
    text.push_str(&summaries);
    text.push_str("\n## Runs\n\n");
    text.push_str("A cell is `equal`, `—` (nothing to compare: one request, one step), or the gap of its first difference, the difference, and how many more follow with their other gaps.\n\n");
    text.push_str("| scenario | release | first request | later requests | inspect rebuild | resume | rollout written |\n");
    text.push_str("|---|---|---|---|---|---|---|\n");
    text.push_str(&rows);

    text.push_str("\n## Gaps\n\n");
    text.push_str("Every difference, under the gap it belongs to (`examples/real-codex/gaps.toml`: patterns and causes), with the runs that show it as `scenario@release (column)`.\n");
    for gap in gaps {
        let _ = write!(
            text,
            "\n### {}: {}\n\n{}\n",
            gap.id,
            gap.title,
            gap.cause.trim()
        );
        match by_gap.get(gap.id.as_str()) {
            None => {
                problems.push(format!(
                    "gap {} ({}) matches no difference any more",
                    gap.id, gap.title
                ));
                text.push_str("\nNo difference belongs to this gap any more.\n");
            }
            Some(differences) => push_differences(&mut text, differences),
        }
    }
    if let Some(differences) = by_gap.get("") {
        text.push_str("\n## Differences no gap explains\n");
        push_differences(&mut text, differences);
        for (difference, places) in differences {
            problems.push(format!(
                "no gap explains `{difference}` ({})",
                places.join(", ")
            ));
        }
    }

    text.push_str("\n## Scenarios\n\n| scenario | steps | what it runs |\n|---|---:|---|\n");
    for scenario in scenarios {
        let _ = writeln!(
            text,
            "| `{}` | {} | {} |",
            scenario.name,
            scenario.steps.len(),
            scenario.about.replace('|', "\\|")
        );
    }
    Rendered { text, problems }
}

/// A table of differences and the runs that show them.
fn push_differences(text: &mut String, differences: &BTreeMap<String, Vec<String>>) {
    text.push_str("\n| difference | runs |\n|---|---|\n");
    for (difference, places) in differences {
        let _ = writeln!(text, "| {} | {} |", code(difference), places.join(", "));
    }
}

const HEADER: &str = "# Real Codex CLI parity

<!-- Generated by `cargo xtask real-codex` from examples/real-codex/; do not edit by hand. -->

The released Codex CLI (`@openai/codex` from the npm registry, pinned releases) runs every
scenario of [`examples/real-codex/`](../examples/real-codex/README.md) as a new user would:
`codex exec` (and `codex exec resume --last` for later steps) in a fresh HOME, CODEX_HOME and
git repository, its provider pointed at a loopback mock of the Responses API, every start-up
call-out turned off, and only connections to 127.0.0.1 allowed. This project then builds the
same turns on the same working directory and CODEX_HOME (`request`, `send`,
`session resume`), and `compare` checks the structure (prose ignored); the harness adds the
`model`, the HTTP headers, the rollouts' key sets per line type and their `turn_context`
settings by value. In every difference `A` is the release and `B` this project. Regenerate with
`cargo xtask real-codex`; `cargo xtask real-codex --check` fails when this file is stale, a run
fails or a difference belongs to no gap.
";
