//! `personality`: tells the model about a communication style chosen after its base
//! instructions were written.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::PERSONALITY_SPEC;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use codex_protocol::config_types::Personality;
use codex_release::PersonalitySupport;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_config::Feature;
use codex_models_manager::personality_message;

/// Whether the base instructions already carry the personality text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseInstructionsPersonality {
    /// The personality must be stated separately when nothing was said before.
    #[default]
    NotIncluded,
    /// The base instructions were rendered with the personality already in them.
    Included,
}

/// Snapshot of the `personality` section, and the (model, personality) pair of the previous
/// turn that Unknown and Absent states are compared with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonalitySnapshot {
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personality: Option<Personality>,
}

/// Inputs of the `personality` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonalitySectionInputs {
    pub model: String,
    #[serde(default)]
    pub personality: Option<Personality>,
    /// Model and personality of the previous turn (from the reference context), if any.
    #[serde(default)]
    pub previous: Option<PersonalitySnapshot>,
    /// The model catalog's text for the chosen personality; empty means none.
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub base_instructions: BaseInstructionsPersonality,
}

#[derive(Clone, Debug)]
pub struct PersonalitySection {
    snapshot: PersonalitySnapshot,
    previous: Option<PersonalitySnapshot>,
    message: Option<String>,
    base_instructions: BaseInstructionsPersonality,
    change_template: String,
}

impl PersonalitySection {
    pub fn new(inputs: PersonalitySectionInputs, templates: &TemplateSet) -> Self {
        Self {
            snapshot: PersonalitySnapshot {
                model: inputs.model,
                personality: inputs.personality,
            },
            previous: inputs.previous,
            message: inputs.message.filter(|message| !message.is_empty()),
            base_instructions: inputs.base_instructions,
            change_template: templates.text(TemplateId::PersonalityChange).to_string(),
        }
    }

    fn spec(&self) -> Option<SectionFragment> {
        self.message.as_ref().map(|message| {
            PERSONALITY_SPEC.fragment(render(&self.change_template, &[("personality", message)]))
        })
    }

    /// A personality change is reported only for the same model: a model switch restates the
    /// model's instructions, personality included.
    fn render_change(&self, previous: &PersonalitySnapshot) -> Option<SectionFragment> {
        let changed = previous.model == self.snapshot.model
            && previous.personality != self.snapshot.personality;
        changed.then(|| self.spec()).flatten()
    }
}

impl WorldStateSection for PersonalitySection {
    const ID: &'static str = "personality";
    type Snapshot = PersonalitySnapshot;

    fn snapshot(&self) -> PersonalitySnapshot {
        self.snapshot.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        PERSONALITY_SPEC.recognises(role, text)
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, PersonalitySnapshot>,
    ) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Known(previous) => self.render_change(previous),
            PreviousSectionState::Unknown => self
                .previous
                .as_ref()
                .and_then(|previous| self.render_change(previous)),
            PreviousSectionState::Absent => {
                let already_stated = match self.base_instructions {
                    BaseInstructionsPersonality::Included => true,
                    BaseInstructionsPersonality::NotIncluded => false,
                };
                let same_model = self
                    .previous
                    .as_ref()
                    .is_none_or(|previous| previous.model == self.snapshot.model);
                (!already_stated && same_model)
                    .then(|| self.spec())
                    .flatten()
            }
        }
    }
}

impl CatalogSection for PersonalitySection {
    type Inputs = PersonalitySectionInputs;

    fn from_inputs(
        inputs: PersonalitySectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        _snapshot: PersonalitySnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("the model and personality, not the personality text it renders")
    }
}

impl StepSection for PersonalitySection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if !turn.features.enabled(Feature::Personality) {
            return Ok(None);
        }
        match turn.profile().personality {
            PersonalitySupport::Selectable => {}
            PersonalitySupport::BakedIn => return Ok(None),
        }
        let model = &turn.model;
        Ok(Some(PersonalitySection::new(
            PersonalitySectionInputs {
                model: model.slug.clone(),
                personality: turn.personality,
                // Before any turn, a thread whose instructions were written for another model
                // is switching models: that model is the one compared with.
                previous: match &turn.previous_turn {
                    Some(previous) => Some(PersonalitySnapshot {
                        model: previous.model.clone(),
                        personality: previous.personality,
                    }),
                    None => turn
                        .base_instructions
                        .generated_for_other_model()
                        .map(|model| PersonalitySnapshot {
                            model: model.to_string(),
                            personality: None,
                        }),
                },
                message: personality_message(model, turn.personality).map(str::to_string),
                // A template that takes a personality carries it, in the base instructions or
                // in a model-switch notice, so it is never stated twice.
                base_instructions: if model.supports_personality() {
                    BaseInstructionsPersonality::Included
                } else {
                    BaseInstructionsPersonality::NotIncluded
                },
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![
            template_source(TemplateId::PersonalityChange),
            "model catalog personality text".to_string(),
        ]
    }
}

#[cfg(test)]
#[path = "personality_tests.rs"]
mod tests;
