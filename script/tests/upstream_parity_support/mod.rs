//! The upstream scenario corpus (`examples/upstream/`): its README's tables, running each
//! script against upstream's catalog and comparing it with the capture, and the parity table
//! (`docs/upstream-parity.md`).

mod corpus;
mod run;
mod table;

pub use corpus::Corpus;
pub use run::Finding;
pub use run::Outcome;
pub use run::run_scenario;
pub use run::upstream_catalog;
pub use table::parity_doc_path;
pub use table::render_parity_doc;
