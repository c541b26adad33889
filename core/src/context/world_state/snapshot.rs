use std::collections::BTreeMap;

use codex_context_fragments::apply_merge_patch;
use codex_context_fragments::create_merge_patch;
use serde::Deserialize;
use serde::Serialize;
use serde_json::Map;
use serde_json::Value;

use super::error::WorldStateError;

/// The comparison data of every persisted section, keyed by section ID in sorted order.
/// Serializes transparently as a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WorldStateSnapshot(BTreeMap<String, Value>);

impl WorldStateSnapshot {
    /// An empty snapshot.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a persisted snapshot, which must be a JSON object.
    pub fn from_value(value: Value) -> Result<Self, WorldStateError> {
        match value {
            Value::Object(sections) => Ok(Self(sections.into_iter().collect())),
            Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::String(_)
            | Value::Array(_) => Err(WorldStateError::NotAnObject { what: "snapshot" }),
        }
    }

    /// The snapshot as a JSON object (sections in sorted order).
    pub fn into_value(self) -> Value {
        Value::Object(self.0.into_iter().collect::<Map<String, Value>>())
    }

    /// The stored value of one section.
    pub fn get(&self, section_id: &str) -> Option<&Value> {
        self.0.get(section_id)
    }

    /// Stores (or replaces) one section's value.
    pub fn insert(&mut self, section_id: impl Into<String>, value: Value) {
        self.0.insert(section_id.into(), value);
    }

    /// Section IDs and values in sorted order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(id, value)| (id.as_str(), value))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The RFC 7386 merge patch that advances `previous` to `self`, or `None` when nothing
    /// changed.
    ///
    /// Sections missing from `self` come first as `null` (sorted), then new or changed
    /// sections in sorted order; a changed section carries only its own nested patch.
    pub fn merge_patch_from(&self, previous: &WorldStateSnapshot) -> Option<Value> {
        let mut patch = Map::new();
        for id in previous.0.keys() {
            if !self.0.contains_key(id) {
                patch.insert(id.clone(), Value::Null);
            }
        }
        for (id, current) in &self.0 {
            let entry = match previous.0.get(id) {
                Some(stored) => create_merge_patch(stored, current),
                None => Some(current.clone()),
            };
            if let Some(entry) = entry {
                patch.insert(id.clone(), entry);
            }
        }
        (!patch.is_empty()).then_some(Value::Object(patch))
    }

    /// Applies a merge patch produced by [`merge_patch_from`](Self::merge_patch_from): `null`
    /// removes a section, anything else is merged into the stored value (or into nothing for
    /// a new section, which drops nested nulls).
    pub fn apply_merge_patch(&mut self, patch: &Value) -> Result<(), WorldStateError> {
        let Value::Object(sections) = patch else {
            return Err(WorldStateError::NotAnObject {
                what: "merge patch",
            });
        };
        for (id, section_patch) in sections {
            if section_patch.is_null() {
                self.0.remove(id);
                continue;
            }
            let target = self.0.entry(id.clone()).or_insert(Value::Null);
            apply_merge_patch(target, section_patch);
        }
        Ok(())
    }
}

impl FromIterator<(String, Value)> for WorldStateSnapshot {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}
