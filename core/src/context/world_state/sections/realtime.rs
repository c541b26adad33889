//! `realtime`: tells the model when a realtime (voice) conversation starts or ends.

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::REALTIME_CUSTOM_START;
use codex_fragments::sections::REALTIME_END;
use codex_fragments::sections::REALTIME_START;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde::Deserialize;
use serde::Serialize;

use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;

/// Snapshot of the `realtime` section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealtimeSnapshot {
    pub active: bool,
}

/// Inputs of the `realtime` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RealtimeSectionInputs {
    /// Whether a realtime conversation is live.
    pub active: bool,
    /// Start text of the realtime mode, else of `experimental_realtime_start_instructions`.
    #[serde(default)]
    pub start_instructions: Option<String>,
    /// Configured end text.
    #[serde(default)]
    pub end_instructions: Option<String>,
}

#[derive(Clone, Debug)]
pub struct RealtimeSection {
    snapshot: RealtimeSnapshot,
    start: StartText,
    end: String,
}

#[derive(Clone, Debug)]
enum StartText {
    BuiltIn(String),
    Custom(String),
}

impl RealtimeSection {
    pub fn new(inputs: RealtimeSectionInputs, templates: &TemplateSet) -> Self {
        let start = match inputs.start_instructions.filter(|text| !text.is_empty()) {
            Some(custom) => StartText::Custom(custom),
            None => {
                StartText::BuiltIn(templates.text(TemplateId::RealtimeStart).trim().to_string())
            }
        };
        let end = inputs
            .end_instructions
            .filter(|text| !text.is_empty())
            .unwrap_or_else(|| templates.text(TemplateId::RealtimeEnd).trim().to_string());
        Self {
            snapshot: RealtimeSnapshot {
                active: inputs.active,
            },
            start,
            end,
        }
    }
}

impl WorldStateSection for RealtimeSection {
    const ID: &'static str = "realtime";
    type Snapshot = RealtimeSnapshot;

    fn snapshot(&self) -> RealtimeSnapshot {
        self.snapshot
    }

    /// Start and end blocks share their markers, so either one is recognised.
    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        REALTIME_START.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        Self::matches_legacy_fragment(role, text)
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, RealtimeSnapshot>,
    ) -> Option<SectionFragment> {
        let was_active = match previous {
            PreviousSectionState::Known(previous) => Some(previous.active),
            PreviousSectionState::Absent | PreviousSectionState::Unknown => None,
        };
        match (was_active, self.snapshot.active) {
            (Some(false) | None, true) => Some(match &self.start {
                StartText::BuiltIn(text) => REALTIME_START.fragment(format!("\n{text}\n")),
                StartText::Custom(text) => REALTIME_CUSTOM_START.fragment(format!("\n{text}\n")),
            }),
            (Some(true), false) => Some(REALTIME_END.fragment(format!("\n{}\n", self.end))),
            (Some(true), true) | (Some(false) | None, false) => None,
        }
    }
}

impl CatalogSection for RealtimeSection {
    type Inputs = RealtimeSectionInputs;

    fn from_inputs(
        inputs: RealtimeSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        _snapshot: RealtimeSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("only whether realtime is active, not the start and end texts it renders")
    }
}

impl StepSection for RealtimeSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        Ok(Some(RealtimeSection::new(
            RealtimeSectionInputs {
                active: turn.realtime.active,
                start_instructions: turn.realtime.start_instructions.clone(),
                end_instructions: turn.realtime.end_instructions.clone(),
            },
            templates,
        )))
    }

    fn built_from(turn: &TurnContext) -> Vec<String> {
        match &turn.realtime.start_instructions {
            Some(_) => vec!["realtime start instructions (configured)".to_string()],
            None => vec![template_source(TemplateId::RealtimeStart)],
        }
    }
}

#[cfg(test)]
#[path = "realtime_tests.rs"]
mod tests;
