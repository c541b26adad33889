//! The built-in world-state sections, one module per section ID. Their order and every view of
//! them come from the registry in [`world_state_for_step`](crate::context::world_state_for_step).

pub mod agents_md;
pub mod approved_command_prefixes;
pub mod apps_instructions;
pub mod collaboration_mode;
pub mod context_window;
pub mod context_window_guidance;
pub mod environments;
mod environments_filesystem;
pub mod environments_instructions;
mod environments_xml;
pub mod git_attribution;
pub mod guidance;
pub mod managed_developer_instructions;
pub mod model;
pub mod model_catalog;
pub mod multi_agent_mode;
pub mod multi_agent_usage_hint;
pub mod orchestrator_skills;
pub mod permissions;
pub mod persistent_mode;
pub mod personality;
pub mod plugins_instructions;
pub mod realtime;
pub mod skills;
pub mod tools;
pub mod top_level_tools;
