//! Model catalog metadata (`/models` entries and the bundled models.json).

mod catalog_enums;
mod model_messages;
mod models_response;
mod reasoning_effort;

use serde::Deserialize;
use serde::Serialize;

pub use catalog_enums::ApplyPatchToolType;
pub use catalog_enums::ConfigShellToolType;
pub use catalog_enums::InputModality;
pub use catalog_enums::ModelAvailabilityNux;
pub use catalog_enums::ModelInfoUpgrade;
pub use catalog_enums::ModelServiceTier;
pub use catalog_enums::ModelVisibility;
pub use catalog_enums::MultiAgentVersion;
pub use catalog_enums::ReasoningEffortPreset;
pub use catalog_enums::ToolMode;
pub use catalog_enums::TruncationMode;
pub use catalog_enums::TruncationPolicyConfig;
pub use catalog_enums::WebSearchToolType;
pub use catalog_enums::default_input_modalities;
pub use model_messages::ApprovalMessages;
pub use model_messages::CollaborationModeMessages;
pub use model_messages::ModelInstructionsVariables;
pub use model_messages::ModelMessages;
pub use model_messages::PERSONALITY_PLACEHOLDER;
pub use model_messages::PERSONALITY_SECTION_HEADING;
pub use model_messages::PermissionMessages;
pub use models_response::ModelsResponse;
pub use models_response::ModelsResponseError;
pub use models_response::legacy_models;
pub use reasoning_effort::EmptyReasoningEffortError;
pub use reasoning_effort::ReasoningEffort;

use crate::config_types::Personality;
use crate::config_types::ReasoningSummary;
use crate::config_types::Verbosity;
use catalog_enums::unknown_as_none;

/// Share of the context window used when a catalog entry does not say otherwise.
pub const DEFAULT_EFFECTIVE_CONTEXT_WINDOW_PERCENT: i64 = 95;

/// Auto-compaction never waits past this share of the resolved context window.
const AUTO_COMPACT_PERCENT_OF_WINDOW: i64 = 90;

/// One catalog entry. Declaration order is upstream models.json's key order. Unknown keys are
/// ignored; a legacy top-level `base_instructions` is handled by [`ModelsResponse`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub slug: String,
    #[serde(default)]
    pub prefer_websockets: bool,
    #[serde(default)]
    pub support_verbosity: bool,
    #[serde(default)]
    pub default_verbosity: Option<Verbosity>,
    #[serde(default)]
    pub apply_patch_tool_type: Option<ApplyPatchToolType>,
    #[serde(default)]
    pub web_search_tool_type: WebSearchToolType,
    #[serde(default = "default_input_modalities")]
    pub input_modalities: Vec<InputModality>,
    #[serde(default)]
    pub supports_image_detail_original: bool,
    #[serde(default)]
    pub truncation_policy: TruncationPolicyConfig,
    #[serde(default)]
    pub supports_parallel_tool_calls: bool,
    #[serde(default, deserialize_with = "unknown_as_none")]
    pub tool_mode: Option<ToolMode>,
    #[serde(default, deserialize_with = "unknown_as_none")]
    pub multi_agent_version: Option<MultiAgentVersion>,
    #[serde(default)]
    pub use_responses_lite: bool,
    #[serde(default)]
    pub include_skills_usage_instructions: bool,
    #[serde(default = "default_true")]
    pub include_apps_usage_instructions: bool,
    #[serde(default)]
    pub include_plugin_usage_instructions: bool,
    #[serde(default)]
    pub node_repl_auto_review_required: bool,
    #[serde(default)]
    pub node_repl_disabled: bool,
    #[serde(default)]
    pub auto_review_model_override: Option<String>,
    #[serde(default)]
    pub model_specialty: Option<String>,
    #[serde(default)]
    pub context_window: Option<i64>,
    #[serde(default)]
    pub max_context_window: Option<i64>,
    #[serde(default)]
    pub auto_compact_token_limit: Option<i64>,
    /// Opaque compaction-compatibility id.
    #[serde(default)]
    pub comp_hash: Option<String>,
    #[serde(default)]
    pub default_reasoning_summary: ReasoningSummary,
    pub display_name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub default_reasoning_level: Option<ReasoningEffort>,
    pub supported_reasoning_levels: Vec<ReasoningEffortPreset>,
    pub shell_type: ConfigShellToolType,
    pub visibility: ModelVisibility,
    /// Oldest client allowed to use the model: a version string in current catalogs, a
    /// `[major, minor, patch]` array in old ones; kept as given.
    #[serde(default)]
    pub minimal_client_version: Option<serde_json::Value>,
    pub supported_in_api: bool,
    #[serde(default)]
    pub availability_nux: Option<ModelAvailabilityNux>,
    #[serde(default)]
    pub upgrade: Option<ModelInfoUpgrade>,
    /// Lower sorts first.
    pub priority: i32,
    #[serde(default)]
    pub model_messages: Option<ModelMessages>,
    #[serde(default)]
    pub experimental_supported_tools: Vec<String>,
    #[serde(default)]
    pub available_in_plans: Vec<String>,
    #[serde(default)]
    pub supports_search_tool: bool,
    #[serde(default)]
    pub default_service_tier: Option<String>,
    #[serde(default)]
    pub service_tiers: Vec<ModelServiceTier>,
    #[serde(default)]
    pub additional_speed_tiers: Vec<String>,
    #[serde(default = "default_true")]
    pub supports_reasoning_summary_parameter: bool,
    #[serde(default)]
    pub supports_reasoning_summaries: bool,
    #[serde(
        default = "default_effective_context_window_percent",
        skip_serializing_if = "is_default_effective_context_window_percent"
    )]
    pub effective_context_window_percent: i64,
    /// Set by lookups that fell back to generic metadata for an unknown slug; never on the wire.
    #[serde(skip)]
    pub used_fallback_model_metadata: bool,
}

