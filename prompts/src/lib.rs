//! Every model-visible sentence of the project, as Markdown templates under
//! `prompts/templates/` (embedded with `include_str!`), plus the renderer that fills their
//! `{{ name }}` placeholders, run-time overlays from a directory (`--prompts-dir`), and the
//! `<permissions instructions>` builder.
//!
//! `prompts/README.md` lists every template, its variables and where it is used.

mod error;
mod permissions;
mod prefixes;
mod render;
mod template_id;
mod template_set;

pub use error::PromptsError;
pub use permissions::CATALOG_NETWORK_ACCESS_PLACEHOLDER;
pub use permissions::CatalogApprovalMessages;
pub use permissions::CatalogPermissionMessages;
pub use permissions::DeniedRead;
pub use permissions::ExecPermissionApprovals;
pub use permissions::PermissionsInstructions;
pub use permissions::PermissionsInstructionsBuilder;
pub use permissions::RequestPermissionsTool;
pub use prefixes::MAX_LISTED_PREFIXES;
pub use prefixes::MAX_PREFIX_LIST_CHARS;
pub use prefixes::format_allow_prefixes;
pub use render::UndefinedVariable;
pub use render::check_variables;
pub use render::placeholder_names;
pub use render::render;
pub use template_id::TemplateId;
pub use template_set::TemplateSet;
pub use template_set::TemplateSource;
