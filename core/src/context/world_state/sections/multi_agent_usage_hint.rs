//! `multi_agent_usage_hint`: the role instructions that tell a multi-agent model how to use
//! sub-agents. Text from the model catalog is wrapped in `<multi_agent_role>`; text from
//! configuration, and this project's bundled root-agent text, is sent unmarked. Either way it is a developer message of its own.

use std::borrow::Cow;

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::MULTI_AGENT_ROLE;
use codex_fragments::sections::MULTI_AGENT_USAGE_HINT;
use codex_prompts::TemplateSet;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::MultiAgentUsageHintSectionInputs;
use crate::turn_context::TurnContext;
use crate::turn_context::UsageHintSource;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiAgentUsageHintSection {
    text: String,
    source: UsageHintSource,
    rendered: String,
    fingerprint: FragmentFingerprint,
}

impl MultiAgentUsageHintSection {
    /// The section exists only when there is a hint, so blank text is rejected.
    pub fn new(inputs: MultiAgentUsageHintSectionInputs) -> Result<Self, WorldStateError> {
        if inputs.text.trim().is_empty() {
            return Err(WorldStateError::RejectedInputs {
                section: Self::ID.to_string(),
                reason: "the usage hint text is empty".to_string(),
            });
        }
        let fragment = usage_hint_fragment(&inputs.text, inputs.source);
        Ok(Self {
            rendered: fragment.render(),
            fingerprint: FragmentFingerprint::from_fragment(fragment.as_ref()),
            text: inputs.text,
            source: inputs.source,
        })
    }

    /// Fingerprint of the rendered hint; the `multi_agent_mode` snapshot records it so the
    /// mode is restated after the hint changes.
    pub fn fingerprint(&self) -> &FragmentFingerprint {
        &self.fingerprint
    }

    /// Where the hint's text comes from.
    pub fn source(&self) -> UsageHintSource {
        self.source
    }
}

fn usage_hint_fragment(text: &str, source: UsageHintSource) -> SectionFragment {
    match source {
        UsageHintSource::Catalog => MULTI_AGENT_ROLE.fragment(format!("\n{text}\n")),
        UsageHintSource::CatalogRoleWithUsage => MULTI_AGENT_ROLE.fragment(text.to_string()),
        UsageHintSource::Configured | UsageHintSource::Bundled => {
            MULTI_AGENT_USAGE_HINT.fragment(text.to_string())
        }
    }
}

impl WorldStateSection for MultiAgentUsageHintSection {
    const ID: &'static str = "multi_agent_usage_hint";
    type Snapshot = FragmentFingerprint;

    fn snapshot(&self) -> FragmentFingerprint {
        self.fingerprint.clone()
    }

    /// Configured hints carry no markers, so history is searched for exactly the current
    /// rendering.
    fn matches_current_legacy_fragment(&self, role: &str, text: &str) -> bool {
        role == DEVELOPER_ROLE && text == self.rendered
    }

    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.fingerprint.as_str())
    }

    /// The catalog's role text is the model's, in this project's catalog, and the bundled
    /// text is this project's own; a recorded fingerprint of either is replaced by this
    /// section's (built for the recorded model). A configured hint is sent verbatim, so its
    /// recorded fingerprint stays comparable.
    fn rederive_recorded(&self, _recorded: &FragmentFingerprint) -> Option<FragmentFingerprint> {
        match self.source {
            UsageHintSource::Catalog
            | UsageHintSource::CatalogRoleWithUsage
            | UsageHintSource::Bundled => Some(self.fingerprint.clone()),
            UsageHintSource::Configured => None,
        }
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, FragmentFingerprint>,
    ) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Known(previous) if previous == &self.fingerprint => None,
            PreviousSectionState::Unknown => None,
            PreviousSectionState::Known(_) | PreviousSectionState::Absent => {
                Some(usage_hint_fragment(&self.text, self.source))
            }
        }
    }
}

impl CatalogSection for MultiAgentUsageHintSection {
    type Inputs = MultiAgentUsageHintSectionInputs;

    fn from_inputs(
        inputs: MultiAgentUsageHintSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Self::new(inputs)
    }

    fn from_snapshot(
        _snapshot: FragmentFingerprint,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("a fingerprint of the hint, not its text")
    }
}

impl StepSection for MultiAgentUsageHintSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        turn.multi_agent
            .usage_hint
            .as_ref()
            .filter(|hint| !hint.text.trim().is_empty())
            .map(|hint| MultiAgentUsageHintSection::new(hint.clone()))
            .transpose()
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["multi-agent usage hint".to_string()]
    }
}

#[cfg(test)]
#[path = "multi_agent_usage_hint_tests.rs"]
mod tests;
