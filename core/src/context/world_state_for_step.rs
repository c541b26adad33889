//! The ordered registry of built-in world-state sections: one row per section, in upstream's
//! registry order (`codex-rs/core/src/context/world_state.rs` at the reference). Every view is
//! derived from it: the sections of a sampling step ([`build_world_state_for_step`]), the
//! section catalogue that `world-state diff` builds sections from, and what `explain` says each
//! section's render is made of ([`section_built_from`]).
//!
//! Adding a section: its file under `world_state/sections/` implementing [`StepSection`] and
//! [`CatalogSection`], and one row in [`SECTIONS`].

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_release::OrchestratorSkillsRecord;
use codex_release::SkillPaths;

use crate::context::world_state::CatalogEntry;
use crate::context::world_state::CatalogSection;
use crate::context::world_state::HOST_SKILLS_SECTION_ID;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::sections::agents_md::AgentsMdSection;
use crate::context::world_state::sections::approved_command_prefixes::ApprovedCommandPrefixesSection;
use crate::context::world_state::sections::apps_instructions::AppsInstructionsSection;
use crate::context::world_state::sections::collaboration_mode::CollaborationModeSection;
use crate::context::world_state::sections::context_window::ContextWindowSection;
use crate::context::world_state::sections::context_window_guidance::ContextWindowGuidanceSection;
use crate::context::world_state::sections::environments::EnvironmentsSection;
use crate::context::world_state::sections::environments_instructions::EnvironmentsInstructionsSection;
use crate::context::world_state::sections::git_attribution::GIT_ATTRIBUTION_SECTION_ID;
use crate::context::world_state::sections::git_attribution::git_attribution_contribution;
use crate::context::world_state::sections::managed_developer_instructions::ManagedDeveloperInstructionsSection;
use crate::context::world_state::sections::model::ModelSection;
use crate::context::world_state::sections::model_catalog::ModelCatalogSection;
use crate::context::world_state::sections::multi_agent_mode::MultiAgentModeSection;
use crate::context::world_state::sections::multi_agent_usage_hint::MultiAgentUsageHintSection;
use crate::context::world_state::sections::orchestrator_skills::ORCHESTRATOR_SKILLS_SECTION_ID;
use crate::context::world_state::sections::orchestrator_skills::orchestrator_skills_contribution;
use crate::context::world_state::sections::permissions::PermissionsSection;
use crate::context::world_state::sections::persistent_mode::PersistentModeSection;
use crate::context::world_state::sections::personality::PersonalitySection;
use crate::context::world_state::sections::plugins_instructions::PluginsInstructionsSection;
use crate::context::world_state::sections::realtime::RealtimeSection;
use crate::context::world_state::sections::skills::SKILLS_SECTION_ID;
use crate::context::world_state::sections::skills::SkillsCatalogSource;
use crate::context::world_state::sections::skills::alias_skill_roots;
use crate::context::world_state::sections::skills::skills_catalog_body;
use crate::context::world_state::sections::skills::skills_section_contribution;
use crate::context::world_state::sections::tools::ToolsSection;
use crate::context::world_state::sections::top_level_tools::TOP_LEVEL_TOOLS_SECTION_ID;
use crate::context::world_state::sections::top_level_tools::top_level_tools_contribution;
use crate::turn_context::TurnContext;
use codex_fragments::available_skills_instructions::SkillUsageRules;

/// A built-in section as one sampling step needs it.
///
/// Implementations must build from the turn context and templates alone (the same inputs give
/// the same section), return `None` exactly when the section is absent from the step, and name
/// in `built_from` every input its full render reads (templates as `prompts/templates/…`).
pub trait StepSection: CatalogSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError>;

    fn built_from(turn: &TurnContext) -> Vec<String>;
}

type AddToStep = fn(&mut WorldState, &TurnContext, &TemplateSet) -> Result<(), WorldStateError>;

/// One row of the registry.
#[derive(Clone, Copy)]
pub enum SectionRow {
    /// A built-in section.
    Section {
        catalog: CatalogEntry,
        add: AddToStep,
        built_from: fn(&TurnContext) -> Vec<String>,
    },
    /// Extension contributions registered among the built-in sections, with the IDs of the
    /// sections they may contribute.
    Extension {
        #[cfg_attr(not(test), expect(dead_code, reason = "read by the registry's tests"))]
        ids: &'static [&'static str],
        add: AddToStep,
    },
}

impl SectionRow {
    /// The row of built-in section `S`.
    pub const fn of<S: StepSection>() -> Self {
        SectionRow::Section {
            catalog: CatalogEntry::of::<S>(),
            add: add_to_step::<S>,
            built_from: S::built_from,
        }
    }
}

