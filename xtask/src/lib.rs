//! Developer tasks for this workspace (`cargo xtask <task>`), as library functions that take
//! the workspace root so tests can run them on a copy of the tree.
//!
//! - [`check_architecture`]: the crate graph points one way, `codex-core` exports through
//!   `pub use` and stays within its size.
//! - [`regenerate_prompts`] / [`check_prompts`] / [`list_prompts`]: `prompts/templates/` is the
//!   single source of every model-visible text. The bundled catalog's instruction fields are
//!   generated from it through `prompts/models.toml`, and every template must be embedded by a
//!   crate (`include_str!`) or named by that manifest.
//! - [`run_snapshots`]: the insta suites and their pending snapshots.
//! - [`upstream_compare`]: the bundled catalog's facts against another catalog.
//! - [`run_parity`]: upstream's captured scenarios replayed from `examples/upstream/`, and the
//!   parity table `docs/upstream-parity.md`.
//! - [`gen_rollout`]: deterministic rollouts in a release's line shapes, for benchmarks.
//! - [`run_real_codex`]: the released Codex CLI run on `examples/real-codex/` against a
//!   loopback mock and compared with this project, and the table `docs/real-codex-parity.md`.

mod architecture;
pub mod bench_e2e;
mod cargo;
mod catalog;
mod diff;
mod error;
pub mod gen_rollout;
mod include_resolution;
mod includes;
mod listing;
mod manifest;
mod parity;
mod prompts_check;
pub mod real_codex;
mod rust_tokens;
mod snapshots;
mod upstream_compare;

#[cfg(test)]
mod test_support;

pub use architecture::ArchitectureProblem;
pub use architecture::ArchitectureReport;
pub use architecture::CORE_LINE_LIMIT;
pub use architecture::CORE_PUBLIC_MODULES;
pub use architecture::CRATE_LAYERS;
pub use architecture::CrateLayer;
pub use architecture::check_architecture;
pub use catalog::ChangeSource;
pub use catalog::FieldChange;
pub use catalog::GeneratedCatalog;
pub use catalog::generate_catalog;
pub use diff::unified_diff;
pub use error::XtaskError;
pub use includes::Include;
pub use includes::IncludeScan;
pub use includes::SourceSite;
pub use includes::UnresolvedInclude;
pub use listing::list_prompts;
pub use listing::placeholder_names;
pub use manifest::CatalogField;
pub use manifest::Manifest;
pub use manifest::ModelEntry;
pub use manifest::PersonalitySet;
pub use manifest::PersonalitySlot;
pub use manifest::PersonalityText;
pub use parity::FIXTURES_ENV;
pub use parity::PARITY_DOC_PATH;
pub use parity::ParityMode;
pub use parity::ParityOutcome;
pub use parity::locate_fixtures;
pub use parity::run_parity;
pub use prompts_check::BUNDLED_CATALOGS;
pub use prompts_check::CATALOG_PATH;
pub use prompts_check::MANIFEST_PATH;
pub use prompts_check::Problem;
pub use prompts_check::Regeneration;
pub use prompts_check::TEMPLATES_DIR;
pub use prompts_check::check_prompts;
pub use prompts_check::regenerate_prompts;
pub use real_codex::RealCodexOptions;
pub use real_codex::RealCodexOutcome;
pub use real_codex::run_real_codex;
pub use snapshots::SnapshotRun;
pub use snapshots::SnapshotRunner;
pub use snapshots::SnapshotVerdict;
pub use snapshots::pending_snapshots;
pub use snapshots::run_snapshots;
pub use upstream_compare::CatalogComparison;
pub use upstream_compare::CompareScope;
pub use upstream_compare::FieldDifference;
pub use upstream_compare::ModelComparison;
pub use upstream_compare::ModelOutcome;
pub use upstream_compare::compare_catalogs;
pub use upstream_compare::load_catalog;
pub use upstream_compare::upstream_compare;
