//! `context_window`: identifies the agent and its context windows. The full block is part of
//! the initial context only; diffs repeat it solely when the agent path changes.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::CONTEXT_WINDOW;
use codex_prompts::TemplateSet;
use serde::Deserialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::TurnContext;

/// Inputs of the `context_window` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextWindowSectionInputs {
    /// Path of this agent in the agent tree, e.g. `/root`.
    pub agent_path: String,
    pub first_window_id: String,
    pub window_id: String,
    #[serde(default)]
    pub previous_window_id: Option<String>,
    /// Notes about the thread carried over between windows, appended verbatim.
    #[serde(default)]
    pub thread_hint: Option<String>,
}

/// Snapshot: the agent path.
#[derive(Clone, Debug)]
pub struct ContextWindowSection {
    inputs: ContextWindowSectionInputs,
}

impl ContextWindowSection {
    pub fn new(inputs: ContextWindowSectionInputs) -> Self {
        Self { inputs }
    }

    /// The complete `<context_window>` block: the initial context's own developer message, and
    /// the diff when the agent path changed.
    fn full_fragment(&self) -> SectionFragment {
        let inputs = &self.inputs;
        let mut lines = vec![
            format!("Agent name: {}", inputs.agent_path),
            format!("First context window id: {}", inputs.first_window_id),
            format!("Current context window id: {}", inputs.window_id),
        ];
        if let Some(previous_window_id) = &inputs.previous_window_id {
            lines.push(format!("Previous context window id: {previous_window_id}"));
        }
        if let Some(thread_hint) = &inputs.thread_hint {
            lines.push(thread_hint.clone());
        }
        CONTEXT_WINDOW.fragment(format!("\n{}\n", lines.join("\n")))
    }
}

impl WorldStateSection for ContextWindowSection {
    const ID: &'static str = "context_window";
    type Snapshot = String;

    fn snapshot(&self) -> String {
        self.inputs.agent_path.clone()
    }

    fn render_diff(&self, previous: PreviousSectionState<'_, String>) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Known(agent_path) if agent_path != &self.inputs.agent_path => {
                Some(self.full_fragment())
            }
            PreviousSectionState::Known(_)
            | PreviousSectionState::Absent
            | PreviousSectionState::Unknown => None,
        }
    }

    fn render_initial(&self) -> Option<SectionFragment> {
        Some(self.full_fragment())
    }
}

impl CatalogSection for ContextWindowSection {
    type Inputs = ContextWindowSectionInputs;

    fn from_inputs(
        inputs: ContextWindowSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs))
    }

    fn from_snapshot(_snapshot: String, _templates: &TemplateSet) -> Result<Self, &'static str> {
        Err("only the agent path, not the window ids it renders")
    }
}

impl StepSection for ContextWindowSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if !turn.token_budget_applies() {
            return Ok(None);
        }
        let budget = &turn.token_budget;
        Ok(Some(ContextWindowSection::new(
            ContextWindowSectionInputs {
                agent_path: budget.agent_path.clone(),
                first_window_id: budget.first_window_id.clone(),
                window_id: budget.window_id.clone(),
                previous_window_id: budget.previous_window_id.clone(),
                thread_hint: budget.thread_hint.clone(),
            },
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["token budget: agent path and context window ids".to_string()]
    }
}

#[cfg(test)]
#[path = "context_window_tests.rs"]
mod tests;
