//! `tools`: the deferred tool namespaces (tools the model can load on demand), listed with the
//! first line of their description; later updates list only added, redescribed and removed
//! namespaces. The whole fragment is capped at 4096 bytes.

use std::collections::BTreeMap;

use codex_context_fragments::SectionFragment;
use codex_fragments::sections::DEFERRED_TOOLS;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde::Deserialize;

use super::environments_xml::push_xml_escaped;
use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_config::Feature;
use codex_release::DeferredToolsContext;

use codex_tools::BuiltinToolsConfig;
use codex_tools::deferred_builtin_namespaces;

/// Longest description kept per namespace, in characters.
pub const MAX_NAMESPACE_DESCRIPTION_CHARS: usize = 250;
/// Largest rendered `<tools>` fragment, markers included, in bytes.
pub const MAX_TOOLS_FRAGMENT_BYTES: usize = 4096;
/// Bytes kept free in each group for the line that counts omitted entries.
const OMISSION_LINE_RESERVE: usize = 64;

/// Snapshot of the `tools` section: namespace name → shortened description.
pub type ToolsSnapshot = BTreeMap<String, String>;

/// Inputs of the `tools` section: namespace name → full description.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolsSectionInputs {
    #[serde(default)]
    pub namespaces: BTreeMap<String, String>,
}

#[derive(Clone, Debug)]
pub struct ToolsSection {
    namespaces: ToolsSnapshot,
    labels: ToolsLabels,
}

/// The texts around the namespace entries, read once from the active templates.
#[derive(Clone, Debug)]
struct ToolsLabels {
    all: String,
    added: String,
    removed: String,
    none_remain: String,
    omitted: String,
}

/// First line, trimmed, cut to [`MAX_NAMESPACE_DESCRIPTION_CHARS`] characters.
fn shorten_description(description: &str) -> String {
    description
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .chars()
        .take(MAX_NAMESPACE_DESCRIPTION_CHARS)
        .collect()
}

impl ToolsSection {
    pub fn new(inputs: ToolsSectionInputs, templates: &TemplateSet) -> Self {
        Self {
            namespaces: inputs
                .namespaces
                .iter()
                .map(|(name, description)| (name.clone(), shorten_description(description)))
                .collect(),
            labels: ToolsLabels {
                all: templates
                    .text(TemplateId::DeferredToolNamespaces)
                    .to_string(),
                added: templates
                    .text(TemplateId::DeferredToolNamespacesAdded)
                    .to_string(),
                removed: templates
                    .text(TemplateId::DeferredToolNamespacesRemoved)
                    .to_string(),
                none_remain: templates
                    .text(TemplateId::DeferredToolNamespacesNoneRemain)
                    .to_string(),
                omitted: templates
                    .text(TemplateId::DeferredToolNamespacesOmitted)
                    .to_string(),
            },
        }
    }
}

/// One labelled list of namespaces.
struct NamespaceGroup<'a> {
    heading: &'a str,
    entries: Vec<(&'a str, &'a str)>,
}

/// `- name: description` (XML-escaped; `: description` left out when empty).
fn entry_line(name: &str, description: &str) -> String {
    let mut line = String::from("- ");
    push_xml_escaped(&mut line, name);
    if !description.is_empty() {
        line.push_str(": ");
        push_xml_escaped(&mut line, description);
    }
    line.push('\n');
    line
}

impl ToolsSection {
    /// Renders the groups within [`MAX_TOOLS_FRAGMENT_BYTES`]: markers, headings, the closing
    /// line and one omission line per group are budgeted first; entries then fill what is left
    /// in order, and once one does not fit, it and the rest of its group are counted instead.
    fn fragment(
        &self,
        groups: &[NamespaceGroup<'_>],
        closing_line: Option<&str>,
    ) -> SectionFragment {
        let fixed_bytes = DEFERRED_TOOLS.start_marker.len()
            + DEFERRED_TOOLS.end_marker.len()
            + 1
            + groups
                .iter()
                .map(|group| group.heading.len() + 1 + OMISSION_LINE_RESERVE)
                .sum::<usize>()
            + closing_line.map_or(0, |line| line.len() + 1);
        let mut entry_budget = MAX_TOOLS_FRAGMENT_BYTES.saturating_sub(fixed_bytes);
        let mut body = String::from("\n");
        for group in groups {
            body.push_str(group.heading);
            body.push('\n');
            let mut omitted = 0usize;
            for (name, description) in &group.entries {
                let line = entry_line(name, description);
                if omitted == 0 && line.len() <= entry_budget {
                    entry_budget -= line.len();
                    body.push_str(&line);
                } else {
                    omitted += 1;
                }
            }
            if omitted > 0 {
                body.push_str(&render(
                    &self.labels.omitted,
                    &[("count", &omitted.to_string())],
                ));
                body.push('\n');
            }
        }
        if let Some(line) = closing_line {
            body.push_str(line);
            body.push('\n');
        }
        DEFERRED_TOOLS.fragment(body)
    }
}

impl WorldStateSection for ToolsSection {
    const ID: &'static str = "tools";
    type Snapshot = ToolsSnapshot;

