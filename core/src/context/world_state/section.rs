use std::borrow::Cow;

use codex_context_fragments::SectionFragment;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What is known about the model-visible state of one section before this render.
#[derive(Debug)]
pub enum PreviousSectionState<'a, S: ?Sized> {
    /// Nothing was persisted and no fragment of the section is in retained history (or a
    /// persisted snapshot exists but the retained fragment it relies on has vanished).
    Absent,
    /// History holds what looks like this section's fragment but no usable typed snapshot
    /// exists (a legacy rollout, or stored JSON that no longer deserializes).
    Unknown,
    /// The exact persisted comparison data.
    Known(&'a S),
}

impl<S: ?Sized> Clone for PreviousSectionState<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: ?Sized> Copy for PreviousSectionState<'_, S> {}

/// One typed slice of model-visible state (permissions, AGENTS.md, model, …).
///
/// Implementations must guarantee:
/// - `ID` never changes: it keys persisted snapshots and patches in rollouts, so renaming it
///   orphans every earlier rollout;
/// - `Snapshot` holds only the comparison data needed to decide what the model must be told
///   next, never serializes to JSON `null` (null means "delete" in a merge patch), and
///   deserializes with missing optional fields defaulted, because `null` members are stripped
///   before a snapshot is persisted;
/// - `render_diff` is deterministic and emits a fragment only when the model must learn
///   something relative to `previous`; given the section's own current snapshot as `Known` it
///   emits nothing;
/// - the legacy and retained matchers recognise only this section's own fragments (checking
///   the role as well as the text), because a false match suppresses a needed update;
/// - `legacy_matcher_key` changes whenever the answer of `matches_current_legacy_fragment`
///   may change for the same text, because history indexes cache matcher results under it.
pub trait WorldStateSection: Send + Sync {
    /// Stable key of this section in persisted snapshots.
    const ID: &'static str;

    /// Serializable comparison data.
    type Snapshot: Serialize + DeserializeOwned;

    /// The current comparison data.
    fn snapshot(&self) -> Self::Snapshot;

    /// When false the section is left out of the snapshot (it will look Absent next time).
    fn should_persist(&self) -> bool {
        true
    }

    /// Recognises this section's fragment in history written before the section had a
    /// persisted snapshot, or by an older renderer.
    fn matches_legacy_fragment(_role: &str, _text: &str) -> bool {
        false
    }

    /// Like [`matches_legacy_fragment`](Self::matches_legacy_fragment) but may depend on the
    /// current value.
    fn matches_current_legacy_fragment(&self, role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    /// Identifies the current legacy matcher for caching; sections whose
    /// `matches_current_legacy_fragment` depends on their value must override it.
    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    /// Whether a persisted snapshot is trusted only while the rendered fragment is still in
    /// retained history.
    fn has_retained_fragment_matcher() -> bool {
        false
    }

    /// Recognises the retained fragment.
    fn matches_retained_fragment(_role: &str, _text: &str) -> bool {
        false
    }

    /// The fragment to append given what the model saw before, or `None`.
    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, Self::Snapshot>,
    ) -> Option<SectionFragment>;

    /// `recorded`, a snapshot persisted under the settings this section was just built from,
    /// with whatever it holds of text this project writes itself (fingerprints of prose,
    /// descriptions) replaced by this section's own; `None` (the default) when the snapshot
    /// holds only settings, or text that renders the same whoever renders it.
    ///
    /// A rollout written by the released Codex CLI fingerprints that renderer's prose, which
    /// this project's text never matches. Re-deriving those parts from the recorded settings
    /// makes the next diff tell the model only what is rendered from other settings.
    fn rederive_recorded(&self, _recorded: &Self::Snapshot) -> Option<Self::Snapshot> {
        None
    }

    /// The fragment a thread's initial context holds for the section: by default what it
    /// renders against an absent previous state. A section whose full block belongs to the
    /// initial context but never to a diff renders it here.
    fn render_initial(&self) -> Option<SectionFragment> {
        self.render_diff(PreviousSectionState::Absent)
    }
}
