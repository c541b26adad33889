//! `[features]` toggles for the feature-gated parts of the model context.

use std::collections::BTreeSet;

/// A feature this project reads. Keys and defaults follow upstream Codex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// `personality` World State section and personality templates.
    Personality,
    /// `context_window` / `context_window_guidance` sections.
    TokenBudget,
    /// Realtime conversation mode.
    RealtimeConversation,
    /// Hierarchical AGENTS.md guidance appended to the instructions.
    ChildAgentsMd,
    /// `apps_instructions` section.
    Apps,
    /// `plugins_instructions` section.
    Plugins,
    /// Tool suggestions (recommended plugins).
    ToolSuggest,
    /// Multi-agent tools and the multi-agent sections.
    MultiAgent,
    /// Task-path-based multi-agent routing.
    MultiAgentV2,
    /// `tools` section listing deferred tool namespaces.
    DeferredToolWorldState,
    /// `environments_instructions` section.
    DeferredExecutor,
    /// Permission-request variant of the on-request approval template.
    ExecPermissionApprovals,
    /// The `request_permissions` tool section of the permission templates.
    RequestPermissionsTool,
    /// The goal extension's tools (`get_goal`, `create_goal`, `update_goal`), offered when the
    /// host installs that extension (see `codex-core`'s `ToolExtensions`).
    Goals,
}

impl Feature {
    pub const ALL: &'static [Feature] = &[
        Feature::Personality,
        Feature::TokenBudget,
        Feature::RealtimeConversation,
        Feature::ChildAgentsMd,
        Feature::Apps,
        Feature::Plugins,
        Feature::ToolSuggest,
        Feature::MultiAgent,
        Feature::MultiAgentV2,
        Feature::DeferredToolWorldState,
        Feature::DeferredExecutor,
        Feature::ExecPermissionApprovals,
        Feature::RequestPermissionsTool,
        Feature::Goals,
    ];

    /// The key under `[features]` in config.toml.
    pub fn key(self) -> &'static str {
        match self {
            Self::Personality => "personality",
            Self::TokenBudget => "token_budget",
            Self::RealtimeConversation => "realtime_conversation",
            Self::ChildAgentsMd => "child_agents_md",
            Self::Apps => "apps",
            Self::Plugins => "plugins",
            Self::ToolSuggest => "tool_suggest",
            Self::MultiAgent => "multi_agent",
            Self::MultiAgentV2 => "multi_agent_v2",
            Self::DeferredToolWorldState => "deferred_tool_world_state",
            Self::DeferredExecutor => "deferred_executor",
            Self::ExecPermissionApprovals => "exec_permission_approvals",
            Self::RequestPermissionsTool => "request_permissions_tool",
            Self::Goals => "goals",
        }
    }

    pub fn default_enabled(self) -> bool {
        match self {
            Self::Personality
            | Self::Apps
            | Self::Plugins
            | Self::ToolSuggest
            | Self::MultiAgent
            | Self::Goals => true,
            Self::TokenBudget
            | Self::RealtimeConversation
            | Self::ChildAgentsMd
            | Self::MultiAgentV2
            | Self::DeferredToolWorldState
            | Self::DeferredExecutor
            | Self::ExecPermissionApprovals
            | Self::RequestPermissionsTool => false,
        }
    }

    pub fn from_key(key: &str) -> Option<Feature> {
        Self::ALL
            .iter()
            .copied()
            .find(|feature| feature.key() == key)
    }
}

/// Upstream's features named in the `x-codex-beta-features` request header when enabled (its
/// experimental-stage features and `remote_compaction_v2`), in upstream's order, with their
/// defaults. This project implements neither; their `[features]` keys only decide the header.
pub const BETA_HEADER_FEATURES: [(&str, bool); 2] =
    [("network_proxy", false), ("remote_compaction_v2", true)];

/// The effective set of enabled features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    enabled: BTreeSet<Feature>,
}

impl Default for Features {
    fn default() -> Self {
        Self {
            enabled: Feature::ALL
                .iter()
                .copied()
                .filter(|feature| feature.default_enabled())
                .collect(),
        }
    }
}

impl Features {
    pub fn enabled(&self, feature: Feature) -> bool {
        self.enabled.contains(&feature)
    }

    pub fn set(&mut self, feature: Feature, enabled: bool) {
        if enabled {
            self.enabled.insert(feature);
        } else {
            self.enabled.remove(&feature);
        }
    }

    /// Enabled features in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = Feature> + '_ {
        self.enabled.iter().copied()
    }
}
