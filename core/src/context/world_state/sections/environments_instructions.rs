//! `environments_instructions`: guidance on execution environments, shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::ENVIRONMENTS_INSTRUCTIONS;
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

impl StepSection for EnvironmentsInstructionsSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        Ok(Some(EnvironmentsInstructionsSection::new(
            GuidanceSectionInputs {
                available: turn.inclusion.environment_context.is_included()
                    && turn.features.enabled(Feature::DeferredExecutor),
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![template_source(TemplateId::GuidanceEnvironments)]
    }
}

#[cfg(test)]
#[path = "environments_instructions_tests.rs"]
mod tests;
