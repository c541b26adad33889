use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::ErasedWorldStateSection;
use crate::context::world_state::PreviousSectionState;

fn section(listing: SkillsListing) -> WorldStateSectionContribution {
    orchestrator_skills_contribution(
        OrchestratorSkills::Disabled,
        listing,
        &TemplateSet::embedded(),
    )
    .expect("the host has an orchestrator provider")
}

#[test]
fn absent_without_an_orchestrator_provider() {
    assert!(
        orchestrator_skills_contribution(
            OrchestratorSkills::Absent,
            SkillsListing::Listed,
            &TemplateSet::embedded()
        )
        .is_none()
    );
}

#[test]
fn snapshot_records_listing_and_the_provider_switched_off() {
    // The null body is left out.
    assert_eq!(
        section(SkillsListing::Listed).persisted_snapshot(),
        Some(json!({"includeInstructions": true, "enabled": false}))
    );
}

#[test]
fn renders_only_when_a_recorded_catalogue_may_have_been_shown() {
    let listed = section(SkillsListing::Listed);
    assert!(
        listed
            .render_diff_from_json(PreviousSectionState::Absent)
            .is_none()
    );
    let same = json!({"includeInstructions": true, "enabled": false});
    assert!(
        listed
            .render_diff_from_json(PreviousSectionState::Known(&same))
            .is_none()
    );
    let enabled_before = json!({"body": "\nx\n", "includeInstructions": true, "enabled": true});
    let update = listed
        .render_diff_from_json(PreviousSectionState::Known(&enabled_before))
        .expect("an update");
    assert_eq!(
        update.render(),
        format!(
            "<skills_instructions>\n{}\n</skills_instructions>",
            TemplateSet::embedded().text(TemplateId::SkillsOrchestratorNoneAvailable)
        )
    );
    assert_eq!(
        update.content_kind().as_str(),
        "orchestrator_skills.instructions"
    );
}
