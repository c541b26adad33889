//! `approved_command_prefixes`: when the full permissions instructions are turned off, only
//! newly approved command prefixes are announced, as `Approved command prefix saved:` notices.
//! The same notice is used by the `permissions` section for prefix-only changes.

use std::collections::BTreeSet;

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::APPROVED_COMMAND_PREFIX_SAVED_PREFIX;
use codex_fragments::sections::approved_prefix_saved_fragment;
use codex_prompts::TemplateSet;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_prompts::TemplateId;

/// A set of approved command prefixes; persists as a sorted array of token arrays.
pub type ApprovedPrefixes = BTreeSet<Vec<String>>;

/// Prefixes in `current` that `previous` lacks, in sorted order.
pub fn added_prefixes(previous: &ApprovedPrefixes, current: &ApprovedPrefixes) -> Vec<Vec<String>> {
    current.difference(previous).cloned().collect()
}

/// Inputs of the `approved_command_prefixes` section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovedCommandPrefixesSectionInputs {
    /// Prefixes the exec policy allows, as token lists (duplicates collapse).
    #[serde(default)]
    pub approved_command_prefixes: Vec<Vec<String>>,
}

#[derive(Clone, Debug)]
pub struct ApprovedCommandPrefixesSection {
    prefixes: ApprovedPrefixes,
    templates: TemplateSet,
}

impl ApprovedCommandPrefixesSection {
    pub fn new(inputs: ApprovedCommandPrefixesSectionInputs, templates: &TemplateSet) -> Self {
        Self {
            prefixes: inputs.approved_command_prefixes.into_iter().collect(),
            templates: templates.clone(),
        }
    }
}

impl WorldStateSection for ApprovedCommandPrefixesSection {
    const ID: &'static str = "approved_command_prefixes";
    type Snapshot = ApprovedPrefixes;

    fn snapshot(&self) -> ApprovedPrefixes {
        self.prefixes.clone()
    }

    /// Notices are unmarked; they are recognised by their leading text.
    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        role == DEVELOPER_ROLE
            && text
                .trim_start()
                .starts_with(APPROVED_COMMAND_PREFIX_SAVED_PREFIX)
    }

    /// Only additions are announced: without a snapshot (Absent) the existing prefixes are
    /// never restated, and a notice already in history (Unknown) is not repeated; removals
    /// are silent.
    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, ApprovedPrefixes>,
    ) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Known(previous) => approved_prefix_saved_fragment(
                &added_prefixes(previous, &self.prefixes),
                &self.templates,
            ),
            PreviousSectionState::Absent | PreviousSectionState::Unknown => None,
        }
    }
}

impl CatalogSection for ApprovedCommandPrefixesSection {
    type Inputs = ApprovedCommandPrefixesSectionInputs;

    fn from_inputs(
        inputs: ApprovedCommandPrefixesSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        snapshot: ApprovedPrefixes,
        templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self {
            prefixes: snapshot,
            templates: templates.clone(),
        })
    }
}

impl StepSection for ApprovedCommandPrefixesSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        // With permissions instructions, the permissions section lists the prefixes itself.
        if turn.inclusion.permissions_instructions.is_included() {
            return Ok(None);
        }
        Ok(Some(ApprovedCommandPrefixesSection::new(
            ApprovedCommandPrefixesSectionInputs {
                approved_command_prefixes: turn.approved_command_prefixes.clone(),
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![template_source(TemplateId::ApprovedCommandPrefixes)]
    }
}

#[cfg(test)]
#[path = "approved_command_prefixes_tests.rs"]
mod tests;
