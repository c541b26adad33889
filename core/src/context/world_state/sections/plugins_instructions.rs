//! `plugins_instructions`: guidance on plugins, shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::PLUGINS_INSTRUCTIONS;
use codex_prompts::TemplateId;

use super::guidance::GuidanceKind;
use super::guidance::GuidanceSection;
use super::guidance::GuidanceSectionInputs;
use crate::context::world_state::WorldStateError;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_config::Feature;
use codex_prompts::TemplateSet;

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

impl StepSection for PluginsInstructionsSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        Ok(Some(PluginsInstructionsSection::new(
            GuidanceSectionInputs {
                available: turn.plugins.is_available()
                    && turn.features.enabled(Feature::Plugins)
                    && turn.model.include_plugin_usage_instructions,
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![template_source(TemplateId::GuidancePlugins)]
    }
}

#[cfg(test)]
#[path = "plugins_instructions_tests.rs"]
mod tests;
