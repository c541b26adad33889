//! `apps_instructions`: guidance on apps (connectors), shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::APPS_INSTRUCTIONS;
use codex_prompts::TemplateId;

use super::guidance::GuidanceKind;
use super::guidance::GuidanceSection;

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
