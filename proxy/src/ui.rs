//! Pages the proxy serves itself (`codex-context proxy --ui`), under a path prefix no API
//! uses; every other path is forwarded as always.

use std::sync::Arc;

/// The prefix of every path the proxy answers itself when it has pages. Requests under it are
/// neither forwarded nor recorded.
pub const UI_PREFIX: &str = "/_codex-context/";

/// One answer of the pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiResponse {
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

/// What the proxy serves under [`UI_PREFIX`] instead of forwarding. The front end that renders
/// reports implements it (the proxy renders nothing itself); it is called on a blocking thread,
/// so it may read the recording and render.
pub trait UiPages: std::fmt::Debug + Send + Sync {
    /// The answer to a GET of `path`, what follows [`UI_PREFIX`] without the query (`""` for
    /// the page itself); `None` for a path it does not serve (a 404).
    fn get(&self, path: &str) -> Option<UiResponse>;
}

/// The pages a proxy serves, shared by its connections.
pub type SharedUiPages = Arc<dyn UiPages>;
