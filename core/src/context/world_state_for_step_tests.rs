use codex_prompts::TemplateSet;
use codex_protocol::ModelInfo;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::HOST_SKILLS_SECTION_ID;
use crate::context::world_state::PERMISSIONS_SECTION_ID;
use crate::context::world_state::catalog_section_ids;
use crate::turn_context::MultiAgentUsageHintSectionInputs;
use crate::turn_context::OrchestratorSkills;
use crate::turn_context::SkillsListing;
use crate::turn_context::SkillsSettings;
use crate::turn_context::UsageHintSource;
use codex_config::AgentsMdDiscovery;
use codex_config::Feature;
use codex_config::GlobalInstructions;
use codex_fragments::FragmentOrigin;
use codex_fragments::all_fragment_types;

/// A turn that turns on every section the registry knows.
fn everything_on() -> TurnContext {
    let mut turn =
        TurnContext::for_model("thread-1", "turn-1", ModelInfo::with_defaults("m"), "/w");
    for feature in Feature::ALL {
        turn.features.set(*feature, true);
    }
    turn.model.context_window = Some(100_000);
    turn.model.include_apps_usage_instructions = true;
    turn.model.include_plugin_usage_instructions = true;
    turn.token_budget.guidance_message = Some("Mind the budget.".to_string());
    turn.agents_md = Some(AgentsMdDiscovery {
        global: Some(GlobalInstructions {
            path: "/home/.codex/AGENTS.md".into(),
            text: "Be brief.".to_string(),
        }),
        primary_cwd: Some("/w".into()),
        ..AgentsMdDiscovery::default()
    });
    turn.skills = Some(SkillsSettings {
        listing: SkillsListing::Listed,
        orchestrator: OrchestratorSkills::Disabled,
        ..SkillsSettings::default()
    });
    turn.git_attribution = Some(
        crate::context::world_state::sections::git_attribution::GitAttributionInputs::default(),
    );
    turn.multi_agent.usage_hint = Some(MultiAgentUsageHintSectionInputs {
        source: UsageHintSource::Configured,
        text: "Delegate wide searches.".to_string(),
    });
    turn
}

/// Every section ID the registry's rows contribute, in row order.
fn row_ids() -> Vec<&'static str> {
    SECTIONS
        .iter()
        .flat_map(|row| match row {
            SectionRow::Section { catalog, .. } => vec![catalog.id()],
            SectionRow::Extension { ids, .. } => ids.to_vec(),
        })
        .collect()
}

/// The built-in sections' IDs, in registry order.
fn built_in_ids() -> Vec<&'static str> {
    SECTIONS
        .iter()
        .filter_map(|row| match row {
            SectionRow::Section { catalog, .. } => Some(catalog.id()),
            SectionRow::Extension { .. } => None,
        })
        .collect()
}

/// Sections only 0.171.0 records, sections only 0.149.1 records, and sections only Responses
/// Lite models have (`everything_on`'s model is not).
const ONLY_0_171: [&str; 2] = ["persistent_mode", "model_catalog"];
const ONLY_0_149: [&str; 2] = ["personality", "orchestrator_skills"];
const ONLY_LITE: [&str; 1] = ["top_level_tools"];

/// Registry order as a world state holds it, without sections `without`: `host_skills` goes in
/// front of `permissions` when that section is present (`WorldState::add_contribution`).
fn step_order(without: &[&str]) -> Vec<&'static str> {
    let mut ids: Vec<&str> = row_ids()
        .into_iter()
        .filter(|id| !without.contains(id))
        .collect();
    if let Some(permissions) = ids.iter().position(|id| *id == PERMISSIONS_SECTION_ID) {
        ids.retain(|id| *id != HOST_SKILLS_SECTION_ID);
        ids.insert(permissions, HOST_SKILLS_SECTION_ID);
    }
    ids
}

#[test]
fn the_catalogue_is_the_registry_s_built_in_sections_in_order() {
    assert_eq!(catalog_section_ids().collect::<Vec<_>>(), built_in_ids());
}

#[test]
fn every_built_in_section_has_its_fragments_in_the_fragment_registry() {
    let produced: Vec<&str> = all_fragment_types()
        .iter()
        .filter_map(|info| match info.origin {
            FragmentOrigin::WorldStateSection(id) => Some(id),
            FragmentOrigin::Extension(_)
            | FragmentOrigin::Fragment
            | FragmentOrigin::Protocol
            | FragmentOrigin::Historical => None,
        })
        .collect();
    let missing: Vec<&str> = built_in_ids()
        .into_iter()
        .filter(|id| !produced.contains(id))
        .collect();
    assert_eq!(missing, Vec::<&str>::new());
}

#[test]
fn every_built_in_section_says_what_it_is_built_from() {
    let turn = everything_on();
    let silent: Vec<&str> = built_in_ids()
        .into_iter()
        .filter(|id| section_built_from(&turn, id).is_empty())
        .collect();
    assert_eq!(silent, Vec::<&str>::new());
    assert_eq!(
        section_built_from(&turn, "no_such_section"),
        Vec::<String>::new()
    );
}

#[test]
fn a_step_holds_the_registry_s_sections_in_registry_order() {
    let templates = TemplateSet::embedded();
    let mut turn = everything_on();
    let world_state = build_world_state_for_step(&turn, &templates).expect("world state");
    // Permissions and the approved-prefix section exclude each other.
    let without_prefixes = [&["approved_command_prefixes"][..], &ONLY_0_171, &ONLY_LITE].concat();
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        step_order(&without_prefixes)
    );

    turn.inclusion.permissions_instructions = crate::turn_context::Inclusion::Omitted;
    let world_state = build_world_state_for_step(&turn, &templates).expect("world state");
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        step_order(&[&["permissions"][..], &ONLY_0_171, &ONLY_LITE].concat())
    );
}

#[test]
fn a_0_171_step_holds_its_own_sections_in_registry_order() {
    let templates = TemplateSet::embedded();
    let mut turn = everything_on();
    turn.release = codex_release::CodexRelease::V0_171;
    turn.model_catalog = Some(codex_context_fragments::FragmentFingerprint::new(
        "developer",
        "m",
    ));
    let world_state = build_world_state_for_step(&turn, &templates).expect("world state");
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        step_order(&[&["approved_command_prefixes"][..], &ONLY_0_149, &ONLY_LITE].concat())
    );
}
