//! `model`: tells the model that the conversation moved to it from another model, together
//! with its own instructions.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::MODEL_SWITCH;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;

/// Inputs of the `model` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSectionInputs {
    /// Slug of the model sampling this step.
    pub model: String,
    /// The model used before, when known from previous-turn settings or from the provenance of
    /// stored base instructions; consulted only when no snapshot is usable.
    #[serde(default)]
    pub previous_model: Option<String>,
    /// The current model's instructions, repeated in the switch notice.
    #[serde(default)]
    pub instructions: String,
}

/// Snapshot: the model slug.
#[derive(Clone, Debug)]
pub struct ModelSection {
    inputs: ModelSectionInputs,
    switch_template: String,
}

impl ModelSection {
    pub fn new(inputs: ModelSectionInputs, templates: &TemplateSet) -> Self {
        Self {
            inputs,
            switch_template: templates.text(TemplateId::ModelSwitch).to_string(),
        }
    }
}

impl WorldStateSection for ModelSection {
    const ID: &'static str = "model";
    type Snapshot = String;

    fn snapshot(&self) -> String {
        self.inputs.model.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        MODEL_SWITCH.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    fn render_diff(&self, previous: PreviousSectionState<'_, String>) -> Option<SectionFragment> {
        let current = &self.inputs.model;
        let changed = match previous {
            PreviousSectionState::Known(stored) => stored != current,
            PreviousSectionState::Absent | PreviousSectionState::Unknown => self
                .inputs
                .previous_model
                .as_ref()
                .is_some_and(|previous_model| previous_model != current),
        };
        if !changed || self.inputs.instructions.is_empty() {
            return None;
        }
        Some(MODEL_SWITCH.fragment(render(
            &self.switch_template,
            &[("model_instructions", &self.inputs.instructions)],
        )))
    }
}

impl CatalogSection for ModelSection {
    type Inputs = ModelSectionInputs;

    fn from_inputs(
        inputs: ModelSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(_snapshot: String, _templates: &TemplateSet) -> Result<Self, &'static str> {
        Err("only the model slug, not the instructions its switch notice repeats")
    }
}

impl StepSection for ModelSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        Ok(Some(ModelSection::new(
            ModelSectionInputs {
                model: turn.model.slug.clone(),
                previous_model: turn.previous_model().map(str::to_string),
                instructions: turn.base_instructions.model_instructions().to_string(),
            },
            templates,
        )))
    }

    fn built_from(turn: &TurnContext) -> Vec<String> {
        vec![
            template_source(TemplateId::ModelSwitch),
            format!("instructions template of `{}`", turn.model.slug),
        ]
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
