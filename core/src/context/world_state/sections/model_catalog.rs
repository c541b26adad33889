//! `model_catalog`: a fingerprint of the model catalog the session loaded. The release that
//! keeps this section fingerprints the `<model_catalog>` listing it would send (the models a
//! sub-agent may be started on) but sends it only under a feature this project does not have;
//! here the fingerprint is taken over the catalog's model slugs, and nothing is ever sent.

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::MODEL_CATALOG;
use codex_prompts::TemplateSet;
use codex_release::ModelCatalogRecord;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Inputs of the `model_catalog` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelCatalogSectionInputs {
    /// The catalog's fingerprint ([`TurnContext::model_catalog`]).
    pub catalog: FragmentFingerprint,
}

/// The `model_catalog` section (snapshot: the fingerprint).
#[derive(Clone, Debug)]
pub struct ModelCatalogSection {
    catalog: FragmentFingerprint,
}

impl WorldStateSection for ModelCatalogSection {
    const ID: &'static str = "model_catalog";
    type Snapshot = FragmentFingerprint;

    fn snapshot(&self) -> FragmentFingerprint {
        self.catalog.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        MODEL_CATALOG.recognises(role, text)
    }

    /// The listing is never sent.
    fn render_diff(
        &self,
        _previous: PreviousSectionState<'_, FragmentFingerprint>,
    ) -> Option<SectionFragment> {
        None
    }

    /// A recorded fingerprint is of the recording renderer's listing (the release's own
    /// words), which this one never matches; the catalog is the release's bundled one on both
    /// sides, so the recorded value is taken for this section's own.
    fn rederive_recorded(&self, _recorded: &FragmentFingerprint) -> Option<FragmentFingerprint> {
        Some(self.catalog.clone())
    }
}

impl CatalogSection for ModelCatalogSection {
    type Inputs = ModelCatalogSectionInputs;

    fn from_inputs(
        inputs: ModelCatalogSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self {
            catalog: inputs.catalog,
        })
    }

    fn from_snapshot(
        snapshot: FragmentFingerprint,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self { catalog: snapshot })
    }
}

impl StepSection for ModelCatalogSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        match (turn.profile().model_catalog, &turn.model_catalog) {
            (ModelCatalogRecord::Fingerprinted, Some(catalog)) => Ok(Some(Self {
                catalog: catalog.clone(),
            })),
            (ModelCatalogRecord::Fingerprinted, None) | (ModelCatalogRecord::Absent, _) => Ok(None),
        }
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["the model catalog's slugs".to_string()]
    }
}

#[cfg(test)]
#[path = "model_catalog_tests.rs"]
mod tests;
