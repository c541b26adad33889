use codex_context_fragments::SectionFragment;
use codex_prompts::TemplateSet;
use serde_json::Value;

use super::catalog::catalog_entry;
#[cfg(test)]
use super::erased::ErasedWorldStateSection;
use super::error::WorldStateError;
use super::section::PreviousSectionState;
#[cfg(test)]
use super::section::WorldStateSection;

/// The previous state given to `world-state diff`: `absent`, `unknown`, or JSON: the inputs of
/// the previous section value (whose snapshot becomes the Known previous state) or a snapshot
/// as a rollout's `world_state` line records it.
#[derive(Clone, Debug, PartialEq)]
pub enum PreviousSectionArg {
    Absent,
    Unknown,
    Inputs(Value),
}

impl PreviousSectionArg {
    /// Reads the command-line spelling: `absent`, `unknown`, or JSON.
    pub fn parse(argument: &str) -> Result<Self, WorldStateError> {
        match argument {
            "absent" => Ok(Self::Absent),
            "unknown" => Ok(Self::Unknown),
            json => serde_json::from_str(json)
                .map(Self::Inputs)
                .map_err(WorldStateError::InvalidPreviousState),
        }
    }
}

/// Renders `current` against a previous section value the way the registry would after
/// persisting it: a Known previous section is reduced to its persisted snapshot (and left
/// Absent when it persists nothing), then restored through the current section's typed
/// snapshot. The transition tables of the section tests are built from it.
#[cfg(test)]
fn render_transition(
    previous: PreviousSectionState<'_, dyn ErasedWorldStateSection>,
    current: &dyn ErasedWorldStateSection,
) -> Option<SectionFragment> {
    match previous {
        PreviousSectionState::Absent => current.render_diff_from_json(PreviousSectionState::Absent),
        PreviousSectionState::Unknown => {
            current.render_diff_from_json(PreviousSectionState::Unknown)
        }
        PreviousSectionState::Known(section) => match section.persisted_snapshot() {
            Some(stored) => current.render_diff_from_json(PreviousSectionState::Known(&stored)),
            None => current.render_diff_from_json(PreviousSectionState::Absent),
        },
    }
}

/// `None`, or `(role - ROLE)` and the rendered text on the next line: the shape of upstream's
/// section snapshots.
pub fn describe_rendered(fragment: Option<&SectionFragment>) -> String {
    match fragment {
        Some(fragment) => format!("(role - {})\n{}", fragment.role(), fragment.render()),
        None => "None".to_string(),
    }
}

/// One block per case, separated by blank lines:
/// `<previous> -> <current>` then ` (role - ROLE)` and the rendering on the next line, or
/// `None` on the next line. States print as `Absent`, `Unknown`, the compact snapshot JSON, or
/// `Omitted` for a value that persists nothing.
#[cfg(test)]
pub fn render_transition_cases<S: WorldStateSection + 'static>(
    cases: &[(PreviousSectionState<'_, S>, &S)],
) -> String {
    cases
        .iter()
        .map(|(previous, current)| {
            let previous_erased: PreviousSectionState<'_, dyn ErasedWorldStateSection> =
                match previous {
                    PreviousSectionState::Absent => PreviousSectionState::Absent,
                    PreviousSectionState::Unknown => PreviousSectionState::Unknown,
                    PreviousSectionState::Known(section) => {
                        PreviousSectionState::Known(*section as &dyn ErasedWorldStateSection)
                    }
                };
            let rendered = render_transition(previous_erased, *current);
            let header = format!(
                "{} -> {}",
                describe_state(previous_erased),
                describe_state(PreviousSectionState::Known(
                    *current as &dyn ErasedWorldStateSection
                ))
            );
            match rendered {
                Some(fragment) => format!("{header} {}", describe_rendered(Some(&fragment))),
                None => format!("{header}\nNone"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
fn describe_state(state: PreviousSectionState<'_, dyn ErasedWorldStateSection>) -> String {
    match state {
        PreviousSectionState::Absent => "Absent".to_string(),
        PreviousSectionState::Unknown => "Unknown".to_string(),
        PreviousSectionState::Known(section) => match section.persisted_snapshot() {
            Some(snapshot) => snapshot.to_string(),
            None => "Omitted".to_string(),
        },
    }
}

/// What `codex-context world-state diff` prints: the catalogue section `section_id` described
/// by `current` (JSON text: the section's inputs, or a snapshot as a rollout records it),
/// rendered against `previous`.
pub fn world_state_diff_cli(
    section_id: &str,
    previous: &PreviousSectionArg,
    current: &str,
    templates: &TemplateSet,
) -> Result<String, WorldStateError> {
    let entry = catalog_entry(section_id)?;
    let current: Value =
        serde_json::from_str(current).map_err(|source| WorldStateError::InvalidSectionInputs {
            section: section_id.to_string(),
            source,
        })?;
    let current = entry.build_from_json(&current, templates)?;
    let stored = match previous {
        PreviousSectionArg::Inputs(json) => entry.persisted_from_json(json, templates)?,
        PreviousSectionArg::Absent | PreviousSectionArg::Unknown => None,
    };
    let previous_state = match (previous, &stored) {
        (PreviousSectionArg::Unknown, _) => PreviousSectionState::Unknown,
        (PreviousSectionArg::Absent, _) | (PreviousSectionArg::Inputs(_), None) => {
            PreviousSectionState::Absent
        }
        (PreviousSectionArg::Inputs(_), Some(stored)) => PreviousSectionState::Known(stored),
    };
    let rendered = current.render_diff_from_json(previous_state);
    Ok(describe_rendered(rendered.as_ref()))
}
