//! `plugins_instructions`: guidance on plugins, shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::PLUGINS_INSTRUCTIONS;
use codex_prompts::TemplateId;

use super::guidance::GuidanceKind;
use super::guidance::GuidanceSection;

/// Marker type naming the `plugins_instructions` section.
#[derive(Debug)]
pub enum PluginsInstructions {}

impl GuidanceKind for PluginsInstructions {
    const ID: &'static str = "plugins_instructions";
    const SPEC: FragmentSpec = PLUGINS_INSTRUCTIONS;
    const TEMPLATE: TemplateId = TemplateId::GuidancePlugins;
}

/// The `plugins_instructions` section (snapshot: bool).
pub type PluginsInstructionsSection = GuidanceSection<PluginsInstructions>;

#[cfg(test)]
#[path = "plugins_instructions_tests.rs"]
mod tests;
