//! `environments`: the `<environment_context>` block in the contextual user message — the
//! selected execution environments (working directory, status, shell), the date, timezone,
//! network and filesystem permissions, and running sub-agents. Diffs restate only what changed.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::ENVIRONMENT_CONTEXT;
use codex_prompts::TemplateSet;
use serde::Deserialize;
use serde::Serialize;

use super::environments_filesystem::filesystem_context;
use super::environments_xml::EnvironmentUpdate;
use super::environments_xml::EnvironmentsBody;
use super::environments_xml::EnvironmentsLayout;
pub use super::environments_xml::FileSystemAccess;
pub use super::environments_xml::FileSystemEntry;
pub use super::environments_xml::FileSystemPolicy;
pub use super::environments_xml::FileSystemTarget;
pub use super::environments_xml::FilesystemContext;
pub use super::environments_xml::PermissionProfileContext;
use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::turn_context::EnvironmentStatus;
use crate::turn_context::NetworkContext;
use crate::turn_context::TurnContext;

/// One environment as persisted: `shell` is omitted while unknown, `is_primary` is written only
/// when true and only while several environments are selected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvironmentSnapshot {
    /// Working directory as a native path string of the environment's own platform.
    pub cwd: String,
    #[serde(default)]
    pub status: EnvironmentStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_primary: bool,
}

/// Snapshot of the `environments` section. Network and filesystem are kept as their rendered
/// XML, so any change of the underlying policy that the model would see changes the snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvironmentsSnapshot {
    #[serde(default)]
    pub environments: BTreeMap<String, EnvironmentSnapshot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filesystem: Option<String>,
    /// Running sub-agents, one per line. Persisted, but a change here alone is not rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagents: Option<String>,
}

/// One selected environment in the section's inputs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentInputs {
    pub id: String,
    /// Native path string, rendered verbatim (a Windows path stays a Windows path on any host).
    pub cwd: String,
    #[serde(default)]
    pub status: EnvironmentStatus,
    /// Shell name (`bash`, `zsh`, `powershell`, …), when known.
    #[serde(default)]
    pub shell: Option<String>,
}

/// Inputs of the `environments` section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentsSectionInputs {
    /// Selected environments in selection order; the first one is the primary environment.
    #[serde(default)]
    pub environments: Vec<EnvironmentInputs>,
    /// Local date of the session clock, `YYYY-MM-DD`.
    #[serde(default)]
    pub current_date: Option<String>,
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub network: Option<NetworkContext>,
    #[serde(default)]
    pub filesystem: Option<FilesystemContext>,
    /// Running sub-agents, one per line (an empty text counts as none).
    #[serde(default)]
    pub subagents: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvironmentsSection {
    snapshot: EnvironmentsSnapshot,
}

impl EnvironmentsSection {
    /// Fails when two environments share an ID, because environments are keyed by ID.
    pub fn new(inputs: EnvironmentsSectionInputs) -> Result<Self, WorldStateError> {
        let several = inputs.environments.len() > 1;
        let mut environments = BTreeMap::new();
        for (position, environment) in inputs.environments.into_iter().enumerate() {
            let snapshot = EnvironmentSnapshot {
                cwd: environment.cwd,
                status: environment.status,
                shell: environment.shell.filter(|shell| !shell.is_empty()),
                is_primary: several && position == 0,
            };
            if environments
                .insert(environment.id.clone(), snapshot)
                .is_some()
            {
                return Err(WorldStateError::RejectedInputs {
                    section: Self::ID.to_string(),
                    reason: format!("environment ID `{}` is selected twice", environment.id),
                });
            }
        }
        Ok(Self {
            snapshot: EnvironmentsSnapshot {
                environments,
                current_date: inputs.current_date,
                timezone: inputs.timezone,
                network: inputs.network.as_ref().map(NetworkContext::render),
                filesystem: inputs.filesystem.as_ref().map(FilesystemContext::render),
                subagents: inputs.subagents.filter(|subagents| !subagents.is_empty()),
            },
        })
    }
}

/// Whether an environment present on both sides must be restated. A shell that only became
/// known (or unknown) is not news; a switch between two known shells is.
fn environment_changed(previous: &EnvironmentSnapshot, current: &EnvironmentSnapshot) -> bool {
    let shell_changed = match (&previous.shell, &current.shell) {
        (Some(previous_shell), Some(current_shell)) => previous_shell != current_shell,
        (None, _) | (_, None) => false,
    };
    previous.cwd != current.cwd
        || previous.status != current.status
        || previous.is_primary != current.is_primary
        || shell_changed
}

