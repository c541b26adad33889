//! `context_window_guidance`: the configured advice on managing the context window.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::CONTEXT_WINDOW_GUIDANCE;
use codex_prompts::TemplateSet;
use codex_release::GuidanceRecord;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Inputs of the `context_window_guidance` section (registered for a non-blank message, or with
/// an empty one on a release that always records the section).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextWindowGuidanceSectionInputs {
    /// The configured guidance message, rendered verbatim.
    pub message: String,
}

/// Snapshot: the guidance message.
#[derive(Clone, Debug)]
pub struct ContextWindowGuidanceSection {
    message: String,
}

impl ContextWindowGuidanceSection {
    pub fn new(inputs: ContextWindowGuidanceSectionInputs) -> Self {
        Self {
            message: inputs.message,
        }
    }

    /// The guidance block for `message`.
    pub fn fragment_for(message: &str) -> SectionFragment {
        CONTEXT_WINDOW_GUIDANCE.fragment(format!("\n{message}\n"))
    }
}

impl WorldStateSection for ContextWindowGuidanceSection {
    const ID: &'static str = "context_window_guidance";
    type Snapshot = String;

    fn snapshot(&self) -> String {
        self.message.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        CONTEXT_WINDOW_GUIDANCE.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    /// An empty message (recorded where no guidance is configured) sends nothing.
    fn render_diff(&self, previous: PreviousSectionState<'_, String>) -> Option<SectionFragment> {
        if self.message.is_empty() {
            return None;
        }
        match previous {
            PreviousSectionState::Known(message) if message == &self.message => None,
            PreviousSectionState::Known(_)
            | PreviousSectionState::Absent
            | PreviousSectionState::Unknown => Some(Self::fragment_for(&self.message)),
        }
    }
}

impl CatalogSection for ContextWindowGuidanceSection {
    type Inputs = ContextWindowGuidanceSectionInputs;

    fn from_inputs(
        inputs: ContextWindowGuidanceSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs))
    }

    fn from_snapshot(snapshot: String, _templates: &TemplateSet) -> Result<Self, &'static str> {
        Ok(Self { message: snapshot })
    }
}

impl StepSection for ContextWindowGuidanceSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        let configured = turn
            .token_budget
            .guidance_message
            .as_ref()
            .filter(|message| turn.token_budget_applies() && !message.trim().is_empty());
        let message = match (configured, turn.profile().context_window_guidance) {
            (Some(message), _) => message.clone(),
            (None, GuidanceRecord::WhenConfigured) => return Ok(None),
            (None, GuidanceRecord::Always) => String::new(),
        };
        Ok(Some(ContextWindowGuidanceSection::new(
            ContextWindowGuidanceSectionInputs { message },
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["token budget guidance message".to_string()]
    }
}

#[cfg(test)]
#[path = "context_window_guidance_tests.rs"]
mod tests;
