//! `skills` and `host_skills`: the skills extension's sections (built as
//! [`WorldStateSectionContribution`]s). Each carries one skills catalogue inside
//! `<skills_instructions>`: `skills` the skills of the selected execution environments,
//! `host_skills` the skills on the host file system (placed before `permissions` by the
//! registry). Snapshot: `{body?, includeInstructions}`, the catalogue body without markers.
//!
//! A catalogue is sent when its body is new to the model. Its list of skills is what the model
//! has seen of it: a stored catalogue counts as still in history while history holds a
//! `<skills_instructions>` listing the same skills, and a catalogue another renderer recorded
//! (the released CLI's, in its own words) is re-rendered here from the skills it lists, so that
//! resuming its rollout re-sends the catalogue only when the skills changed.
//!
//!  When a catalogue the model may have
//! seen goes away, a short update says that no such skills are available, or that they are no
//! longer listed (when listing was switched off); a section that never had one says nothing.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_fragments::available_skills_instructions::AVAILABLE_SKILLS_INSTRUCTIONS;
use codex_fragments::available_skills_instructions::AvailableSkillsInstructions;
use codex_fragments::available_skills_instructions::SkillEntry;
use codex_fragments::available_skills_instructions::SkillRoot;
use codex_fragments::available_skills_instructions::SkillUsageRules;
use codex_fragments::available_skills_instructions::listed_roots;
use codex_fragments::available_skills_instructions::listed_skills;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde_json::Value;
use serde_json::json;
use std::path::Path;

use crate::context::world_state::HOST_SKILLS_SECTION_ID;
use crate::context::world_state::PreviousWorldStateSection;
use crate::context::world_state::RenderedWorldStateFragment;
use crate::context::world_state::WorldStateSectionContribution;
use crate::turn_context::SkillsListing;

/// Section ID of the selected environments' skills.
pub const SKILLS_SECTION_ID: &str = "skills";
/// What a root alias starts with (`r0`, `r1`, …).
const ROOT_ALIAS_PREFIX: &str = "r";
/// Snapshot field holding the catalogue body.
const BODY_FIELD: &str = "body";
/// Snapshot field recording whether catalogues are listed (upstream's camel case).
const INCLUDE_INSTRUCTIONS_FIELD: &str = "includeInstructions";

/// Which catalogue a section carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillsCatalogSource {
    /// Skills of the selected execution environments (section `skills`).
    SelectedEnvironments,
    /// Skills on the host file system (section `host_skills`).
    Host,
}

impl SkillsCatalogSource {
    pub fn section_id(self) -> &'static str {
        match self {
            Self::SelectedEnvironments => SKILLS_SECTION_ID,
            Self::Host => HOST_SKILLS_SECTION_ID,
        }
    }

    fn none_available(self) -> TemplateId {
        match self {
            Self::SelectedEnvironments => TemplateId::SkillsEnvironmentNoneAvailable,
            Self::Host => TemplateId::SkillsHostNoneAvailable,
        }
    }

    fn not_listed(self) -> TemplateId {
        match self {
            Self::SelectedEnvironments => TemplateId::SkillsEnvironmentNotListed,
            Self::Host => TemplateId::SkillsHostNotListed,
        }
    }
}

/// The catalogue body (without markers) of `skills`, whose paths may start with the aliases of
/// `roots`, or `None` when there is nothing to list: no skills, or listing switched off.
pub fn skills_catalog_body(
    roots: &[SkillRoot],
    skills: &[SkillEntry],
    listing: SkillsListing,
    usage: SkillUsageRules,
    templates: &TemplateSet,
) -> Option<String> {
    (listing.is_listed() && !skills.is_empty())
        .then(|| AvailableSkillsInstructions::new(roots, skills, usage, templates).body())
}

