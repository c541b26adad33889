//! AGENTS.md discovery.
//!
//! Global instructions come from `$CODEX_HOME/AGENTS.override.md`, else
//! `$CODEX_HOME/AGENTS.md`. Project docs come from every directory between the
//! project root (the nearest ancestor of the cwd holding one of the
//! `project_root_markers`) and the cwd, root first; each directory contributes
//! at most one file. Without a root (or with no markers) only the cwd is
//! searched, and the walk never goes above the root.
//!
//! The result keeps every source path, the bytes kept and dropped per file and
//! the warnings, so callers can both build the model-visible text and explain
//! where it came from.

mod discover;
mod fs;
mod model;

pub use discover::agents_md_paths;
pub use discover::discover_agents_md;
pub use discover::discover_agents_md_blocking;
pub(crate) use discover::lexically_normalized;
pub use discover::load_global_instructions;
pub use discover::read_project_docs;
pub use fs::AgentsMdFileSystem;
pub use fs::EntryKind;
pub use fs::LocalFileSystem;
pub use model::AgentsMdDiscovery;
pub use model::AgentsMdEnvironment;
pub use model::AgentsMdError;
pub use model::AgentsMdRequest;
pub use model::AgentsMdWarning;
pub use model::EnvironmentRole;
pub use model::GlobalInstructions;
pub use model::InstructionScope;
pub use model::ProjectDoc;
pub use model::ProjectDocOptions;

/// Default file name scanned in every searched directory.
pub const DEFAULT_AGENTS_MD_FILENAME: &str = "AGENTS.md";
/// Local override preferred over `AGENTS.md` in the same directory.
pub const LOCAL_AGENTS_MD_FILENAME: &str = "AGENTS.override.md";
/// Placed once between user-level text and the first project doc.
pub const AGENTS_MD_SEPARATOR: &str = "\n\n--- project-doc ---\n\n";
/// Default `project_doc_max_bytes`: 32 KiB.
pub const DEFAULT_PROJECT_DOC_MAX_BYTES: usize = 32 * 1024;
/// Default `project_root_markers` entry.
pub const DEFAULT_PROJECT_ROOT_MARKER: &str = ".git";
/// Upper bound on metadata probes in flight at once, so very deep trees cannot
/// exhaust file descriptors or the blocking thread pool.
pub const MAX_CONCURRENT_ANCESTOR_PROBES: usize = 256;
