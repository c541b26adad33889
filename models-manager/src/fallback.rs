//! Generic metadata for model names the catalog does not know.

use codex_prompts::TemplateId;
use codex_protocol::openai_models::ConfigShellToolType;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ModelInstructionsVariables;
use codex_protocol::openai_models::ModelMessages;
use codex_protocol::openai_models::ModelVisibility;
use codex_protocol::openai_models::TruncationMode;
use codex_protocol::openai_models::TruncationPolicyConfig;
use codex_protocol::openai_models::WebSearchToolType;

/// Priority of fallback metadata: after every catalog entry upstream ships.
pub const FALLBACK_PRIORITY: i32 = 99;

const FALLBACK_CONTEXT_WINDOW: i64 = 272_000;
const FALLBACK_TRUNCATION_BYTES: i64 = 10_000;

/// Unknown slugs that still get a personality template, as upstream's fallback does: an
/// older model family and the slug upstream's personality tests run against.
const PERSONALITY_FALLBACK_SLUGS: [&str; 2] = ["gpt-5.2-codex", "exp-codex-personality"];

/// Metadata for `slug` when no catalog entry matches it: display name = slug, no reasoning
/// levels, default shell, hidden (`none`), supported in the API, priority
/// [`FALLBACK_PRIORITY`], 10,000-byte truncation, 272,000-token window, text + image input,
/// `used_fallback_model_metadata` set. Instructions are this project's generic template
/// (`base_instructions/default.md`); the personality slugs get the GPT-5 template with an
/// empty default text and the friendly and pragmatic texts, as upstream's fallback.
pub fn fallback_model_info(slug: &str) -> ModelInfo {
    let mut info = ModelInfo::with_defaults(slug);
    info.description = None;
    info.supported_reasoning_levels = Vec::new();
    info.shell_type = ConfigShellToolType::Default;
    info.visibility = ModelVisibility::None;
    info.supported_in_api = true;
    info.priority = FALLBACK_PRIORITY;
    info.truncation_policy = TruncationPolicyConfig {
        mode: TruncationMode::Bytes,
        limit: FALLBACK_TRUNCATION_BYTES,
    };
    info.supports_parallel_tool_calls = false;
    info.context_window = Some(FALLBACK_CONTEXT_WINDOW);
    info.max_context_window = Some(FALLBACK_CONTEXT_WINDOW);
    info.web_search_tool_type = WebSearchToolType::Text;
    info.used_fallback_model_metadata = true;
    info.model_messages = Some(if PERSONALITY_FALLBACK_SLUGS.contains(&slug) {
        ModelMessages {
            instructions_template: Some(TemplateId::BaseInstructionsGpt5.embedded_file().into()),
            instructions_variables: Some(ModelInstructionsVariables {
                personality_default: Some(String::new()),
                personality_friendly: Some(TemplateId::PersonalityFriendly.embedded_file().into()),
                personality_pragmatic: Some(
                    TemplateId::PersonalityPragmatic.embedded_file().into(),
                ),
            }),
            ..ModelMessages::default()
        }
    } else {
        ModelMessages {
            instructions_template: Some(TemplateId::BaseInstructionsDefault.embedded_file().into()),
            ..ModelMessages::default()
        }
    });
    info
}
