//! Configuration applied on top of catalog metadata.

use codex_models_manager::BakedPersonality;
use codex_models_manager::ModelInfo;
use codex_models_manager::ModelsConfigOverrides;
use codex_models_manager::Personality;
use codex_models_manager::PersonalityFeature;
use codex_models_manager::with_config_overrides;
use codex_protocol::openai_models::ModelInstructionsVariables;
use codex_protocol::openai_models::ModelMessages;
use codex_protocol::openai_models::TruncationMode;
use codex_protocol::openai_models::TruncationPolicyConfig;
use pretty_assertions::assert_eq;

fn personality_model() -> ModelInfo {
    let mut info = ModelInfo::with_defaults("test-model");
    info.context_window = Some(200_000);
    info.max_context_window = Some(400_000);
    info.model_messages = Some(ModelMessages {
        instructions_template: Some("Base\n{{ personality }}".to_string()),
        instructions_variables: Some(ModelInstructionsVariables {
            personality_default: Some("default".to_string()),
            personality_friendly: Some("friendly".to_string()),
            personality_pragmatic: Some("pragmatic".to_string()),
        }),
        ..ModelMessages::default()
    });
    info
}

#[test]
fn default_overrides_change_nothing() {
    let model = personality_model();
    assert_eq!(
        with_config_overrides(model.clone(), &ModelsConfigOverrides::default()),
        model
    );
}

#[test]
fn configured_base_instructions_drop_model_messages() {
    let config = ModelsConfigOverrides {
        base_instructions: Some("custom".to_string()),
        ..ModelsConfigOverrides::default()
    };
    let mut expected = personality_model();
    expected.model_messages = None;
    assert_eq!(
        with_config_overrides(personality_model(), &config),
        expected
    );
}

#[test]
fn disabled_personality_bakes_the_default_text_into_the_template() {
    let config = ModelsConfigOverrides {
        personality: PersonalityFeature::Disabled,
        ..ModelsConfigOverrides::default()
    };
    let mut expected = personality_model();
    expected.model_messages = Some(ModelMessages {
        instructions_template: Some("Base\ndefault".to_string()),
        ..ModelMessages::default()
    });
    let overridden = with_config_overrides(personality_model(), &config);
    assert_eq!(overridden, expected);
    assert_eq!(
        overridden.get_model_instructions(Some(Personality::Friendly)),
        "Base\ndefault"
    );
}

fn removed(baked: BakedPersonality) -> ModelsConfigOverrides {
    ModelsConfigOverrides {
        personality: PersonalityFeature::Removed(baked),
        ..ModelsConfigOverrides::default()
    }
}

fn template_of(model: &ModelInfo) -> Option<&str> {
    model
        .model_messages
        .as_ref()?
        .instructions_template
        .as_deref()
}

#[test]
fn a_removed_personality_setting_bakes_the_friendly_text_or_nothing_into_a_placeholder() {
    let kept = with_config_overrides(personality_model(), &removed(BakedPersonality::Kept));
    assert_eq!(template_of(&kept), Some("Base\nfriendly"));
    assert_eq!(
        kept.get_model_instructions(Some(Personality::Pragmatic)),
        "Base\nfriendly"
    );
    let stripped = with_config_overrides(personality_model(), &removed(BakedPersonality::Stripped));
    assert_eq!(template_of(&stripped), Some("Base\n"));
}

#[test]
fn a_stripped_personality_removes_the_section_written_into_a_template() {
    let mut model = ModelInfo::with_defaults("test-model");
    let written =
        "Intro.\n\n# Personality\n\nBe warm.\n\n## Tone\nLight.\n\n# General\nWork well.\n";
    model.model_messages = Some(ModelMessages {
        instructions_template: Some(written.to_string()),
        ..ModelMessages::default()
    });
    let kept = with_config_overrides(model.clone(), &removed(BakedPersonality::Kept));
    assert_eq!(template_of(&kept), Some(written));
    let stripped = with_config_overrides(model, &removed(BakedPersonality::Stripped));
    assert_eq!(
        template_of(&stripped),
        Some("Intro.\n\n# General\nWork well.\n")
    );
}

#[test]
fn context_window_override_is_clamped_to_the_maximum() {
    let config = ModelsConfigOverrides {
        model_context_window: Some(1_000_000),
        model_auto_compact_token_limit: Some(150_000),
        ..ModelsConfigOverrides::default()
    };
    let overridden = with_config_overrides(personality_model(), &config);
    assert_eq!(
        (
            overridden.context_window,
            overridden.auto_compact_token_limit
        ),
        (Some(400_000), Some(150_000))
    );

    let mut unbounded = personality_model();
    unbounded.max_context_window = None;
    assert_eq!(
        with_config_overrides(unbounded, &config).context_window,
        Some(1_000_000)
    );
}

#[test]
fn reasoning_summary_override_can_only_enable_support() {
    let enable = ModelsConfigOverrides {
        model_supports_reasoning_summaries: Some(true),
        ..ModelsConfigOverrides::default()
    };
    let disable = ModelsConfigOverrides {
        model_supports_reasoning_summaries: Some(false),
        ..ModelsConfigOverrides::default()
    };
    let mut supported = personality_model();
    supported.supports_reasoning_summaries = true;
    assert_eq!(
        [
            with_config_overrides(personality_model(), &enable).supports_reasoning_summaries,
            with_config_overrides(supported, &disable).supports_reasoning_summaries,
            with_config_overrides(personality_model(), &disable).supports_reasoning_summaries,
        ],
        [true, true, false]
    );
}

#[test]
fn tool_output_token_limit_keeps_the_truncation_unit() {
    let config = ModelsConfigOverrides {
        tool_output_token_limit: Some(2_500),
        ..ModelsConfigOverrides::default()
    };
    let mut bytes_model = personality_model();
    bytes_model.truncation_policy = TruncationPolicyConfig {
        mode: TruncationMode::Bytes,
        limit: 10_000,
    };
    let mut tokens_model = personality_model();
    tokens_model.truncation_policy = TruncationPolicyConfig {
        mode: TruncationMode::Tokens,
        limit: 10_000,
    };
    assert_eq!(
        [
            with_config_overrides(bytes_model, &config).truncation_policy,
            with_config_overrides(tokens_model, &config).truncation_policy,
        ],
        [
            TruncationPolicyConfig {
                mode: TruncationMode::Bytes,
                limit: 10_000,
            },
            TruncationPolicyConfig {
                mode: TruncationMode::Tokens,
                limit: 2_500,
            },
        ]
    );
}
