//! The specs of the fragments the world-state sections render, one module per section ID.
//! Sections live in codex-core (they need the turn context); they and the fragment registry
//! both take each fragment's role, content kind and markers from these constants, so a section
//! is recognised in history by exactly what it renders.

mod agents_md;
mod approved_command_prefixes;
mod apps_instructions;
mod collaboration_mode;
mod context_window;
mod context_window_guidance;
mod environments;
mod environments_instructions;
mod git_attribution;
mod managed_developer_instructions;
mod model;
mod model_catalog;
mod multi_agent_mode;
mod multi_agent_usage_hint;
mod persistent_mode;
mod personality;
mod plugins_instructions;
mod realtime;
mod tools;

// `permissions`: defined in codex-context-fragments, because codex-prompts renders that fragment
// and takes its role, content kind and markers from the same constant.
pub use codex_context_fragments::PERMISSIONS_INSTRUCTIONS;

pub use agents_md::AGENTS_MD_INSTRUCTIONS;
pub use approved_command_prefixes::APPROVED_COMMAND_PREFIX_SAVED;
pub use approved_command_prefixes::APPROVED_COMMAND_PREFIX_SAVED_PREFIX;
pub use approved_command_prefixes::approved_prefix_saved_fragment;
pub use apps_instructions::APPS_INSTRUCTIONS;
pub use collaboration_mode::COLLABORATION_MODE;
pub use context_window::CONTEXT_WINDOW;
pub use context_window_guidance::CONTEXT_WINDOW_GUIDANCE;
pub use environments::ENVIRONMENT_CONTEXT;
pub use environments_instructions::ENVIRONMENTS_INSTRUCTIONS;
pub use git_attribution::GIT_ATTRIBUTION;
pub use managed_developer_instructions::MANAGED_DEVELOPER_INSTRUCTIONS;
pub use model::MODEL_SWITCH;
pub use model_catalog::MODEL_CATALOG;
pub use multi_agent_mode::MULTI_AGENT_MODE;
pub use multi_agent_usage_hint::MULTI_AGENT_ROLE;
pub use multi_agent_usage_hint::MULTI_AGENT_USAGE_HINT;
pub use multi_agent_usage_hint::ROOT_AGENT_ROLE_PREFIX;
pub use persistent_mode::PERSISTENT_MODE;
pub use personality::PERSONALITY_SPEC;
pub use plugins_instructions::PLUGINS_INSTRUCTIONS;
pub use realtime::REALTIME_CUSTOM_START;
pub use realtime::REALTIME_END;
pub use realtime::REALTIME_START;
pub use tools::DEFERRED_TOOLS;
