//! `examples/upstream/`: the scripts, and the three tables of its README (scripted scenarios,
//! scenarios not expressible yet, known gaps).

use std::path::Path;
use std::path::PathBuf;

/// A scenario with a script, and what its README row says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedScenario {
    pub name: String,
    pub notes: String,
}

/// A captured scenario without a script, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnscriptedScenario {
    pub name: String,
    pub reason: String,
}

/// A known cause of differences: a difference belongs to it when its text contains one of the
/// patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownGap {
    pub id: String,
    pub patterns: Vec<String>,
    pub cause: String,
}

impl KnownGap {
    pub fn explains(&self, difference: &str) -> bool {
        self.patterns
            .iter()
            .any(|pattern| difference.contains(pattern.as_str()))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    pub dir: PathBuf,
    pub scripted: Vec<ScriptedScenario>,
    pub not_expressible: Vec<UnscriptedScenario>,
    pub gaps: Vec<KnownGap>,
}

const SCRIPTED_HEADING: &str = "## Scripted scenarios";
const NOT_EXPRESSIBLE_HEADING: &str = "## Not expressible yet";
const KNOWN_GAPS_HEADING: &str = "## Known gaps";

pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join("upstream")
}

impl Corpus {
    /// Reads `examples/upstream/README.md`.
    pub fn load() -> Corpus {
        let dir = corpus_dir();
        let readme = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
        let scripted = table_rows(&readme, SCRIPTED_HEADING)
            .into_iter()
            .map(|cells| match cells.as_slice() {
                [name, notes] => ScriptedScenario {
                    name: code_span(name),
                    notes: notes.clone(),
                },
                other => panic!("{SCRIPTED_HEADING}: a row has {} cells", other.len()),
            })
            .collect();
        let not_expressible = table_rows(&readme, NOT_EXPRESSIBLE_HEADING)
            .into_iter()
            .map(|cells| match cells.as_slice() {
                [name, reason] => UnscriptedScenario {
                    name: code_span(name),
                    reason: reason.clone(),
                },
                other => panic!("{NOT_EXPRESSIBLE_HEADING}: a row has {} cells", other.len()),
            })
            .collect();
        let gaps = table_rows(&readme, KNOWN_GAPS_HEADING)
            .into_iter()
            .map(|cells| match cells.as_slice() {
                [id, patterns, cause] => KnownGap {
                    id: id.clone(),
                    patterns: code_spans(patterns),
                    cause: cause.clone(),
                },
                other => panic!("{KNOWN_GAPS_HEADING}: a row has {} cells", other.len()),
            })
            .collect();
        Corpus {
            dir,
            scripted,
            not_expressible,
            gaps,
        }
    }

    pub fn script_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The scenario's CODEX_HOME, when it has one.
    pub fn codex_home(&self, name: &str) -> Option<PathBuf> {
        let home = self.dir.join(name).join("codex_home");
        home.is_dir().then_some(home)
    }

    /// Stems of the `*.json` files in the folder, sorted.
    pub fn script_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .expect("examples/upstream")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| {
                path.extension()
                    .is_some_and(|extension| extension == "json")
            })
            .map(|path| file_stem(&path))
            .collect();
        names.sort();
        names
    }

    pub fn gap_for(&self, difference: &str) -> Option<&KnownGap> {
        self.gaps.iter().find(|gap| gap.explains(difference))
    }
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|stem| stem.to_str())
        .expect("UTF-8 file name")
        .to_string()
}

/// The cells of each body row of the first table after `heading` (header and rule skipped).
fn table_rows(markdown: &str, heading: &str) -> Vec<Vec<String>> {
    let mut lines = markdown
        .lines()
        .skip_while(|line| line.trim() != heading)
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'));
    assert!(
        lines.next().is_some() && lines.next().is_some(),
        "README.md: no table under {heading:?}"
    );
    lines
        .map(|line| {
            line.trim()
                .trim_start_matches('|')
                .trim_end_matches('|')
                .split(" |")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// The text of the one code span a cell holds.
fn code_span(cell: &str) -> String {
    match code_spans(cell).as_slice() {
        [name] => name.clone(),
        _ => panic!("README.md: expected one `name` in {cell:?}"),
    }
}

fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}
