//! World state: the typed, persisted description of what the model has been told about its
//! situation (model, permissions, AGENTS.md, environments, …), and the diffing that decides
//! which context fragments must be appended so the model's view catches up.
//!
//! A [`WorldState`] is an insertion-ordered list of sections built fresh for each sampling
//! step. Its [`WorldStateSnapshot`] is persisted (full, then RFC 7386 merge patches), and the
//! next step renders only what changed relative to that baseline, falling back to recognising
//! fragments in retained history when no usable snapshot exists.
//!
//! Adding a section: one file under `sections/` implementing [`WorldStateSection`] and
//! [`CatalogSection`], plus one line in the catalogue list in `sections/mod.rs`.

mod catalog;
mod erased;
mod error;
mod extension;
mod history;
mod registry;
mod section;
pub mod sections;
mod snapshot;
mod transition;

pub use catalog::CatalogEntry;
pub use catalog::CatalogSection;
pub use catalog::build_catalog_section;
pub use catalog::catalog_section_ids;
pub use erased::ErasedWorldStateSection;
pub use erased::normalize_snapshot;
pub use error::WorldStateError;
pub use extension::ExtensionFragmentMatcher;
pub use extension::ExtensionRenderer;
pub use extension::PreviousWorldStateSection;
pub use extension::RenderedWorldStateFragment;
pub use extension::WorldStateSectionContribution;
pub use history::FragmentHistory;
pub use history::FragmentMatchPurpose;
pub use history::FragmentQuery;
pub use history::HistoryFragmentIndex;
pub use history::IndexedHistory;
pub use registry::HOST_SKILLS_SECTION_ID;
pub use registry::PERMISSIONS_SECTION_ID;
pub use registry::WorldState;
pub use section::PreviousSectionState;
pub use section::WorldStateSection;
pub use snapshot::WorldStateSnapshot;
pub use transition::PreviousSectionArg;
#[cfg(test)]
pub use transition::describe_rendered;
#[cfg(test)]
pub use transition::render_transition_cases;
pub use transition::world_state_diff_cli;

#[cfg(test)]
#[path = "world_state_tests.rs"]
mod tests;
