//! Errors raised while loading a catalog.

use std::fmt;
use std::path::PathBuf;

/// Where a catalog document came from; every [`CatalogError`] names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogOrigin {
    /// The catalog compiled into this crate.
    Bundled,
    /// A user-supplied catalog file.
    File(PathBuf),
    /// JSON text handed over directly (tests, embedders).
    Inline,
    /// A provider's `/models` answer, merged into the bundled catalog (the endpoint URL).
    Remote(String),
    /// The models cache file, merged into the bundled catalog.
    Cache(PathBuf),
}

impl fmt::Display for CatalogOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogOrigin::Bundled => f.write_str("bundled model catalog"),
            CatalogOrigin::File(path) => write!(f, "model catalog {}", path.display()),
            CatalogOrigin::Inline => f.write_str("inline model catalog"),
            CatalogOrigin::Remote(url) => write!(f, "model catalog from {url}"),
            CatalogOrigin::Cache(path) => write!(f, "cached model catalog {}", path.display()),
        }
    }
}

/// A catalog could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("failed to read model catalog {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Invalid JSON, or JSON that is not a `ModelsResponse`. serde_json's message carries the line
    /// and column; [`CatalogError::position`] exposes them separately.
    #[error("invalid {origin}: {source}")]
    Parse {
        origin: CatalogOrigin,
        #[source]
        source: serde_json::Error,
    },
    /// A text the harness fills placeholders in names a variable it is never given.
    #[error(transparent)]
    UndefinedVariable(#[from] codex_prompts::UndefinedVariable),
}

impl CatalogError {
    /// One-based line and column of a parse error, when serde_json reported one.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            CatalogError::Read { .. } | CatalogError::UndefinedVariable(_) => None,
            CatalogError::Parse { source, .. } => {
                (source.line() > 0).then(|| (source.line(), source.column()))
            }
        }
    }
}
