use codex_prompts::TemplateSet;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::erased::ErasedWorldStateSection;
use super::erased::normalize_snapshot;
use super::error::WorldStateError;
use super::section::WorldStateSection;
use crate::context::world_state_for_step::section_catalog;

/// A section that can be built from a JSON description of its current inputs plus the active
/// templates (so `--prompts-dir` overlays reach every model-visible sentence it renders).
///
/// Implementations must guarantee that `from_inputs` and `from_snapshot` are deterministic and
/// read every template text they will render from `templates`, never from embedded copies; and
/// that `from_snapshot` either rebuilds a section whose own snapshot is `snapshot` and that
/// renders what the section that recorded it rendered, or refuses, saying what the snapshot
/// holds instead (a fingerprint, a slug) — never a section that merely looks alike.
pub trait CatalogSection: WorldStateSection + Sized + 'static {
    /// The section's inputs as JSON describes them (serde-deserializable).
    type Inputs: DeserializeOwned;

    fn from_inputs(inputs: Self::Inputs, templates: &TemplateSet) -> Result<Self, WorldStateError>;

    /// The section a recorded snapshot describes, or what the snapshot holds when that is not
    /// enough to render the section (the `Err` text completes "a recorded snapshot holds …").
    fn from_snapshot(
        snapshot: Self::Snapshot,
        templates: &TemplateSet,
    ) -> Result<Self, &'static str>;
}

type SectionBuilder =
    fn(&Value, &TemplateSet) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError>;

/// Checks that JSON is a snapshot of the section as a rollout records it.
type SnapshotReader = fn(&Value) -> Result<(), serde_json::Error>;

/// One catalogue row: a section ID and how to build that section from JSON inputs or from a
/// recorded snapshot.
#[derive(Clone, Copy)]
pub struct CatalogEntry {
    id: &'static str,
    build: SectionBuilder,
    build_from_snapshot: SectionBuilder,
    read_snapshot: SnapshotReader,
}

impl CatalogEntry {
    /// The row for section type `S`.
    pub const fn of<S: CatalogSection>() -> Self {
        Self {
            id: S::ID,
            build: build_erased::<S>,
            build_from_snapshot: build_erased_from_snapshot::<S>,
            read_snapshot: read_snapshot::<S>,
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

    /// How `json` describes the section: as its inputs, or as a snapshot the way a rollout's
    /// `world_state` line records it. JSON that reads as both is taken as inputs when those
    /// inputs record exactly that snapshot (the readings agree), else as the snapshot (a
    /// recorded fingerprint is never read as text).
    pub fn read_json(
        &self,
        json: &Value,
        templates: &TemplateSet,
    ) -> Result<SectionJson, WorldStateError> {
        match (self.build(json, templates), (self.read_snapshot)(json)) {
            (Ok(section), Ok(()))
                if section.persisted_snapshot() != normalize_snapshot(self.id, json.clone()) =>
            {
                Ok(SectionJson::Snapshot(json.clone()))
            }
            (Ok(section), _) => Ok(SectionJson::Inputs(section)),
            (Err(WorldStateError::InvalidSectionInputs { .. }), Ok(())) => {
                Ok(SectionJson::Snapshot(json.clone()))
            }
            (Err(WorldStateError::InvalidSectionInputs { section, source }), Err(snapshot)) => {
                Err(WorldStateError::InvalidSectionJson {
                    section,
                    inputs: source,
                    snapshot,
                })
            }
            (Err(other), _) => Err(other),
        }
    }

    /// The section `json` describes as its current state (see [`read_json`](Self::read_json)).
    pub fn build_from_json(
        &self,
        json: &Value,
        templates: &TemplateSet,
    ) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError> {
        match self.read_json(json, templates)? {
            SectionJson::Inputs(section) => Ok(section),
            SectionJson::Snapshot(snapshot) => (self.build_from_snapshot)(&snapshot, templates),
        }
    }

    /// What a previous state described by `json` persisted: the snapshot of the section its
    /// inputs describe (`None` when such a section persists nothing), or the recorded snapshot.
    pub fn persisted_from_json(
        &self,
        json: &Value,
        templates: &TemplateSet,
    ) -> Result<Option<Value>, WorldStateError> {
        Ok(match self.read_json(json, templates)? {
            SectionJson::Inputs(section) => section.persisted_snapshot(),
            SectionJson::Snapshot(snapshot) => normalize_snapshot(self.id, snapshot),
        })
    }
}

/// JSON describing one section, as [`CatalogEntry::read_json`] read it.
pub enum SectionJson {
    Inputs(Box<dyn ErasedWorldStateSection>),
    Snapshot(Value),
}

/// Whether `json` is a snapshot of `S` exactly: it deserializes, and nothing was dropped or
/// defaulted on the way (serializing it again gives the same normalised JSON).
fn read_snapshot<S: CatalogSection>(json: &Value) -> Result<(), serde_json::Error> {
    let snapshot = S::Snapshot::deserialize(json)?;
    let again = serde_json::to_value(snapshot)?;
    match normalize_snapshot(S::ID, again) == normalize_snapshot(S::ID, json.clone()) {
        true => Ok(()),
        false => Err(serde::de::Error::custom(format!(
            "not exactly a snapshot of section {}: fields it does not record",
            S::ID
        ))),
    }
}

fn build_erased_from_snapshot<S: CatalogSection>(
    json: &Value,
    templates: &TemplateSet,
) -> Result<Box<dyn ErasedWorldStateSection>, WorldStateError> {
    let snapshot =
        S::Snapshot::deserialize(json).map_err(|source| WorldStateError::InvalidSectionInputs {
            section: S::ID.to_string(),
            source,
        })?;
    match S::from_snapshot(snapshot, templates) {
        Ok(section) => Ok(Box::new(section)),
        Err(holds) => Err(WorldStateError::SnapshotCannotBeRebuilt {
            section: S::ID.to_string(),
            holds,
        }),
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
    catalog_entry(id)?.build(inputs, templates)
}

/// The catalogue row of section `id`.
pub fn catalog_entry(id: &str) -> Result<&'static CatalogEntry, WorldStateError> {
    section_catalog()
        .find(|entry| entry.id == id)
        .ok_or_else(|| WorldStateError::UnknownSection {
            id: id.to_string(),
            known: catalog_section_ids().collect(),
        })
}

/// Every catalogue section ID, in upstream registry order.
pub fn catalog_section_ids() -> impl Iterator<Item = &'static str> {
    section_catalog().map(|entry| entry.id)
}