fn add_to_step<S: StepSection>(
    world_state: &mut WorldState,
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<(), WorldStateError> {
    match S::for_step(turn, templates)? {
        Some(section) => world_state.add_section(section),
        None => Ok(()),
    }
}

/// Every built-in section in upstream registry order.
pub static SECTIONS: &[SectionRow] = &[
    SectionRow::of::<ModelSection>(),
    SectionRow::of::<PersonalitySection>(),
    SectionRow::of::<ContextWindowSection>(),
    SectionRow::of::<ContextWindowGuidanceSection>(),
    SectionRow::of::<RealtimeSection>(),
    SectionRow::of::<AgentsMdSection>(),
    SectionRow::of::<PermissionsSection>(),
    SectionRow::of::<ApprovedCommandPrefixesSection>(),
    SectionRow::of::<CollaborationModeSection>(),
    SectionRow::of::<PersistentModeSection>(),
    SectionRow::of::<EnvironmentsSection>(),
    SectionRow::of::<EnvironmentsInstructionsSection>(),
    SectionRow::of::<AppsInstructionsSection>(),
    SectionRow::of::<PluginsInstructionsSection>(),
    SectionRow::of::<ToolsSection>(),
    // For Responses Lite models, on the releases that record it.
    SectionRow::Extension {
        ids: &[TOP_LEVEL_TOOLS_SECTION_ID],
        add: add_top_level_tools,
    },
    // `skills`, `orchestrator_skills` and `host_skills`.
    SectionRow::Extension {
        ids: &[
            SKILLS_SECTION_ID,
            ORCHESTRATOR_SKILLS_SECTION_ID,
            HOST_SKILLS_SECTION_ID,
        ],
        add: add_skills,
    },
    // When the host installs that extension.
    SectionRow::Extension {
        ids: &[GIT_ATTRIBUTION_SECTION_ID],
        add: add_git_attribution,
    },
    SectionRow::of::<MultiAgentUsageHintSection>(),
    SectionRow::of::<MultiAgentModeSection>(),
    SectionRow::of::<ModelCatalogSection>(),
    SectionRow::of::<ManagedDeveloperInstructionsSection>(),
];

/// The catalogue rows of the built-in sections, in registry order.
pub fn section_catalog() -> impl Iterator<Item = &'static CatalogEntry> {
    SECTIONS.iter().filter_map(|row| match row {
        SectionRow::Section { catalog, .. } => Some(catalog),
        SectionRow::Extension { .. } => None,
    })
}

/// The sections of one step, in registry order.
pub fn build_world_state_for_step(
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<WorldState, WorldStateError> {
    let mut world_state = WorldState::new();
    for row in SECTIONS {
        let add = match row {
            SectionRow::Section { add, .. } | SectionRow::Extension { add, .. } => add,
        };
        add(&mut world_state, turn, templates)?;
    }
    Ok(world_state)
}

/// What the full render of section `section_id` is made of for `turn` (empty for an extension
/// or an unknown ID).
pub fn section_built_from(turn: &TurnContext, section_id: &str) -> Vec<String> {
    SECTIONS
        .iter()
        .find_map(|row| match row {
            SectionRow::Section {
                catalog,
                built_from,
                ..
            } if catalog.id() == section_id => Some(built_from(turn)),
            SectionRow::Section { .. } | SectionRow::Extension { .. } => None,
        })
        .unwrap_or_default()
}

/// A template as `explain` names it.
pub fn template_source(id: TemplateId) -> String {
    format!("prompts/templates/{}", id.path())
}

/// The `top_level_tools` record of a Responses Lite model's up-front tools.
fn add_top_level_tools(
    world_state: &mut WorldState,
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<(), WorldStateError> {
    match top_level_tools_contribution(turn, templates)? {
        Some(contribution) => world_state.add_contribution(contribution),
        None => Ok(()),
    }
}

/// The git-attribution extension's section, when the host installs that extension.
fn add_git_attribution(
    world_state: &mut WorldState,
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<(), WorldStateError> {
    match &turn.git_attribution {
        Some(inputs) => {
            world_state.add_contribution(git_attribution_contribution(inputs, templates))
        }
        None => Ok(()),
    }
}

/// The skills extension's sections: the selected environments' listing, the orchestrator's
/// (when the host has its provider) and the host catalogue (declared and discovered skills).
fn add_skills(
    world_state: &mut WorldState,
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<(), WorldStateError> {
    let model = &turn.model;
    let Some(skills) = &turn.skills else {
        return Ok(());
    };
    let usage = if model.include_skills_usage_instructions {
        SkillUsageRules::Include
    } else {
        SkillUsageRules::Omit
    };
    // This project discovers no skills in the selected environments, so `skills` only
    // records the listing; `host_skills` carries the host's catalogue.
    world_state.add_contribution(skills_section_contribution(
        SkillsCatalogSource::SelectedEnvironments,
        None,
        skills.listing,
        usage,
        templates,
    ))?;
    let orchestrator = match turn.profile().orchestrator_skills {
        OrchestratorSkillsRecord::Recorded => {
            orchestrator_skills_contribution(skills.orchestrator, skills.listing, templates)
        }
        OrchestratorSkillsRecord::Absent => None,
    };
    if let Some(orchestrator) = orchestrator {
        world_state.add_contribution(orchestrator)?;
    }
    let (roots, host) = match turn.profile().skill_paths {
        SkillPaths::Absolute => (Vec::new(), skills.host.clone()),
        SkillPaths::RootAliases => alias_skill_roots(&skills.roots, &skills.host),
    };
    world_state.add_contribution(skills_section_contribution(
        SkillsCatalogSource::Host,
        skills_catalog_body(&roots, &host, skills.listing, usage, templates),
        skills.listing,
        usage,
        templates,
    ))?;
    Ok(())
}

#[cfg(test)]
#[path = "world_state_for_step_tests.rs"]
mod tests;
