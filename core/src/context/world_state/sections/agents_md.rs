//! `agents_md`: the assembled AGENTS.md instructions, sent in the contextual user message,
//! with a replacement or removal notice when they change.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::AGENTS_MD_INSTRUCTIONS;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Snapshot of the `agents_md` section: `{}` when nothing is loaded, so that a removal is
/// still expressible.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentsMdSnapshot {
    /// The single project directory the instructions belong to (omitted when several project
    /// environments contributed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The AGENTS.md fragment for `text`, optionally labelled with its directory:
/// `# AGENTS.md instructions[ for <dir>]\n\n<INSTRUCTIONS>\n<text>\n</INSTRUCTIONS>`.
pub fn agents_md_fragment(directory: Option<&str>, text: &str) -> SectionFragment {
    let header = directory
        .map(|directory| format!(" for {directory}"))
        .unwrap_or_default();
    AGENTS_MD_INSTRUCTIONS.fragment(format!("{header}\n\n<INSTRUCTIONS>\n{text}\n"))
}

/// Inputs of the `agents_md` section (the snapshot shape; empty text counts as none).
pub type AgentsMdSectionInputs = AgentsMdSnapshot;

#[derive(Clone, Debug)]
pub struct AgentsMdSection {
    snapshot: AgentsMdSnapshot,
    replaced_template: String,
    removed_template: String,
}

impl AgentsMdSection {
    pub fn new(inputs: AgentsMdSectionInputs, templates: &TemplateSet) -> Self {
        let snapshot = match inputs.text.filter(|text| !text.is_empty()) {
            Some(text) => AgentsMdSnapshot {
                directory: inputs.directory,
                text: Some(text),
            },
            None => AgentsMdSnapshot::default(),
        };
        Self {
            snapshot,
            replaced_template: templates.text(TemplateId::AgentsMdReplaced).to_string(),
            removed_template: templates.text(TemplateId::AgentsMdRemoved).to_string(),
        }
    }
}

impl WorldStateSection for AgentsMdSection {
    const ID: &'static str = "agents_md";
    type Snapshot = AgentsMdSnapshot;

    fn snapshot(&self) -> AgentsMdSnapshot {
        self.snapshot.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        AGENTS_MD_INSTRUCTIONS.recognises(role, text)
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, AgentsMdSnapshot>,
    ) -> Option<SectionFragment> {
        let previous_may_have_instructions = match previous {
            PreviousSectionState::Known(previous) if previous == &self.snapshot => return None,
            PreviousSectionState::Known(previous) => previous.text.is_some(),
            PreviousSectionState::Unknown => true,
            PreviousSectionState::Absent => false,
        };
        let directory = self.snapshot.directory.as_deref();
        match (&self.snapshot.text, previous_may_have_instructions) {
            (Some(text), true) => Some(agents_md_fragment(
                directory,
                &render(&self.replaced_template, &[("instructions", text)]),
            )),
            (Some(text), false) => Some(agents_md_fragment(directory, text)),
            (None, true) => Some(agents_md_fragment(None, &self.removed_template)),
            (None, false) => None,
        }
    }
}

impl CatalogSection for AgentsMdSection {
    type Inputs = AgentsMdSectionInputs;

    fn from_inputs(
        inputs: AgentsMdSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        snapshot: AgentsMdSnapshot,
        templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self::new(snapshot, templates))
    }
}

impl StepSection for AgentsMdSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        let agents_md = turn.agents_md.as_ref();
        Ok(Some(AgentsMdSection::new(
            AgentsMdSnapshot {
                directory: agents_md
                    .and_then(|discovery| discovery.directory())
                    .map(|directory| directory.display().to_string()),
                text: agents_md.and_then(|discovery| discovery.text()),
            },
            templates,
        )))
    }

    fn built_from(turn: &TurnContext) -> Vec<String> {
        turn.agents_md
            .iter()
            .flat_map(|discovery| discovery.sources())
            .map(|path| path.display().to_string())
            .collect()
    }
}

#[cfg(test)]
#[path = "agents_md_tests.rs"]
mod tests;
