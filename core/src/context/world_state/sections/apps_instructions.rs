//! `apps_instructions`: guidance on apps (connectors), shown once when it becomes usable.

use codex_prompts::TemplateId;

use super::guidance::GuidanceKind;
use super::guidance::GuidanceSection;
use crate::context::world_state::DEVELOPER_ROLE;
use crate::context::world_state::FragmentSpec;
use crate::context::world_state::MessagePlacement;

/// The `<apps_instructions>` fragment.
pub const APPS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "apps.instructions",
    start_marker: "<apps_instructions>",
    end_marker: "</apps_instructions>",
    placement: MessagePlacement::Mergeable,
};

/// Marker type naming the `apps_instructions` section.
#[derive(Debug)]
pub enum AppsInstructions {}

impl GuidanceKind for AppsInstructions {
    const ID: &'static str = "apps_instructions";
    const SPEC: FragmentSpec = APPS_INSTRUCTIONS;
    const TEMPLATE: TemplateId = TemplateId::GuidanceApps;
}

/// The `apps_instructions` section (snapshot: bool).
pub type AppsInstructionsSection = GuidanceSection<AppsInstructions>;

#[cfg(test)]
#[path = "apps_instructions_tests.rs"]
mod tests;