fn default_true() -> bool {
    true
}

fn default_effective_context_window_percent() -> i64 {
    DEFAULT_EFFECTIVE_CONTEXT_WINDOW_PERCENT
}

fn is_default_effective_context_window_percent(percent: &i64) -> bool {
    *percent == DEFAULT_EFFECTIVE_CONTEXT_WINDOW_PERCENT
}

impl ModelInfo {
    /// An entry with the given slug and the same defaults deserialization uses for absent keys
    /// (display name = slug, no reasoning levels, default shell, visibility `none`, priority 0).
    pub fn with_defaults(slug: impl Into<String>) -> Self {
        let slug = slug.into();
        Self {
            display_name: slug.clone(),
            slug,
            prefer_websockets: false,
            support_verbosity: false,
            default_verbosity: None,
            apply_patch_tool_type: None,
            web_search_tool_type: WebSearchToolType::default(),
            input_modalities: default_input_modalities(),
            supports_image_detail_original: false,
            truncation_policy: TruncationPolicyConfig::default(),
            supports_parallel_tool_calls: false,
            tool_mode: None,
            multi_agent_version: None,
            use_responses_lite: false,
            include_skills_usage_instructions: false,
            include_apps_usage_instructions: true,
            include_plugin_usage_instructions: false,
            node_repl_auto_review_required: false,
            node_repl_disabled: false,
            auto_review_model_override: None,
            model_specialty: None,
            context_window: None,
            max_context_window: None,
            auto_compact_token_limit: None,
            comp_hash: None,
            default_reasoning_summary: ReasoningSummary::default(),
            description: None,
            default_reasoning_level: None,
            supported_reasoning_levels: Vec::new(),
            shell_type: ConfigShellToolType::default(),
            visibility: ModelVisibility::default(),
            minimal_client_version: None,
            supported_in_api: true,
            availability_nux: None,
            upgrade: None,
            priority: 0,
            model_messages: None,
            experimental_supported_tools: Vec::new(),
            available_in_plans: Vec::new(),
            supports_search_tool: false,
            default_service_tier: None,
            service_tiers: Vec::new(),
            additional_speed_tiers: Vec::new(),
            supports_reasoning_summary_parameter: true,
            supports_reasoning_summaries: false,
            effective_context_window_percent: DEFAULT_EFFECTIVE_CONTEXT_WINDOW_PERCENT,
            used_fallback_model_metadata: false,
        }
    }

    /// The context window: `context_window`, else `max_context_window`.
    pub fn resolved_context_window(&self) -> Option<i64> {
        self.context_window.or(self.max_context_window)
    }

    /// Tokens the harness plans to use: the resolved window scaled by
    /// `effective_context_window_percent`.
    pub fn usable_context_window(&self) -> Option<i64> {
        self.resolved_context_window()
            .map(|window| window.saturating_mul(self.effective_context_window_percent) / 100)
    }

    /// Token count that triggers auto-compaction: the explicit limit capped at 90% of the resolved
    /// window (either one alone when the other is unknown).
    pub fn auto_compact_token_limit(&self) -> Option<i64> {
        let window_limit = self
            .resolved_context_window()
            .map(|window| window.saturating_mul(AUTO_COMPACT_PERCENT_OF_WINDOW) / 100);
        match (self.auto_compact_token_limit, window_limit) {
            (Some(explicit), Some(window_limit)) => Some(explicit.min(window_limit)),
            (explicit, window_limit) => explicit.or(window_limit),
        }
    }

    /// The model's template has the personality placeholder and all three personality texts.
    pub fn supports_personality(&self) -> bool {
        self.model_messages
            .as_ref()
            .is_some_and(ModelMessages::supports_personality)
    }

    /// The instructions template, if the entry has one.
    pub fn instructions_template(&self) -> Option<&str> {
        self.model_messages
            .as_ref()
            .and_then(|messages| messages.instructions_template.as_deref())
    }

    /// The model's instructions for a personality choice (see
    /// [`ModelMessages::render_instructions`]); empty when the entry has no template.
    pub fn get_model_instructions(&self, personality: Option<Personality>) -> String {
        self.model_messages
            .as_ref()
            .map(|messages| messages.render_instructions(personality))
            .unwrap_or_default()
    }

    pub fn supports_input_modality(&self, modality: InputModality) -> bool {
        self.input_modalities.contains(&modality)
    }
}

#[cfg(test)]
#[path = "openai_models_tests.rs"]
mod tests;
