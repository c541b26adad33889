use codex_prompts::TemplateSet;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::erased::ErasedWorldStateSection;
use super::error::WorldStateError;
use super::section::WorldStateSection;
use super::sections::SECTION_CATALOG;

/// A section that can be built from a JSON description of its current inputs plus the active
/// templates (so `--prompts-dir` overlays reach every model-visible sentence it renders).
///
/// Implementations must guarantee that `from_inputs` is deterministic and reads every template
/// text it will render from `templates`, never from embedded copies.
pub trait CatalogSection: WorldStateSection + Sized + 'static {
    /// The section's inputs as JSON describes them (serde-deserializable).
    type Inputs: DeserializeOwned;

    fn from_inputs(inputs: Self::Inputs, templates: &TemplateSet) -> Result<Self, WorldStateError>;
}

type SectionBuilder =
    fn(&Value, &TemplateSet) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError>;

/// One catalogue row: a section ID and how to build that section from JSON inputs.
#[derive(Clone, Copy)]
pub struct CatalogEntry {
    id: &'static str,
    build: SectionBuilder,
}

impl CatalogEntry {
    /// The row for section type `S`.
    pub const fn of<S: CatalogSection>() -> Self {
        Self {
            id: S::ID,
            build: build_erased::<S>,
        }
    }

    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Builds the section from `inputs`.
    pub fn build(
        &self,
        inputs: &Value,
        templates: &TemplateSet,
    ) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError> {
        (self.build)(inputs, templates)
    }
}

fn build_erased<S: CatalogSection>(
    inputs: &Value,
    templates: &TemplateSet,
) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError> {
    let inputs =
        S::Inputs::deserialize(inputs).map_err(|source| WorldStateError::InvalidSectionInputs {
            section: S::ID.to_string(),
            source,
        })?;
    Ok(Box::new(S::from_inputs(inputs, templates)?))
}

/// Builds the catalogue section `id` from JSON `inputs`.
pub fn build_catalog_section(
    id: &str,
    inputs: &Value,
    templates: &TemplateSet,
) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError> {
    SECTION_CATALOG
        .iter()
        .find(|entry| entry.id == id)
        .ok_or_else(|| WorldStateError::UnknownSection {
            id: id.to_string(),
            known: catalog_section_ids().collect(),
        })?
        .build(inputs, templates)
}

/// Every catalogue section ID, in upstream registry order.
pub fn catalog_section_ids() -> impl Iterator<Item = &'static str> {
    SECTION_CATALOG.iter().map(|entry| entry.id)
}
