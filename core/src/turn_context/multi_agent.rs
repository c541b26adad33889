//! The multi-agent v2 settings a turn derives from its model and features: the root agent's
//! role instructions (world-state section `multi_agent_usage_hint`) and the delegation mode
//! (`multi_agent_mode`), as upstream resolves them (`codex-rs/core/src/session/multi_agents.rs`).

use codex_config::Features;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::MultiAgentVersion;
use codex_protocol::openai_models::ReasoningEffort;
use codex_release::CatalogRoleText;

use super::MultiAgentSettings;
use super::SessionSource;
use super::values::MultiAgentMode;
use super::values::MultiAgentUsageHintSectionInputs;
use super::values::UsageHintSource;
use codex_tools::multi_agent_version;

/// Agents that may be active at once under multi-agent v2, the root included (upstream's
/// default `max_concurrent_threads_per_session`).
pub const MULTI_AGENT_V2_MAX_CONCURRENCY: usize = 4;

/// What a turn derives for multi-agent v2: nothing unless the session runs v2 and works for
/// the user (not the approval reviewer); then the root-agent role text and the delegation mode,
/// proactive only at `ultra` effort. The role text is this project's bundled one followed by the
/// usage notes, or, when the release uses it (`catalog_role`) and the catalog entry has one, the
/// catalog's root role followed by the same notes, marked.
pub fn derived_multi_agent_settings(
    model: &ModelInfo,
    features: &Features,
    effort: Option<&ReasoningEffort>,
    session_source: SessionSource,
    catalog_role: CatalogRoleText,
    templates: &TemplateSet,
) -> MultiAgentSettings {
    let root = match session_source {
        SessionSource::Cli => true,
        SessionSource::GuardianReviewer => false,
    };
    match multi_agent_version(model, features) {
        Some(MultiAgentVersion::V2) if root => {
            let effort = effort.or(model.default_reasoning_level.as_ref());
            let usage = render(
                templates.text(TemplateId::MultiAgentRootAgentV2Usage),
                &[(
                    "max_concurrency",
                    &MULTI_AGENT_V2_MAX_CONCURRENCY.to_string(),
                )],
            );
            let catalog_root = match catalog_role {
                CatalogRoleText::Ignored => None,
                CatalogRoleText::MarkedWithUsage => catalog_root_role(model),
            };
            MultiAgentSettings {
                mode: Some(match effort {
                    Some(ReasoningEffort::Ultra) => MultiAgentMode::Proactive,
                    Some(_) | None => MultiAgentMode::ExplicitRequestOnly,
                }),
                usage_hint: Some(match catalog_root {
                    Some(role) => MultiAgentUsageHintSectionInputs {
                        text: format!("{role}\n{usage}"),
                        source: UsageHintSource::CatalogRoleWithUsage,
                    },
                    None => MultiAgentUsageHintSectionInputs {
                        text: format!(
                            "{}\n\n{usage}",
                            templates.text(TemplateId::MultiAgentRootAgentV2)
                        ),
                        source: UsageHintSource::Bundled,
                    },
                }),
            }
        }
        Some(MultiAgentVersion::V1 | MultiAgentVersion::V2) | None => MultiAgentSettings::default(),
    }
}

/// The catalog entry's root-agent role text (`model_messages.multi_agent.role.root`), if any.
fn catalog_root_role(model: &ModelInfo) -> Option<&str> {
    model
        .model_messages
        .as_ref()?
        .multi_agent
        .as_ref()?
        .get("role")?
        .get("root")?
        .as_str()
        .filter(|role| !role.trim().is_empty())
}
