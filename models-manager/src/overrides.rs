//! User configuration applied on top of catalog metadata.

use codex_protocol::Personality;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::PERSONALITY_PLACEHOLDER;
use codex_protocol::openai_models::TruncationMode;
use codex_protocol::openai_models::TruncationPolicyConfig;

/// Bytes assumed per token when a token limit has to be expressed in bytes.
pub const APPROX_BYTES_PER_TOKEN: i64 = 4;

/// Whether the personality feature is on. With it off, models always speak with their default
/// personality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PersonalityFeature {
    #[default]
    Enabled,
    Disabled,
    /// The release has no personality setting: the instructions keep the personality their
    /// template carries, or lose it.
    Removed(BakedPersonality),
}

/// What a release without a personality setting does with the template's personality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BakedPersonality {
    /// Kept: a template that still has a personality placeholder gets the friendly text (the
    /// personality the release's own templates carry).
    Kept,
    /// Removed (`personality = "none"`): the placeholder gets nothing, and a template with the
    /// personality written in loses its `# Personality` section.
    Stripped,
}

/// The heading of the personality section written into a template.
const PERSONALITY_HEADING: &str = "# Personality";
/// How every level-one heading starts.
const LEVEL_ONE_HEADING: &str = "# ";

/// Configuration that changes model metadata. The default changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelsConfigOverrides {
    /// `model_context_window`; clamped to the model's `max_context_window`.
    pub model_context_window: Option<i64>,
    /// `model_auto_compact_token_limit`.
    pub model_auto_compact_token_limit: Option<i64>,
    /// `tool_output_token_limit`; rewrites the truncation policy's limit in the model's unit.
    pub tool_output_token_limit: Option<i64>,
    /// A configured `base_instructions` (or `model_instructions_file`) text. Its presence drops
    /// the model's catalog messages: the configured text replaces the whole template.
    pub base_instructions: Option<String>,
    /// `model_supports_reasoning_summaries`; can only turn support on.
    pub model_supports_reasoning_summaries: Option<bool>,
    pub personality: PersonalityFeature,
}

/// Applies configuration to catalog metadata.
pub fn with_config_overrides(mut model: ModelInfo, config: &ModelsConfigOverrides) -> ModelInfo {
    // A config flag can enable summaries for a model the catalog is unsure about, but the
    // catalog stays authoritative when it says a model supports them.
    if config.model_supports_reasoning_summaries == Some(true) {
        model.supports_reasoning_summaries = true;
    }
    if let Some(requested) = config.model_context_window {
        model.context_window = Some(match model.max_context_window {
            Some(max) => requested.min(max),
            None => requested,
        });
    }
    if let Some(limit) = config.model_auto_compact_token_limit {
        model.auto_compact_token_limit = Some(limit);
    }
    if let Some(tokens) = config.tool_output_token_limit {
        model.truncation_policy = match model.truncation_policy.mode {
            TruncationMode::Bytes => TruncationPolicyConfig {
                mode: TruncationMode::Bytes,
                limit: tokens.saturating_mul(APPROX_BYTES_PER_TOKEN),
            },
            TruncationMode::Tokens => TruncationPolicyConfig {
                mode: TruncationMode::Tokens,
                limit: tokens,
            },
        };
    }
    if config.base_instructions.is_some() {
        model.model_messages = None;
    } else if let PersonalityFeature::Removed(baked) = config.personality
        && let Some(messages) = model.model_messages.as_mut()
    {
        let personality = match baked {
            BakedPersonality::Kept => Some(Personality::Friendly),
            BakedPersonality::Stripped => Some(Personality::None),
        };
        let text = messages
            .instructions_variables
            .as_ref()
            .and_then(|variables| variables.personality_message(personality))
            .unwrap_or_default()
            .to_string();
        if let Some(template) = messages.instructions_template.as_mut() {
            let mut baked_template = template.replace(PERSONALITY_PLACEHOLDER, &text);
            if baked == BakedPersonality::Stripped {
                baked_template = without_personality_section(&baked_template);
            }
            *template = baked_template;
        }
        messages.instructions_variables = None;
    } else if config.personality == PersonalityFeature::Disabled
        && let Some(messages) = model.model_messages.as_mut()
    {
        // Bake the default personality into the template so later personality choices cannot
        // change the instructions.
        let default_text = messages
            .instructions_variables
            .as_ref()
            .and_then(|variables| variables.personality_message(None))
            .unwrap_or_default()
            .to_string();
        if let Some(template) = messages.instructions_template.as_mut() {
            *template = template.replace(PERSONALITY_PLACEHOLDER, &default_text);
        }
        messages.instructions_variables = None;
    }
    model
}

/// `template` without its `# Personality` section: from that heading's line up to the next
/// level-one heading (or the end).
fn without_personality_section(template: &str) -> String {
    let mut kept = String::with_capacity(template.len());
    let mut in_section = false;
    for line in template.split_inclusive('\n') {
        let heading = line.trim_end();
        if heading == PERSONALITY_HEADING {
            in_section = true;
            continue;
        }
        if in_section && heading.starts_with(LEVEL_ONE_HEADING) {
            in_section = false;
        }
        if !in_section {
            kept.push_str(line);
        }
    }
    kept
}
