use thiserror::Error;

/// Inputs a fragment refuses because its rendering could not be recognised again.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FragmentError {
    /// Additional-context keys become tag names (`<external_KEY>`) and content kinds
    /// (`additional_content.KEY`).
    #[error(
        "invalid additional context key {key:?}: expected 1 to {max_bytes} bytes of ASCII \
         letters, digits, `_`, `-`, `.` or `:`"
    )]
    InvalidAdditionalContextKey { key: String, max_bytes: usize },
    /// Internal-context sources are embedded unescaped in an attribute and a content kind.
    #[error("invalid internal model context source {name:?}: expected [a-z][a-z0-9_]*")]
    InvalidInternalContextSource { name: String },
}
