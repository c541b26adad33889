//! Configuration enums that feed prompts and turn context.

use serde::Deserialize;
use serde::Serialize;

use crate::openai_models::ReasoningEffort;
use crate::wire_enum::wire_enum_strings;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Personality {
    None,
    Friendly,
    Pragmatic,
}

wire_enum_strings!(Personality, "personality", {
    None => "none",
    Friendly => "friendly",
    Pragmatic => "pragmatic",
});

/// The configured sandbox mode (config / CLI spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    #[default]
    ReadOnly,
    WorkspaceWrite,
    DangerFullAccess,
}

wire_enum_strings!(SandboxMode, "sandbox mode", {
    ReadOnly => "read-only",
    WorkspaceWrite => "workspace-write",
    DangerFullAccess => "danger-full-access",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningSummary {
    #[default]
    Auto,
    Concise,
    Detailed,
    None,
}

wire_enum_strings!(ReasoningSummary, "reasoning summary", {
    Auto => "auto",
    Concise => "concise",
    Detailed => "detailed",
    None => "none",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verbosity {
    Low,
    #[default]
    Medium,
    High,
}

wire_enum_strings!(Verbosity, "verbosity", {
    Low => "low",
    Medium => "medium",
    High => "high",
});

/// Collaboration mode kind. Retired mode names are read as `default`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModeKind {
    Plan,
    #[default]
    #[serde(
        alias = "code",
        alias = "pair_programming",
        alias = "execute",
        alias = "custom"
    )]
    Default,
}

wire_enum_strings!(ModeKind, "collaboration mode", {
    Plan => "plan",
    Default => "default",
} aliases {
    "code" => Default,
    "pair_programming" => Default,
    "execute" => Default,
    "custom" => Default,
});

impl ModeKind {
    /// Modes offered to users, in display order.
    pub const VISIBLE: &'static [ModeKind] = &[ModeKind::Default, ModeKind::Plan];

    pub fn display_name(self) -> &'static str {
        match self {
            Self::Plan => "Plan",
            Self::Default => "Default",
        }
    }

    pub fn allows_request_user_input(self) -> bool {
        matches!(self, Self::Plan)
    }
}

/// Collaboration mode plus the settings it pins. `None` settings are written as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollaborationMode {
    pub mode: ModeKind,
    pub settings: CollaborationModeSettings,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollaborationModeSettings {
    pub model: String,
    #[serde(default)]
    pub reasoning_effort: Option<ReasoningEffort>,
    #[serde(default)]
    pub developer_instructions: Option<String>,
}

/// A partial update of a [`CollaborationMode`]: outer `None` keeps the current value,
/// `Some(None)` clears an optional setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollaborationModeMask {
    pub name: String,
    pub mode: Option<ModeKind>,
    pub model: Option<String>,
    pub reasoning_effort: Option<Option<ReasoningEffort>>,
    pub developer_instructions: Option<Option<String>>,
}

impl CollaborationMode {
    pub fn apply_mask(&self, mask: &CollaborationModeMask) -> CollaborationMode {
        CollaborationMode {
            mode: mask.mode.unwrap_or(self.mode),
            settings: CollaborationModeSettings {
                model: mask
                    .model
                    .clone()
                    .unwrap_or_else(|| self.settings.model.clone()),
                reasoning_effort: mask
                    .reasoning_effort
                    .clone()
                    .unwrap_or_else(|| self.settings.reasoning_effort.clone()),
                developer_instructions: mask
                    .developer_instructions
                    .clone()
                    .unwrap_or_else(|| self.settings.developer_instructions.clone()),
            },
        }
    }
}

/// Who reviews approval requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalsReviewer {
    #[default]
    User,
    #[serde(alias = "guardian_subagent")]
    AutoReview,
}

wire_enum_strings!(ApprovalsReviewer, "approvals reviewer", {
    User => "user",
    AutoReview => "auto_review",
} aliases {
    "guardian_subagent" => AutoReview,
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WebSearchMode {
    Disabled,
    #[default]
    Cached,
    Live,
}

wire_enum_strings!(WebSearchMode, "web search mode", {
    Disabled => "disabled",
    Cached => "cached",
    Live => "live",
});

/// Whether a project directory is trusted (controls project-level instructions and config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustLevel {
    Trusted,
    Untrusted,
}

wire_enum_strings!(TrustLevel, "trust level", {
    Trusted => "trusted",
    Untrusted => "untrusted",
});

#[cfg(test)]
#[path = "config_types_tests.rs"]
mod tests;