impl WorldStateSection for EnvironmentsSection {
    const ID: &'static str = "environments";
    type Snapshot = EnvironmentsSnapshot;

    fn snapshot(&self) -> EnvironmentsSnapshot {
        self.snapshot.clone()
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, EnvironmentsSnapshot>,
    ) -> Option<SectionFragment> {
        // Nothing in history identifies an environment block reliably, so an unknown previous
        // state is rendered as if the model had seen nothing.
        let nothing_seen = EnvironmentsSnapshot::default();
        let previous = match previous {
            PreviousSectionState::Known(previous) => previous,
            PreviousSectionState::Absent | PreviousSectionState::Unknown => &nothing_seen,
        };
        let current = &self.snapshot;
        let previous_several = previous.environments.len() > 1;
        let current_several = current.environments.len() > 1;
        // Crossing between one and several environments changes how every environment is
        // presented, so all current environments are restated.
        let boundary_crossed = previous_several != current_several;

        let mut updates: BTreeMap<&str, EnvironmentUpdate<'_>> = current
            .environments
            .iter()
            .filter(|(id, environment)| match previous.environments.get(*id) {
                Some(previous_environment) => {
                    boundary_crossed || environment_changed(previous_environment, environment)
                }
                None => true,
            })
            .map(|(id, environment)| {
                let primary = environment.is_primary || !current_several;
                (
                    id.as_str(),
                    EnvironmentUpdate::Current {
                        environment,
                        primary,
                    },
                )
            })
            .collect();
        let current_ids: BTreeSet<&str> = current.environments.keys().map(String::as_str).collect();
        updates.extend(
            previous
                .environments
                .keys()
                .filter(|id| !current_ids.contains(id.as_str()))
                .map(|id| (id.as_str(), EnvironmentUpdate::Unavailable)),
        );
        let context_changed = previous.current_date != current.current_date
            || previous.timezone != current.timezone
            || previous.network != current.network
            || previous.filesystem != current.filesystem;
        if updates.is_empty() && !context_changed {
            return None;
        }

        let single_available = current.environments.len() == 1
            && current
                .environments
                .values()
                .all(|environment| environment.status == EnvironmentStatus::Available);
        let only_current_updates = updates
            .values()
            .all(|update| matches!(update, EnvironmentUpdate::Current { .. }));
        let layout = if single_available && only_current_updates {
            EnvironmentsLayout::Flat
        } else if previous_several || current_several {
            EnvironmentsLayout::ListedWithPrimary
        } else {
            EnvironmentsLayout::Listed
        };
        let body = EnvironmentsBody {
            layout,
            updates: &updates,
            snapshot: current,
        }
        .render();
        Some(ENVIRONMENT_CONTEXT.fragment(body))
    }
}

impl CatalogSection for EnvironmentsSection {
    type Inputs = EnvironmentsSectionInputs;

    fn from_inputs(
        inputs: EnvironmentsSectionInputs,
        _templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Self::new(inputs)
    }

    fn from_snapshot(
        snapshot: EnvironmentsSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self { snapshot })
    }
}

#[cfg(test)]
#[path = "environments_tests.rs"]
mod tests;

impl StepSection for EnvironmentsSection {
    fn for_step(
        turn: &TurnContext,
        _templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if !turn.inclusion.environment_context.is_included() {
            return Ok(None);
        }
        EnvironmentsSection::new(EnvironmentsSectionInputs {
            environments: turn
                .environments
                .iter()
                .map(|environment| EnvironmentInputs {
                    id: environment.id.clone(),
                    cwd: environment.cwd.clone(),
                    status: environment.status,
                    shell: environment.shell.clone(),
                })
                .collect(),
            current_date: Some(turn.current_date.clone()),
            timezone: Some(turn.timezone.clone()),
            network: turn.network.clone(),
            filesystem: filesystem_context(turn),
            subagents: Some(
                turn.subagents
                    .iter()
                    .map(crate::turn_context::RunningSubagent::list_line)
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        })
        .map(Some)
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec!["turn context: environments, date, timezone, network, sandbox policy".to_string()]
    }
}

#[cfg(test)]
#[path = "environments_render_tests.rs"]
mod render_tests;
