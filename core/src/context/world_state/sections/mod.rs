//! The built-in world-state sections, one module per section ID, and the catalogue that
//! builds them from JSON inputs.

pub mod agents_md;
pub mod approved_command_prefixes;
pub mod apps_instructions;
pub mod collaboration_mode;
pub mod context_window;
pub mod context_window_guidance;
pub mod environments;
pub mod environments_instructions;
mod environments_xml;
pub mod git_attribution;
pub mod guidance;
pub mod managed_developer_instructions;
pub mod model;
pub mod multi_agent_mode;
pub mod multi_agent_usage_hint;
pub mod permissions;
pub mod personality;
pub mod plugins_instructions;
pub mod realtime;
pub mod skills;
pub mod tools;

use super::CatalogEntry;

/// Every built-in section in upstream registry order. Adding a section: its module above and
/// one row here.
pub(crate) static SECTION_CATALOG: &[CatalogEntry] = &[
    CatalogEntry::of::<model::ModelSection>(),
    CatalogEntry::of::<personality::PersonalitySection>(),
    CatalogEntry::of::<context_window::ContextWindowSection>(),
    CatalogEntry::of::<context_window_guidance::ContextWindowGuidanceSection>(),
    CatalogEntry::of::<realtime::RealtimeSection>(),
    CatalogEntry::of::<agents_md::AgentsMdSection>(),
    CatalogEntry::of::<permissions::PermissionsSection>(),
    CatalogEntry::of::<approved_command_prefixes::ApprovedCommandPrefixesSection>(),
    CatalogEntry::of::<collaboration_mode::CollaborationModeSection>(),
    CatalogEntry::of::<environments::EnvironmentsSection>(),
    CatalogEntry::of::<environments_instructions::EnvironmentsInstructionsSection>(),
    CatalogEntry::of::<apps_instructions::AppsInstructionsSection>(),
    CatalogEntry::of::<plugins_instructions::PluginsInstructionsSection>(),
    CatalogEntry::of::<tools::ToolsSection>(),
    CatalogEntry::of::<multi_agent_usage_hint::MultiAgentUsageHintSection>(),
    CatalogEntry::of::<multi_agent_mode::MultiAgentModeSection>(),
    CatalogEntry::of::<managed_developer_instructions::ManagedDeveloperInstructionsSection>(),
];
