//! Building a [`TurnContext`] from loaded configuration.

use codex_config::AgentsMdDiscovery;
use codex_config::Config;
use codex_config::Feature;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentFingerprint;
use codex_fragments::turn_input_contribution::TEXT_VARIABLES;
use codex_models_manager::BakedPersonality;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelsConfigOverrides;
use codex_models_manager::PersonalityFeature;
use codex_models_manager::with_config_overrides;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::CollaborationMode;
use codex_protocol::CollaborationModeSettings;
use codex_protocol::Personality;
use codex_protocol::SandboxMode;
use codex_protocol::WebSearchMode;
use codex_release::PersonalitySupport;

use super::BaseInstructionsOverrides;
use super::EnvironmentStatus;
use super::RawReasoning;
use super::SkillEntry;
use super::SkillsListing;
use super::SkillsSettings;
use super::TurnContext;
use super::TurnEnvironment;
use super::derived_multi_agent_settings;
use super::recorded::mode_developer_instructions;
use crate::base_instructions::BaseInstructionsSource;
use crate::ids::ThreadIdentity;

/// What a turn context is built from besides the configuration.
#[derive(Debug, Clone, Copy)]
pub struct TurnContextSources<'a> {
    pub catalog: &'a ModelCatalog,
    pub templates: &'a TemplateSet,
    /// The thread the turn belongs to (drawn once, when the thread starts).
    pub identity: &'a ThreadIdentity,
    /// Base instructions recorded by a session being resumed or forked.
    pub recorded_base_instructions: Option<&'a BaseInstructions>,
}

