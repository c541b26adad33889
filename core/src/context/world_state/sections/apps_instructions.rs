//! `apps_instructions`: guidance on apps (connectors), shown once when it becomes usable.

use codex_context_fragments::FragmentSpec;
use codex_fragments::sections::APPS_INSTRUCTIONS;
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

impl StepSection for AppsInstructionsSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        Ok(Some(AppsInstructionsSection::new(
            GuidanceSectionInputs {
                available: turn.apps.is_available()
                    && turn.features.enabled(Feature::Apps)
                    && turn.model.include_apps_usage_instructions,
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![template_source(TemplateId::GuidanceApps)]
    }
}

#[cfg(test)]
#[path = "apps_instructions_tests.rs"]
mod tests;
