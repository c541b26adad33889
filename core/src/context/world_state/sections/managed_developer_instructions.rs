//! `managed_developer_instructions`: developer instructions imposed by managed requirements,
//! with a replacement or removal notice when they change.

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::MANAGED_DEVELOPER_INSTRUCTIONS;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use codex_release::ManagedInstructionsRecord;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Budget for the largest rendering of a managed policy (replacement notice and markers
/// included), in estimated tokens.
pub const MANAGED_DEVELOPER_INSTRUCTIONS_TOKEN_LIMIT: usize = 10_000;

/// Bytes per token assumed by the estimate.
const BYTES_PER_TOKEN: usize = 4;

/// Snapshot: fingerprint of the plain policy fragment; `{}` when there is no policy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManagedDeveloperInstructionsSnapshot {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<FragmentFingerprint>,
}

/// Inputs of the `managed_developer_instructions` section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManagedDeveloperInstructionsSectionInputs {
    /// The requirements' `additional_developer_instructions`; empty means none.
    #[serde(default)]
    pub instructions: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ManagedDeveloperInstructionsSection {
    instructions: Option<String>,
    replaced_template: String,
    removed_template: String,
}

/// The plain policy fragment: markers around `\n<text>\n`.
fn policy_fragment(text: &str) -> SectionFragment {
    MANAGED_DEVELOPER_INSTRUCTIONS.fragment(format!("\n{text}\n"))
}

fn replacement_text(templates: &TemplateSet, instructions: &str) -> String {
    render(
        templates.text(TemplateId::ManagedInstructionsReplaced),
        &[("instructions", instructions)],
    )
}

/// Rejects a policy whose replacement rendering (notice and markers included) would exceed
/// [`MANAGED_DEVELOPER_INSTRUCTIONS_TOKEN_LIMIT`] estimated tokens, so that the section never
/// has to truncate it. Every step checks it before building the section.
pub fn check_managed_developer_instructions_limit(
    instructions: &str,
    templates: &TemplateSet,
) -> Result<(), WorldStateError> {
    let rendered = policy_fragment(&replacement_text(templates, instructions)).render();
    let estimated_tokens = rendered.len().div_ceil(BYTES_PER_TOKEN);
    if estimated_tokens > MANAGED_DEVELOPER_INSTRUCTIONS_TOKEN_LIMIT {
        return Err(WorldStateError::ManagedInstructionsTooLong {
            estimated_tokens,
            limit_tokens: MANAGED_DEVELOPER_INSTRUCTIONS_TOKEN_LIMIT,
        });
    }
    Ok(())
}

impl ManagedDeveloperInstructionsSection {
    pub fn new(inputs: ManagedDeveloperInstructionsSectionInputs, templates: &TemplateSet) -> Self {
        Self {
            instructions: inputs.instructions.filter(|text| !text.is_empty()),
            replaced_template: templates
                .text(TemplateId::ManagedInstructionsReplaced)
                .to_string(),
            removed_template: templates
                .text(TemplateId::ManagedInstructionsRemoved)
                .to_string(),
        }
    }
}

impl WorldStateSection for ManagedDeveloperInstructionsSection {
    const ID: &'static str = "managed_developer_instructions";
    type Snapshot = ManagedDeveloperInstructionsSnapshot;

    fn snapshot(&self) -> ManagedDeveloperInstructionsSnapshot {
        ManagedDeveloperInstructionsSnapshot {
            instructions: self
                .instructions
                .as_deref()
                .map(|text| FragmentFingerprint::from_fragment(policy_fragment(text).as_ref())),
        }
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        MANAGED_DEVELOPER_INSTRUCTIONS.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, ManagedDeveloperInstructionsSnapshot>,
    ) -> Option<SectionFragment> {
        let previous_had_instructions = match previous {
            PreviousSectionState::Known(previous) if previous == &self.snapshot() => return None,
            PreviousSectionState::Known(previous) => previous.instructions.is_some(),
            PreviousSectionState::Unknown => true,
            PreviousSectionState::Absent => false,
        };
        match (&self.instructions, previous_had_instructions) {
            (Some(text), true) => Some(policy_fragment(&render(
                &self.replaced_template,
                &[("instructions", text)],
            ))),
            (Some(text), false) => Some(policy_fragment(text)),
            (None, true) => Some(policy_fragment(&self.removed_template)),
            (None, false) => None,
        }
    }
}

impl CatalogSection for ManagedDeveloperInstructionsSection {
    type Inputs = ManagedDeveloperInstructionsSectionInputs;

    fn from_inputs(
        inputs: ManagedDeveloperInstructionsSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        _snapshot: ManagedDeveloperInstructionsSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("a fingerprint of the instructions, not their text")
    }
}

impl StepSection for ManagedDeveloperInstructionsSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if turn.session_source.is_guardian_reviewer() {
            return Ok(None);
        }
        let recorded = match turn.profile().managed_developer_instructions {
            ManagedInstructionsRecord::CoreHarnessOnly => {
                turn.client_surface.has_managed_developer_instructions()
            }
            ManagedInstructionsRecord::EveryThread => true,
        };
        if !recorded {
            if turn.managed_developer_instructions.is_some() {
                tracing::warn!(
                    "The managed developer instructions are not sent: the released codex exec \
                     this thread follows has no such section."
                );
            }
            return Ok(None);
        }
        if let Some(instructions) = &turn.managed_developer_instructions {
            check_managed_developer_instructions_limit(instructions, templates)?;
        }
        Ok(Some(ManagedDeveloperInstructionsSection::new(
            ManagedDeveloperInstructionsSectionInputs {
                instructions: turn.managed_developer_instructions.clone(),
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["managed requirements `additional_developer_instructions`".to_string()]
    }
}

#[cfg(test)]
#[path = "managed_developer_instructions_tests.rs"]
mod tests;
