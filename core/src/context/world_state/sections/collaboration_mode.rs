//! `collaboration_mode`: the instructions of the active collaboration mode (Default, Plan).
//! An empty element is how earlier instructions are cleared.

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::COLLABORATION_MODE;
use codex_prompts::TemplateSet;
use codex_protocol::config_types::ModeKind;
use codex_protocol::openai_models::CollaborationModeMessages;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_prompts::TemplateId;

/// Snapshot of the `collaboration_mode` section. Older rollouts hold an object without the
/// instructions fingerprint, or only the bare mode; both still deserialize.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CollaborationModeSnapshot {
    Current {
        mode: ModeKind,
        model: String,
        /// Fingerprint of the fragment rendered with the instructions (or with nothing).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions: Option<FragmentFingerprint>,
    },
    Legacy(ModeKind),
}

/// Inputs of the `collaboration_mode` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollaborationModeSectionInputs {
    pub mode: ModeKind,
    pub model: String,
    /// The model catalog's per-mode texts; an explicitly empty text suppresses the mode's own
    /// developer instructions.
    #[serde(default)]
    pub catalog_messages: Option<CollaborationModeMessages>,
    /// The mode's developer instructions, used when the catalog has no text for the mode.
    #[serde(default)]
    pub developer_instructions: Option<String>,
}

#[derive(Clone, Debug)]
pub struct CollaborationModeSection {
    snapshot: CollaborationModeSnapshot,
    instructions: Option<String>,
}

impl CollaborationModeSection {
    pub fn new(inputs: CollaborationModeSectionInputs) -> Self {
        let catalog_text = inputs
            .catalog_messages
            .and_then(|messages| match inputs.mode {
                ModeKind::Default => messages.default,
                ModeKind::Plan => messages.plan,
            });
        let instructions = catalog_text.or_else(|| {
            inputs
                .developer_instructions
                .filter(|instructions| !instructions.is_empty())
        });
        let rendered = collaboration_mode_fragment(instructions.as_deref().unwrap_or_default());
        Self {
            snapshot: CollaborationModeSnapshot::Current {
                mode: inputs.mode,
                model: inputs.model,
                instructions: Some(FragmentFingerprint::from_fragment(rendered.as_ref())),
            },
            instructions,
        }
    }
}

/// `<collaboration_mode>` + `instructions` + `</collaboration_mode>`.
pub fn collaboration_mode_fragment(instructions: &str) -> SectionFragment {
    COLLABORATION_MODE.fragment(instructions.to_string())
}

impl WorldStateSection for CollaborationModeSection {
    const ID: &'static str = "collaboration_mode";
    type Snapshot = CollaborationModeSnapshot;

    fn snapshot(&self) -> CollaborationModeSnapshot {
        self.snapshot.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        COLLABORATION_MODE.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    /// A mode's instructions are prose (this project's Plan template, or the catalog's text
    /// for the model), so the fingerprint of a snapshot recorded for the same mode and model is
    /// replaced by this section's; an older snapshot without one stays.
    fn rederive_recorded(
        &self,
        recorded: &CollaborationModeSnapshot,
    ) -> Option<CollaborationModeSnapshot> {
        match (recorded, &self.snapshot) {
            (
                CollaborationModeSnapshot::Current {
                    mode,
                    model,
                    instructions: Some(_),
                },
                CollaborationModeSnapshot::Current {
                    mode: own_mode,
                    model: own_model,
                    ..
                },
            ) if mode == own_mode && model == own_model => Some(self.snapshot.clone()),
            (
                CollaborationModeSnapshot::Current { .. } | CollaborationModeSnapshot::Legacy(_),
                _,
            ) => None,
        }
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, CollaborationModeSnapshot>,
    ) -> Option<SectionFragment> {
        let current_fingerprint = match &self.snapshot {
            CollaborationModeSnapshot::Current { instructions, .. } => instructions.as_ref(),
            CollaborationModeSnapshot::Legacy(_) => None,
        };
        let unchanged = match previous {
            PreviousSectionState::Absent => self.instructions.is_none(),
            PreviousSectionState::Unknown => false,
            // Without instructions only the (empty) visible text matters, not mode or model.
            PreviousSectionState::Known(previous) => {
                previous == &self.snapshot
                    || (self.instructions.as_deref().is_none_or(str::is_empty)
                        && matches!(
                            previous,
                            CollaborationModeSnapshot::Current {
                                instructions: Some(previous_fingerprint),
                                ..
                            } if Some(previous_fingerprint) == current_fingerprint
                        ))
            }
        };
        (!unchanged)
            .then(|| collaboration_mode_fragment(self.instructions.as_deref().unwrap_or_default()))
    }
}

impl CatalogSection for CollaborationModeSection {
    type Inputs = CollaborationModeSectionInputs;

    fn from_inputs(
        inputs: CollaborationModeSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs))
    }

    fn from_snapshot(
        _snapshot: CollaborationModeSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("the mode and a fingerprint of the instructions it rendered")
    }
}

impl StepSection for CollaborationModeSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if !turn.inclusion.collaboration_mode_instructions.is_included() {
            return Ok(None);
        }
        let mode = &turn.collaboration_mode;
        Ok(Some(CollaborationModeSection::new(
            CollaborationModeSectionInputs {
                mode: mode.mode,
                model: turn.model.slug.clone(),
                catalog_messages: turn
                    .model
                    .model_messages
                    .as_ref()
                    .and_then(|messages| messages.collaboration_modes.clone()),
                developer_instructions: mode.settings.developer_instructions.clone(),
            },
        )))
    }

    fn built_from(turn: &TurnContext) -> Vec<String> {
        match turn.collaboration_mode.mode {
            ModeKind::Plan => vec![template_source(TemplateId::CollaborationModePlan)],
            ModeKind::Default => vec!["collaboration mode developer instructions".to_string()],
        }
    }
}

#[cfg(test)]
#[path = "collaboration_mode_tests.rs"]
mod tests;
