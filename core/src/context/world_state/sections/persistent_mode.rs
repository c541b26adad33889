//! `persistent_mode`: the instructions of a model's persistent mode while that mode is on. This
//! project never turns the mode on, so the section records that it is off (`{}`) on the
//! releases that keep it, and sends nothing.

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::PERSISTENT_MODE;
use codex_prompts::TemplateSet;
use codex_release::PersistentModeRecord;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Snapshot: the fingerprint of the mode's instructions while it is on; `{}` while it is off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersistentModeSnapshot {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<FragmentFingerprint>,
}

/// Inputs of the `persistent_mode` section: none, the mode is always off here.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersistentModeSectionInputs {}

/// The `persistent_mode` section, always off.
#[derive(Clone, Debug, Default)]
pub struct PersistentModeSection;

impl WorldStateSection for PersistentModeSection {
    const ID: &'static str = "persistent_mode";
    type Snapshot = PersistentModeSnapshot;

    fn snapshot(&self) -> PersistentModeSnapshot {
        PersistentModeSnapshot::default()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        PERSISTENT_MODE.recognises(role, text)
    }

    /// The mode is off: nothing to say, whatever was recorded before (a thread that had the
    /// mode on in the released CLI keeps what history told the model).
    fn render_diff(
        &self,
        _previous: PreviousSectionState<'_, PersistentModeSnapshot>,
    ) -> Option<SectionFragment> {
        None
    }
}

impl CatalogSection for PersistentModeSection {
    type Inputs = PersistentModeSectionInputs;

    fn from_inputs(
        _inputs: PersistentModeSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self)
    }

    fn from_snapshot(
        snapshot: PersistentModeSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        match snapshot.instructions {
            None => Ok(Self),
            Some(_) => Err("a fingerprint of the mode's instructions, not their text"),
        }
    }
}

impl StepSection for PersistentModeSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        match turn.profile().persistent_mode {
            PersistentModeRecord::Absent => Ok(None),
            PersistentModeRecord::Recorded => Ok(Some(Self)),
        }
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["the persistent mode (always off)".to_string()]
    }
}

#[cfg(test)]
#[path = "persistent_mode_tests.rs"]
mod tests;
