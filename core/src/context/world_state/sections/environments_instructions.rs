//! `environments_instructions`: guidance on execution environments, shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::ENVIRONMENTS_INSTRUCTIONS;
use codex_prompts::TemplateId;

use super::guidance::GuidanceKind;
use super::guidance::GuidanceSection;

/// Marker type naming the `environments_instructions` section.
#[derive(Debug)]
pub enum EnvironmentsInstructions {}

impl GuidanceKind for EnvironmentsInstructions {
    const ID: &'static str = "environments_instructions";
    const SPEC: FragmentSpec = ENVIRONMENTS_INSTRUCTIONS;
    const TEMPLATE: TemplateId = TemplateId::GuidanceEnvironments;
}

/// The `environments_instructions` section (snapshot: bool).
pub type EnvironmentsInstructionsSection = GuidanceSection<EnvironmentsInstructions>;

#[cfg(test)]
#[path = "environments_instructions_tests.rs"]
mod tests;
