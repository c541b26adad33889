//! `orchestrator_skills`: the skills extension's section for the orchestrator's skill catalogue
//! (`codex-rs/ext/skills/src/world_state.rs`), present when the host has an orchestrator skill
//! provider ([`OrchestratorSkills`]). Snapshot: `{body?, includeInstructions, enabled}`.
//!
//! This project has no orchestrator skills, so the section never carries a catalogue: it
//! records that the provider is there and off, and renders nothing unless a recorded snapshot
//! says a catalogue may have been shown (then a short update says none is available, or that
//! skills are no longer listed).

use codex_context_fragments::DEVELOPER_ROLE;
use codex_fragments::available_skills_instructions::AVAILABLE_SKILLS_INSTRUCTIONS;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde_json::Value;
use serde_json::json;

use crate::context::world_state::PreviousWorldStateSection;
use crate::context::world_state::RenderedWorldStateFragment;
use crate::context::world_state::WorldStateSectionContribution;
use crate::turn_context::OrchestratorSkills;
use crate::turn_context::SkillsListing;

/// Section ID of the orchestrator's skills.
pub const ORCHESTRATOR_SKILLS_SECTION_ID: &str = "orchestrator_skills";
/// Snapshot fields (upstream's camel case), in upstream's order.
const BODY_FIELD: &str = "body";
const INCLUDE_INSTRUCTIONS_FIELD: &str = "includeInstructions";
const ENABLED_FIELD: &str = "enabled";

/// The section for `orchestrator`, `None` when the host has no orchestrator provider.
pub fn orchestrator_skills_contribution(
    orchestrator: OrchestratorSkills,
    listing: SkillsListing,
    templates: &TemplateSet,
) -> Option<WorldStateSectionContribution> {
    let enabled = match orchestrator {
        OrchestratorSkills::Absent => return None,
        OrchestratorSkills::Disabled => false,
    };
    let listed = listing.is_listed();
    let snapshot = json!({
        BODY_FIELD: Value::Null,
        INCLUDE_INSTRUCTIONS_FIELD: listed,
        ENABLED_FIELD: enabled,
    });
    let update = if listed || !enabled {
        TemplateId::SkillsOrchestratorNoneAvailable
    } else {
        TemplateId::SkillsOrchestratorNotListed
    };
    let update = format!("\n{}\n", templates.text(update));
    let renderer = move |previous: PreviousWorldStateSection<'_>| {
        match previous {
            PreviousWorldStateSection::Known(stored) => {
                let same = stored.get(BODY_FIELD).is_none_or(Value::is_null)
                    && stored
                        .get(INCLUDE_INSTRUCTIONS_FIELD)
                        .and_then(Value::as_bool)
                        == Some(listed)
                    && stored.get(ENABLED_FIELD).and_then(Value::as_bool) == Some(enabled);
                if same {
                    return None;
                }
            }
            PreviousWorldStateSection::Unknown => {}
            PreviousWorldStateSection::Absent => return None,
        }
        Some(RenderedWorldStateFragment {
            role: DEVELOPER_ROLE,
            markers: AVAILABLE_SKILLS_INSTRUCTIONS.markers(),
            body: update.clone(),
        })
    };
    Some(WorldStateSectionContribution::new(
        ORCHESTRATOR_SKILLS_SECTION_ID,
        snapshot,
        renderer,
    ))
}

#[cfg(test)]
#[path = "orchestrator_skills_tests.rs"]
mod tests;
