//! Shared machinery of the boolean guidance sections (`environments_instructions`,
//! `apps_instructions`, `plugins_instructions`): a static block that is shown once when a
//! capability becomes usable and never withdrawn.

use std::marker::PhantomData;

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::SectionFragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;

/// Identity of one guidance section.
///
/// Implementations must guarantee a unique stable `ID`, a marked developer `SPEC`, and a
/// template whose text is the whole guidance block.
pub trait GuidanceKind: Send + Sync + 'static {
    const ID: &'static str;
    const SPEC: FragmentSpec;
    const TEMPLATE: TemplateId;
}

/// Inputs of a guidance section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuidanceSectionInputs {
    /// Whether the capability the guidance explains is usable this step.
    pub available: bool,
}

/// Snapshot: whether the guidance applies.
#[derive(Debug)]
pub struct GuidanceSection<K> {
    available: bool,
    guidance: String,
    kind: PhantomData<K>,
}

impl<K: GuidanceKind> GuidanceSection<K> {
    pub fn new(inputs: GuidanceSectionInputs, templates: &TemplateSet) -> Self {
        Self {
            available: inputs.available,
            guidance: templates.text(K::TEMPLATE).to_string(),
            kind: PhantomData,
        }
    }

    /// The guidance block as rendered from `templates` (what the section tests expect).
    #[cfg(test)]
    pub fn fragment(templates: &TemplateSet) -> SectionFragment {
        K::SPEC.fragment(format!("\n{}\n", templates.text(K::TEMPLATE)))
    }
}

impl<K: GuidanceKind> WorldStateSection for GuidanceSection<K> {
    const ID: &'static str = K::ID;
    type Snapshot = bool;

    fn snapshot(&self) -> bool {
        self.available
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        K::SPEC.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    /// Unknown means the block is already in history, so it is not repeated.
    fn render_diff(&self, previous: PreviousSectionState<'_, bool>) -> Option<SectionFragment> {
        let already_shown = match previous {
            PreviousSectionState::Known(shown) => *shown,
            PreviousSectionState::Unknown => true,
            PreviousSectionState::Absent => false,
        };
        (self.available && !already_shown)
            .then(|| K::SPEC.fragment(format!("\n{}\n", self.guidance)))
    }
}

impl<K: GuidanceKind> CatalogSection for GuidanceSection<K> {
    type Inputs = GuidanceSectionInputs;

    fn from_inputs(
        inputs: GuidanceSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(snapshot: bool, templates: &TemplateSet) -> Result<Self, &'static str> {
        Ok(Self::new(
            GuidanceSectionInputs {
                available: snapshot,
            },
            templates,
        ))
    }
}

#[cfg(test)]
#[path = "guidance_test_support.rs"]
pub(super) mod test_support;
