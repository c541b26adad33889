use std::borrow::Cow;

use codex_context_fragments::SectionFragment;
use serde::Deserialize;
use serde_json::Map;
use serde_json::Value;

use super::section::PreviousSectionState;
use super::section::WorldStateSection;

/// Object-safe view of a section as the registry drives it: JSON snapshots in, fragments out.
///
/// Implemented for every [`WorldStateSection`] and for extension contributions.
/// Implementations must guarantee that `persisted_snapshot` is normalised (see
/// [`normalize_snapshot`]) and that `render_diff_from_json` never panics on arbitrary stored
/// JSON: JSON the section cannot read is treated as [`PreviousSectionState::Unknown`].
pub trait ErasedWorldStateSection: Send + Sync {
    /// The section's stable ID.
    fn section_id(&self) -> &str;

    /// The normalised snapshot to persist, or `None` when the section is left out.
    fn persisted_snapshot(&self) -> Option<Value>;

    /// Legacy matcher (may depend on the current value).
    fn recognises_legacy_fragment(&self, role: &str, text: &str) -> bool;

    /// Cache key of the legacy matcher (see [`WorldStateSection::legacy_matcher_key`]).
    fn fragment_matcher_key(&self) -> Cow<'_, str>;

    /// Whether a persisted snapshot needs its fragment to still be in retained history.
    fn requires_retained_fragment(&self) -> bool;

    /// Retained-fragment matcher.
    fn recognises_retained_fragment(&self, role: &str, text: &str) -> bool;

    /// Renders against an untyped previous state; `Known` JSON is restored into the section's
    /// own snapshot type first.
    fn render_diff_from_json(
        &self,
        previous: PreviousSectionState<'_, Value>,
    ) -> Option<SectionFragment>;

    /// The recorded JSON snapshot `recorded` re-derived by this section, built under the
    /// settings it was recorded with ([`WorldStateSection::rederive_recorded`]); `None` keeps
    /// the recorded snapshot as it is (also when it cannot be read).
    fn rederive_recorded_json(&self, _recorded: &Value) -> Option<Value> {
        None
    }

    /// The fragment of the section in a thread's initial context
    /// ([`WorldStateSection::render_initial`]).
    fn render_initial_fragment(&self) -> Option<SectionFragment> {
        self.render_diff_from_json(PreviousSectionState::Absent)
    }
}

impl<S: WorldStateSection> ErasedWorldStateSection for S {
    fn section_id(&self) -> &str {
        S::ID
    }

    fn render_initial_fragment(&self) -> Option<SectionFragment> {
        self.render_initial()
    }

    fn rederive_recorded_json(&self, recorded: &Value) -> Option<Value> {
        let recorded = S::Snapshot::deserialize(recorded).ok()?;
        let rederived = serde_json::to_value(self.rederive_recorded(&recorded)?).ok()?;
        normalize_snapshot(S::ID, rederived)
    }

    fn persisted_snapshot(&self) -> Option<Value> {
        if !self.should_persist() {
            return None;
        }
        match serde_json::to_value(self.snapshot()) {
            Ok(value) => normalize_snapshot(S::ID, value),
            Err(error) => {
                tracing::warn!(
                    "the snapshot of world-state section `{}` cannot be serialized: {error}",
                    S::ID
                );
                None
            }
        }
    }

    fn recognises_legacy_fragment(&self, role: &str, text: &str) -> bool {
        self.matches_current_legacy_fragment(role, text)
    }

    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        WorldStateSection::fragment_matcher_key(self)
    }

    fn requires_retained_fragment(&self) -> bool {
        S::has_retained_fragment_matcher()
    }

    fn recognises_retained_fragment(&self, role: &str, text: &str) -> bool {
        S::matches_retained_fragment(role, text)
    }

    fn render_diff_from_json(
        &self,
        previous: PreviousSectionState<'_, Value>,
    ) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Absent => self.render_diff(PreviousSectionState::Absent),
            PreviousSectionState::Unknown => self.render_diff(PreviousSectionState::Unknown),
            PreviousSectionState::Known(stored) => match S::Snapshot::deserialize(stored) {
                Ok(snapshot) => self.render_diff(PreviousSectionState::Known(&snapshot)),
                Err(error) => {
                    tracing::warn!(
                        "the recorded snapshot of world-state section `{}` cannot be read, so it counts as unknown: {error}",
                        S::ID
                    );
                    self.render_diff(PreviousSectionState::Unknown)
                }
            },
        }
    }
}

/// Prepares a serialized snapshot for persistence: every object member whose value is `null`
/// is removed (recursively through objects; arrays are kept as they are, nulls included). Keys
/// keep the order the snapshot type serializes them in (its field order), as upstream persists
/// them (codex-rs/core/src/context/world_state/mod.rs). A snapshot that is `null` itself cannot
/// be persisted and yields `None`.
pub fn normalize_snapshot(section_id: &str, value: Value) -> Option<Value> {
    if value.is_null() {
        tracing::warn!(
            "the snapshot of world-state section `{section_id}` is null, which cannot be persisted"
        );
        return None;
    }
    Some(strip_null_members(value))
}

fn strip_null_members(value: Value) -> Value {
    match value {
        Value::Object(members) => {
            let kept: Map<String, Value> = members
                .into_iter()
                .filter(|(_, member)| !member.is_null())
                .map(|(key, member)| (key, strip_null_members(member)))
                .collect();
            Value::Object(kept)
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) => {
            value
        }
    }
}
