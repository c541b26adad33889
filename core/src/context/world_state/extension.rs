use std::borrow::Cow;

use codex_context_fragments::MessagePlacement;
use codex_context_fragments::SectionFragment;
use codex_context_fragments::WorldStateFragment;
use codex_protocol::models::ContentItemKind;
use serde_json::Value;

use super::erased::ErasedWorldStateSection;
use super::erased::normalize_snapshot;
use super::section::PreviousSectionState;

/// Untyped previous state handed to extension renderers.
pub type PreviousWorldStateSection<'a> = PreviousSectionState<'a, Value>;

/// What an extension renderer returns; the harness wraps it as a context fragment with content
/// kind `<section id>.instructions`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedWorldStateFragment {
    pub role: &'static str,
    pub markers: (&'static str, &'static str),
    pub body: String,
}

/// Renders an extension section against its previous state.
pub type ExtensionRenderer =
    Box<dyn Fn(PreviousWorldStateSection<'_>) -> Option<RenderedWorldStateFragment> + Send + Sync>;

/// Recognises an extension section's fragment from a message role and text.
pub type ExtensionFragmentMatcher = Box<dyn Fn(&str, &str) -> bool + Send + Sync>;

/// Re-derives a snapshot another renderer recorded ([`ErasedWorldStateSection::rederive_recorded_json`]).
pub type ExtensionRederive = Box<dyn Fn(&Value) -> Option<Value> + Send + Sync>;

/// A world-state section owned by an extension: its snapshot is already JSON and its
/// rendering is a closure. The harness owns persistence (the same null stripping as built-in
/// sections; a `null` snapshot is left out).
///
/// Matchers are assumed to depend only on the contribution's snapshot: history indexes cache
/// their answers for as long as the snapshot is unchanged.
pub struct WorldStateSectionContribution {
    id: &'static str,
    snapshot: Value,
    render_diff: ExtensionRenderer,
    legacy_matcher: Option<ExtensionFragmentMatcher>,
    retained_matcher: Option<ExtensionFragmentMatcher>,
    rederive: Option<ExtensionRederive>,
}

impl WorldStateSectionContribution {
    pub fn new(
        id: &'static str,
        snapshot: Value,
        render_diff: impl Fn(PreviousWorldStateSection<'_>) -> Option<RenderedWorldStateFragment>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        Self {
            id,
            snapshot,
            render_diff: Box::new(render_diff),
            legacy_matcher: None,
            retained_matcher: None,
            rederive: None,
        }
    }

    /// Re-derives what a recorded snapshot holds of another renderer's text, so that a rollout
    /// the released CLI wrote counts as changed only where its inputs changed.
    pub fn with_rederive(
        mut self,
        rederive: impl Fn(&Value) -> Option<Value> + Send + Sync + 'static,
    ) -> Self {
        self.rederive = Some(Box::new(rederive));
        self
    }

    /// Recognises this section's text in history written before it was persisted.
    pub fn with_legacy_matcher(
        mut self,
        matcher: impl Fn(&str, &str) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.legacy_matcher = Some(Box::new(matcher));
        self
    }

    /// Makes the persisted snapshot trustworthy only while this matcher finds the fragment in
    /// retained history.
    pub fn with_retained_fragment_matcher(
        mut self,
        matcher: impl Fn(&str, &str) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.retained_matcher = Some(Box::new(matcher));
        self
    }

    pub fn id(&self) -> &'static str {
        self.id
    }
}

impl ErasedWorldStateSection for WorldStateSectionContribution {
    fn section_id(&self) -> &str {
        self.id
    }

    fn persisted_snapshot(&self) -> Option<Value> {
        normalize_snapshot(self.id, self.snapshot.clone())
    }

    fn rederive_recorded_json(&self, recorded: &Value) -> Option<Value> {
        let rederived = self.rederive.as_ref()?(recorded)?;
        normalize_snapshot(self.id, rederived)
    }

    fn recognises_legacy_fragment(&self, role: &str, text: &str) -> bool {
        self.legacy_matcher
            .as_ref()
            .is_some_and(|matcher| matcher(role, text))
    }

    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        Cow::Owned(self.snapshot.to_string())
    }

    fn requires_retained_fragment(&self) -> bool {
        self.retained_matcher.is_some()
    }

    fn recognises_retained_fragment(&self, role: &str, text: &str) -> bool {
        self.retained_matcher
            .as_ref()
            .is_some_and(|matcher| matcher(role, text))
    }

    fn render_diff_from_json(
        &self,
        previous: PreviousSectionState<'_, Value>,
    ) -> Option<SectionFragment> {
        let rendered = (self.render_diff)(previous)?;
        Some(Box::new(WorldStateFragment::new(
            rendered.role,
            ContentItemKind::new(format!("{}.instructions", self.id)),
            rendered.markers,
            rendered.body,
            MessagePlacement::Mergeable,
        )))
    }
}
