//! Named gaps (`examples/real-codex/gaps.toml`): every difference the harness finds must
//! belong to one, by a pattern its text contains, optionally only for some releases,
//! scenarios or columns. A gap no difference belongs to is stale.

use std::path::Path;

use serde::Deserialize;

use crate::error::XtaskError;

/// The gap list, relative to the workspace root.
pub const GAPS_PATH: &str = "examples/real-codex/gaps.toml";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct GapFile {
    #[serde(rename = "gap", default)]
    gaps: Vec<Gap>,
}

/// One known difference between a release and this project, with its cause.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// `R1`, `R2`, …: how the table refers to it.
    pub id: String,
    /// A few words: what differs.
    pub title: String,
    /// Why it differs, investigated: what the release does and what this project does.
    pub cause: String,
    /// A difference belongs to the gap when its text contains one of these.
    pub patterns: Vec<String>,
    /// Only differences of these releases (all when empty).
    #[serde(default)]
    pub versions: Vec<String>,
    /// Only differences of these scenarios (all when empty).
    #[serde(default)]
    pub scenarios: Vec<String>,
    /// Only differences in these columns, by title (all when empty).
    #[serde(default)]
    pub columns: Vec<String>,
}

/// Where a difference was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FindingPlace<'a> {
    pub version: &'a str,
    pub scenario: &'a str,
    pub column: &'a str,
}

impl Gap {
    pub fn matches(&self, place: FindingPlace<'_>, text: &str) -> bool {
        let allowed =
            |list: &[String], value: &str| list.is_empty() || list.iter().any(|v| v == value);
        allowed(&self.versions, place.version)
            && allowed(&self.scenarios, place.scenario)
            && allowed(&self.columns, place.column)
            && self
                .patterns
                .iter()
                .any(|pattern| text.contains(pattern.as_str()))
    }
}

/// The first gap `text` belongs to.
pub fn assign<'a>(gaps: &'a [Gap], place: FindingPlace<'_>, text: &str) -> Option<&'a Gap> {
    gaps.iter().find(|gap| gap.matches(place, text))
}

pub fn load_gaps(path: &Path) -> Result<Vec<Gap>, XtaskError> {
    let text = std::fs::read_to_string(path).map_err(|source| XtaskError::io(path, source))?;
    parse_gaps(path, &text)
}

pub fn parse_gaps(path: &Path, text: &str) -> Result<Vec<Gap>, XtaskError> {
    let file: GapFile = toml::from_str(text).map_err(|source| XtaskError::Toml {
        path: path.to_path_buf(),
        source,
    })?;
    let mut ids = std::collections::BTreeSet::new();
    for gap in &file.gaps {
        if !ids.insert(gap.id.as_str()) {
            return Err(XtaskError::Invalid {
                path: path.to_path_buf(),
                message: format!("gap id `{}` is used twice", gap.id),
            });
        }
        if gap.patterns.iter().any(String::is_empty) || gap.patterns.is_empty() {
            return Err(XtaskError::Invalid {
                path: path.to_path_buf(),
                message: format!("gap `{}` needs non-empty patterns", gap.id),
            });
        }
    }
    Ok(file.gaps)
}
