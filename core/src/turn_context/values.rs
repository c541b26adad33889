//! Value types a [`TurnContext`](super::TurnContext) carries that world-state sections read
//! (and, for some, persist in their snapshots): environment status, the managed network
//! lists, the multi-agent mode and usage hint, whether skills are listed. They are defined
//! here so that the turn context depends on no section; the sections import them.

use serde::Deserialize;
use serde::Serialize;

/// Whether an execution environment can take commands yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvironmentStatus {
    #[default]
    Available,
    Starting,
}

/// Domains the managed network proxy allows or denies; rendered as
/// `<network enabled="true"><allowed>a,b</allowed><denied>c</denied></network>` with empty
/// lists left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkContext {
    #[serde(default)]
    pub allowed: Vec<String>,
    #[serde(default)]
    pub denied: Vec<String>,
}

/// The active multi-agent mode (`explicitRequestOnly`, `proactive` or `{"custom": "…"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MultiAgentMode {
    ExplicitRequestOnly,
    Proactive,
    Custom(String),
}

/// Where the usage hint text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UsageHintSource {
    /// The model catalog's role text: rendered inside `<multi_agent_role>`, on lines of its own.
    Catalog,
    /// The model catalog's root-agent role followed by the usage notes, as 0.171 sends them
    /// (`CatalogRoleText::MarkedWithUsage`): inside `<multi_agent_role>`, without padding.
    CatalogRoleWithUsage,
    /// Configured text: rendered unmarked.
    Configured,
    /// This project's own root-agent text for multi-agent v2, used when the catalog has none:
    /// rendered unmarked, as upstream sends its bundled text.
    Bundled,
}

/// Inputs of the `multi_agent_usage_hint` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiAgentUsageHintSectionInputs {
    pub text: String,
    pub source: UsageHintSource,
}

/// Whether skills catalogues are put into the model context (upstream's
/// `include_instructions`). Unlisted skills can still be used when the user names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SkillsListing {
    #[default]
    Listed,
    NotListed,
}

impl SkillsListing {
    pub(crate) fn is_listed(self) -> bool {
        match self {
            Self::Listed => true,
            Self::NotListed => false,
        }
    }
}