    fn snapshot(&self) -> ToolsSnapshot {
        self.namespaces.clone()
    }

    /// An empty set is left out, so that a later set is announced as new.
    fn should_persist(&self) -> bool {
        !self.namespaces.is_empty()
    }

    /// A namespace's description is prose (its tools' own), so a recorded namespace this section
    /// also lists takes this section's description; only added and removed names remain.
    fn rederive_recorded(&self, recorded: &ToolsSnapshot) -> Option<ToolsSnapshot> {
        Some(
            recorded
                .iter()
                .map(|(name, description)| {
                    let own = self.namespaces.get(name).unwrap_or(description);
                    (name.clone(), own.clone())
                })
                .collect(),
        )
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, ToolsSnapshot>,
    ) -> Option<SectionFragment> {
        let current_entries = || {
            self.namespaces
                .iter()
                .map(|(name, description)| (name.as_str(), description.as_str()))
        };
        match previous {
            PreviousSectionState::Absent | PreviousSectionState::Unknown => {
                if self.namespaces.is_empty() {
                    return None;
                }
                Some(self.fragment(
                    &[NamespaceGroup {
                        heading: &self.labels.all,
                        entries: current_entries().collect(),
                    }],
                    None,
                ))
            }
            PreviousSectionState::Known(previous) => {
                if previous == &self.namespaces {
                    return None;
                }
                let added: Vec<(&str, &str)> = current_entries()
                    .filter(|(name, description)| {
                        previous.get(*name).map(String::as_str) != Some(*description)
                    })
                    .collect();
                let removed: Vec<(&str, &str)> = previous
                    .iter()
                    .filter(|(name, _)| !self.namespaces.contains_key(*name))
                    .map(|(name, description)| (name.as_str(), description.as_str()))
                    .collect();
                let groups: Vec<NamespaceGroup<'_>> = [
                    NamespaceGroup {
                        heading: &self.labels.added,
                        entries: added,
                    },
                    NamespaceGroup {
                        heading: &self.labels.removed,
                        entries: removed,
                    },
                ]
                .into_iter()
                .filter(|group| !group.entries.is_empty())
                .collect();
                let closing_line = self
                    .namespaces
                    .is_empty()
                    .then_some(self.labels.none_remain.as_str());
                Some(self.fragment(&groups, closing_line))
            }
        }
    }
}

impl CatalogSection for ToolsSection {
    type Inputs = ToolsSectionInputs;

    fn from_inputs(
        inputs: ToolsSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(inputs, templates))
    }

    fn from_snapshot(
        snapshot: ToolsSnapshot,
        templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self::new(
            ToolsSectionInputs {
                namespaces: snapshot,
            },
            templates,
        ))
    }
}

impl StepSection for ToolsSection {
    /// The namespaces an embedder defers (`deferred_tool_namespaces`), listed under the
    /// `deferred_tool_world_state` feature; a release that lists deferred namespaces for every
    /// model that is not Responses Lite adds the built-in ones it holds back (`multi_agent_v1`).
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        let builtin = match turn.profile().deferred_tools {
            DeferredToolsContext::FeatureGated => {
                if !turn.features.enabled(Feature::DeferredToolWorldState) {
                    return Ok(None);
                }
                Vec::new()
            }
            DeferredToolsContext::Listed => {
                if turn.model.use_responses_lite {
                    return Ok(None);
                }
                deferred_builtin_namespaces(
                    &BuiltinToolsConfig::for_model(
                        &turn.model,
                        turn.web_search_mode,
                        &turn.features,
                    ),
                    templates,
                )?
            }
        };
        Ok(Some(ToolsSection::new(
            ToolsSectionInputs {
                namespaces: builtin
                    .into_iter()
                    .map(|namespace| (namespace.name, namespace.description))
                    .chain(
                        turn.deferred_tool_namespaces.iter().map(|namespace| {
                            (namespace.name.clone(), namespace.description.clone())
                        }),
                    )
                    .collect(),
            },
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![template_source(TemplateId::DeferredToolNamespaces)]
    }
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
