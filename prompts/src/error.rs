use std::path::PathBuf;

use crate::UndefinedVariable;

/// Why a template directory could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum PromptsError {
    /// A directory of the overlay could not be listed.
    #[error("cannot read prompts directory {}: {source}", path.display())]
    ReadDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file (or directory entry) of the overlay could not be read.
    #[error("cannot read template file {}: {source}", path.display())]
    ReadFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A template file of the overlay is not valid UTF-8.
    #[error("template file {} is not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    /// A template file of the overlay names a variable its template is never given.
    #[error(transparent)]
    UndefinedVariable(#[from] UndefinedVariable),
}