/// `skills` with each path under one of `roots` (the most specific one) written relative to
/// that root's alias, and the aliases: `r0`, `r1`, … for the roots that hold a listed skill,
/// in the order of `roots`. Paths under no root stay as they are.
pub fn alias_skill_roots(
    roots: &[String],
    skills: &[SkillEntry],
) -> (Vec<SkillRoot>, Vec<SkillEntry>) {
    let root_of = |skill: &SkillEntry| {
        roots
            .iter()
            .enumerate()
            .filter(|(_, root)| Path::new(&skill.path).starts_with(root.as_str()))
            .max_by_key(|(_, root)| root.len())
            .map(|(index, _)| index)
    };
    let used: Vec<usize> = (0..roots.len())
        .filter(|index| skills.iter().any(|skill| root_of(skill) == Some(*index)))
        .collect();
    let alias = |index: usize| {
        used.iter()
            .position(|used| *used == index)
            .map(|position| format!("{ROOT_ALIAS_PREFIX}{position}"))
    };
    let aliased = skills
        .iter()
        .map(|skill| {
            let path = root_of(skill)
                .and_then(|index| {
                    let relative = Path::new(&skill.path).strip_prefix(&roots[index]).ok()?;
                    let parts: Vec<String> = relative
                        .components()
                        .map(|part| part.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    Some(format!("{}/{}", alias(index)?, parts.join("/")))
                })
                .unwrap_or_else(|| skill.path.clone());
            SkillEntry {
                path,
                ..skill.clone()
            }
        })
        .collect();
    let aliases = used
        .iter()
        .enumerate()
        .map(|(position, index)| SkillRoot {
            alias: format!("{ROOT_ALIAS_PREFIX}{position}"),
            path: roots[*index].clone(),
        })
        .collect();
    (aliases, aliased)
}

/// The contribution of one skills section. `body` is the catalogue as
/// [`skills_catalog_body`] renders it (with `usage`). It is sent unless the stored snapshot has the same body
/// and listing; without a body, an update notice is sent only when the model may have seen a
/// catalogue (any previous state but Absent). A stored body is trusted only while history still
/// holds that catalogue; the selected environments' section also takes any catalogue in history
/// written before it was persisted as seen.
pub fn skills_section_contribution(
    source: SkillsCatalogSource,
    body: Option<String>,
    listing: SkillsListing,
    usage: SkillUsageRules,
    templates: &TemplateSet,
) -> WorldStateSectionContribution {
    let listed = listing.is_listed();
    let snapshot = json!({ BODY_FIELD: body, INCLUDE_INSTRUCTIONS_FIELD: listed });
    let update = if listed {
        source.none_available()
    } else {
        source.not_listed()
    };
    let update = format!("\n{}\n", templates.text(update));
    let retained = body.clone();
    let renderer = move |previous: PreviousWorldStateSection<'_>| {
        let previously_absent = match previous {
            PreviousWorldStateSection::Known(stored) => {
                let same_body = stored.get(BODY_FIELD).and_then(Value::as_str) == body.as_deref();
                let same_listing = stored
                    .get(INCLUDE_INSTRUCTIONS_FIELD)
                    .and_then(Value::as_bool)
                    == Some(listed);
                if same_body && same_listing {
                    return None;
                }
                false
            }
            PreviousWorldStateSection::Unknown => false,
            PreviousWorldStateSection::Absent => true,
        };
        let body = match &body {
            Some(body) => body.clone(),
            None if previously_absent => return None,
            None => update.clone(),
        };
        Some(RenderedWorldStateFragment {
            role: DEVELOPER_ROLE,
            markers: AVAILABLE_SKILLS_INSTRUCTIONS.markers(),
            body,
        })
    };
    let mut contribution =
        WorldStateSectionContribution::new(source.section_id(), snapshot, renderer);
    match source {
        SkillsCatalogSource::SelectedEnvironments => {
            contribution = contribution.with_legacy_matcher(|role, text| {
                AVAILABLE_SKILLS_INSTRUCTIONS.recognises(role, text)
            });
        }
        SkillsCatalogSource::Host => {}
    }
    let rederive_templates = templates.clone();
    contribution = contribution.with_rederive(move |recorded| {
        let recorded_body = recorded.get(BODY_FIELD)?.as_str()?;
        let roots = listed_roots(recorded_body);
        let skills = listed_skills(recorded_body);
        let listing = match recorded.get(INCLUDE_INSTRUCTIONS_FIELD)?.as_bool()? {
            true => SkillsListing::Listed,
            false => SkillsListing::NotListed,
        };
        let body = skills_catalog_body(&roots, &skills, listing, usage, &rederive_templates)?;
        let mut rederived = recorded.clone();
        rederived[BODY_FIELD] = Value::String(body);
        Some(rederived)
    });
    match retained {
        Some(body) => {
            let roots = listed_roots(&body);
            let skills = listed_skills(&body);
            let (start, _) = AVAILABLE_SKILLS_INSTRUCTIONS.markers();
            contribution.with_retained_fragment_matcher(move |role, text| {
                role == DEVELOPER_ROLE
                    && text.contains(start)
                    && listed_skills(text) == skills
                    && listed_roots(text) == roots
            })
        }
        None => contribution,
    }
}

#[cfg(test)]
#[path = "skills_tests.rs"]
mod tests;