#[derive(Debug, thiserror::Error)]
pub enum TurnContextError {
    #[error("no model is configured and the model catalog is empty")]
    NoModel,
    #[error("turn_input_contributors: {0}")]
    ContributorText(#[from] codex_prompts::UndefinedVariable),
}

impl TurnContext {
    /// Turn `turn_id` of the root thread `sources.identity` as `config` describes it.
    /// `agents_md` is the discovery for `config.cwd` (left out of the context when `None`).
    /// Nothing is drawn here: the same inputs give the same turn context.
    pub fn from_config(
        config: &Config,
        sources: TurnContextSources<'_>,
        turn_id: String,
        agents_md: Option<AgentsMdDiscovery>,
    ) -> Result<TurnContext, TurnContextError> {
        let slug = match &config.model {
            Some(model) => model.clone(),
            None => sources
                .catalog
                .default_model()
                .map(|model| model.slug.clone())
                .ok_or(TurnContextError::NoModel)?,
        };
        let personality_feature = match config.release.profile().personality {
            PersonalitySupport::Selectable if config.features.enabled(Feature::Personality) => {
                PersonalityFeature::Enabled
            }
            PersonalitySupport::Selectable => PersonalityFeature::Disabled,
            PersonalitySupport::BakedIn => PersonalityFeature::Removed(match config.personality {
                Some(Personality::None) => BakedPersonality::Stripped,
                Some(Personality::Friendly | Personality::Pragmatic) | None => {
                    BakedPersonality::Kept
                }
            }),
        };
        let model = with_config_overrides(
            sources.catalog.lookup(&slug).info,
            &ModelsConfigOverrides {
                base_instructions: config.base_instructions.clone(),
                personality: personality_feature,
                ..ModelsConfigOverrides::default()
            },
        );

        let identity = sources.identity;
        let mut turn = TurnContext::for_model(
            identity.thread_id.clone(),
            turn_id,
            model,
            config.cwd.clone(),
        );
        turn.installation_id = identity.installation_id.clone();
        turn.forked_from_thread_id = identity.forked_from.clone();
        turn.release = config.release;
        turn.analytics_enabled = config.analytics_enabled;
        turn.agent_max_depth = config.agent_max_depth;
        turn.raw_reasoning = match config.show_raw_agent_reasoning {
            true => RawReasoning::Shown,
            false => RawReasoning::Hidden,
        };
        turn.model_catalog = Some(catalog_fingerprint(sources.catalog));
        turn.personality = match personality_feature {
            PersonalityFeature::Enabled => config.effective_personality(),
            PersonalityFeature::Disabled | PersonalityFeature::Removed(_) => None,
        };
        let configured = config
            .base_instructions
            .as_ref()
            .map(|text| BaseInstructions {
                text: text.clone(),
                provenance: None,
            });
        turn.resolve_base_instructions(BaseInstructionsOverrides {
            configured: configured.as_ref(),
            recorded: sources.recorded_base_instructions,
        });
        if turn.base_instructions.source() == BaseInstructionsSource::ModelTemplate
            && turn.base_instructions.text().is_empty()
        {
            tracing::warn!(
                "the model catalog entry of `{}` has no instructions template, so its instructions are empty",
                turn.model.slug
            );
        }
        turn.environments = config
            .environments
            .iter()
            .map(|environment| TurnEnvironment {
                id: environment.id.clone(),
                cwd: environment.cwd.display(),
                status: EnvironmentStatus::Available,
                shell: Some(environment.shell.clone()),
                workspace_roots: environment
                    .workspace_roots
                    .iter()
                    .map(|root| root.display())
                    .collect(),
            })
            .collect();
        for contributor in &config.turn_input_contributors {
            codex_prompts::check_variables(
                format_args!("of contributor `{}`", contributor.name),
                &contributor.text,
                &TEXT_VARIABLES,
            )?;
        }
        turn.turn_input_contributors = config.turn_input_contributors.clone();
        turn.current_date = config.current_date.clone();
        turn.timezone = config.timezone.clone();
        turn.sandbox_policy = config.sandbox_policy();
        turn.sandbox_mode_source = config.sandbox_mode_source;
        turn.permission_profile_id = config
            .permission_profile
            .as_ref()
            .map(|profile| profile.id.clone());
        turn.denied_reads = config.denied_reads().to_vec();
        turn.approval_policy = config.approval_policy;
        turn.collaboration_mode = CollaborationMode {
            mode: config.collaboration_mode,
            settings: CollaborationModeSettings {
                model: turn.model.slug.clone(),
                reasoning_effort: config.model_reasoning_effort.clone(),
                developer_instructions: match &config.collaboration_mode_instructions {
                    Some(text) => Some(text.clone()),
                    None => {
                        mode_developer_instructions(config.collaboration_mode, sources.templates)
                    }
                },
            },
        };
        turn.features = config.features.clone();
        turn.developer_instructions = config
            .developer_instructions
            .clone()
            .filter(|text| !text.is_empty());
        turn.agents_md = agents_md;
        turn.token_budget.first_window_id = identity.window_id.clone();
        turn.token_budget.window_id = identity.window_id.clone();
        turn.realtime.active = config.realtime;
        turn.reasoning_effort = config.model_reasoning_effort.clone();
        turn.reasoning_summary = config.model_reasoning_summary;
        turn.verbosity = config.model_verbosity;
        // Upstream applies the key to the model's entry (`with_config_overrides` in
        // `codex-rs/models-manager`), still capped at 90% of the window.
        if let Some(limit) = config.model_auto_compact_token_limit {
            turn.model.auto_compact_token_limit = Some(limit);
        }
        turn.web_search_mode = match config.sandbox_mode {
            SandboxMode::DangerFullAccess => WebSearchMode::Live,
            SandboxMode::ReadOnly | SandboxMode::WorkspaceWrite => WebSearchMode::Cached,
        };
        turn.provider_id = config.model_provider.id.clone();
        turn.multi_agent = derived_multi_agent_settings(
            &turn.model,
            &turn.features,
            turn.reasoning_effort.as_ref(),
            turn.session_source,
            turn.profile().catalog_role,
            sources.templates,
        );
        turn.skills = config.skills.as_ref().map(|skills| SkillsSettings {
            listing: if skills.include_instructions {
                SkillsListing::Listed
            } else {
                SkillsListing::NotListed
            },
            host: skills
                .host
                .iter()
                .map(|skill| SkillEntry {
                    name: skill.name.clone(),
                    description: skill.description.clone(),
                    path: skill.path.display().to_string(),
                })
                .collect(),
            orchestrator: skills.orchestrator,
            system_skills: None,
            roots: Vec::new(),
        });
        Ok(turn)
    }
}

/// Fingerprint of `catalog`: its model slugs, one a line, in catalog order.
fn catalog_fingerprint(catalog: &ModelCatalog) -> FragmentFingerprint {
    let slugs: Vec<&str> = catalog
        .models()
        .iter()
        .map(|model| model.slug.as_str())
        .collect();
    FragmentFingerprint::new(DEVELOPER_ROLE, &slugs.join("\n"))
}
