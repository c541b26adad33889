//! `build_world_state_for_step`: the world-state sections of one sampling step, built from the
//! turn context in upstream's registry order (world_state §4), each present only when its
//! feature or switch asks for it.

use codex_config::Feature;
use codex_models_manager::personality_message;
use codex_prompts::CatalogApprovalMessages;
use codex_prompts::CatalogPermissionMessages;
use codex_prompts::ExecPermissionApprovals;
use codex_prompts::PermissionsInstructions;
use codex_prompts::RequestPermissionsTool;
use codex_prompts::TemplateSet;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxPolicy;
use codex_protocol::TemporaryDirectories;

use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::sections::agents_md::AgentsMdSection;
use crate::context::world_state::sections::agents_md::AgentsMdSnapshot;
use crate::context::world_state::sections::approved_command_prefixes::ApprovedCommandPrefixesSection;
use crate::context::world_state::sections::approved_command_prefixes::ApprovedCommandPrefixesSectionInputs;
use crate::context::world_state::sections::apps_instructions::AppsInstructionsSection;
use crate::context::world_state::sections::collaboration_mode::CollaborationModeSection;
use crate::context::world_state::sections::collaboration_mode::CollaborationModeSectionInputs;
use crate::context::world_state::sections::context_window::ContextWindowSection;
use crate::context::world_state::sections::context_window::ContextWindowSectionInputs;
use crate::context::world_state::sections::context_window_guidance::ContextWindowGuidanceSection;
use crate::context::world_state::sections::context_window_guidance::ContextWindowGuidanceSectionInputs;
use crate::context::world_state::sections::environments::EnvironmentInputs;
use crate::context::world_state::sections::environments::EnvironmentsSection;
use crate::context::world_state::sections::environments::EnvironmentsSectionInputs;
use crate::context::world_state::sections::environments::FileSystemAccess;
use crate::context::world_state::sections::environments::FileSystemEntry;
use crate::context::world_state::sections::environments::FileSystemPolicy;
use crate::context::world_state::sections::environments::FileSystemTarget;
use crate::context::world_state::sections::environments::FilesystemContext;
use crate::context::world_state::sections::environments::PermissionProfileContext;
use crate::context::world_state::sections::environments_instructions::EnvironmentsInstructionsSection;
use crate::context::world_state::sections::guidance::GuidanceSectionInputs;
use crate::context::world_state::sections::managed_developer_instructions::ManagedDeveloperInstructionsSection;
use crate::context::world_state::sections::managed_developer_instructions::ManagedDeveloperInstructionsSectionInputs;
use crate::context::world_state::sections::model::ModelSection;
use crate::context::world_state::sections::model::ModelSectionInputs;
use crate::context::world_state::sections::multi_agent_mode::MultiAgentModeSection;
use crate::context::world_state::sections::multi_agent_usage_hint::MultiAgentUsageHintSection;
use crate::context::world_state::sections::permissions::PermissionsSection;
use crate::context::world_state::sections::personality::BaseInstructionsPersonality;
use crate::context::world_state::sections::personality::PersonalitySection;
use crate::context::world_state::sections::personality::PersonalitySectionInputs;
use crate::context::world_state::sections::personality::PersonalitySnapshot;
use crate::context::world_state::sections::plugins_instructions::PluginsInstructionsSection;
use crate::context::world_state::sections::realtime::RealtimeSection;
use crate::context::world_state::sections::realtime::RealtimeSectionInputs;
use crate::context::world_state::sections::skills::SkillsCatalogSource;
use crate::context::world_state::sections::skills::skills_catalog_body;
use crate::context::world_state::sections::skills::skills_section_contribution;
use crate::context::world_state::sections::tools::ToolsSection;
use crate::context::world_state::sections::tools::ToolsSectionInputs;
use crate::turn_context::TurnContext;
use codex_fragments::available_skills_instructions::SkillUsageRules;

/// Read-only subdirectories of a writable workspace root: version control and agent
/// configuration stay protected even when the workspace is writable.
const PROTECTED_WORKSPACE_SUBDIRECTORIES: [&str; 3] = [".git", ".agents", ".codex"];

/// The sections of one step, in render order.
pub fn build_world_state_for_step(
    turn: &TurnContext,
    templates: &TemplateSet,
) -> Result<WorldState, WorldStateError> {
    let mut world_state = WorldState::new();
    let model = &turn.model;
    let features = &turn.features;

    world_state.add_section(ModelSection::new(
        ModelSectionInputs {
            model: model.slug.clone(),
            previous_model: turn.previous_model().map(str::to_string),
            instructions: turn.base_instructions.model_instructions().to_string(),
        },
        templates,
    ))?;
    if features.enabled(Feature::Personality) {
        world_state.add_section(PersonalitySection::new(
            PersonalitySectionInputs {
                model: model.slug.clone(),
                personality: turn.personality,
                previous: turn
                    .previous_turn
                    .as_ref()
                    .map(|previous| PersonalitySnapshot {
                        model: previous.model.clone(),
                        personality: previous.personality,
                    }),
                message: personality_message(model, turn.personality).map(str::to_string),
                // A template that takes a personality carries it, in the base instructions or
                // in a model-switch notice, so it is never stated twice.
                base_instructions: if model.supports_personality() {
                    BaseInstructionsPersonality::Included
                } else {
                    BaseInstructionsPersonality::NotIncluded
                },
            },
            templates,
        ))?;
    }
    if features.enabled(Feature::TokenBudget) && model.resolved_context_window().is_some() {
        let budget = &turn.token_budget;
        world_state.add_section(ContextWindowSection::new(ContextWindowSectionInputs {
            agent_path: budget.agent_path.clone(),
            first_window_id: budget.first_window_id.clone(),
            window_id: budget.window_id.clone(),
            previous_window_id: budget.previous_window_id.clone(),
            thread_hint: budget.thread_hint.clone(),
        }))?;
        if let Some(message) = budget
            .guidance_message
            .as_ref()
            .filter(|message| !message.trim().is_empty())
        {
            world_state.add_section(ContextWindowGuidanceSection::new(
                ContextWindowGuidanceSectionInputs {
                    message: message.clone(),
                },
            ))?;
        }
    }
    world_state.add_section(RealtimeSection::new(
        RealtimeSectionInputs {
            active: turn.realtime.active,
            start_instructions: turn.realtime.start_instructions.clone(),
            end_instructions: turn.realtime.end_instructions.clone(),
        },
        templates,
    ))?;
    let agents_md = turn.agents_md.as_ref();
    world_state.add_section(AgentsMdSection::new(
        AgentsMdSnapshot {
            directory: agents_md
                .and_then(|discovery| discovery.directory())
                .map(|directory| directory.display().to_string()),
            text: agents_md.and_then(|discovery| discovery.text()),
        },
        templates,
    ))?;
    if turn.inclusion.permissions_instructions.is_included() {
        // Temporary directories are not probed, so the text is reproducible.
        let messages = model.model_messages.as_ref();
        let builder = PermissionsInstructions::builder_from_policy(
            &turn.sandbox_policy,
            &turn.cwd,
            &TemporaryDirectories::default(),
            turn.approval_policy,
        )
        .approvals_reviewer(turn.approvals_reviewer)
        .exec_permission_approvals(if features.enabled(Feature::ExecPermissionApprovals) {
            ExecPermissionApprovals::Enabled
        } else {
            ExecPermissionApprovals::Disabled
        })
        .request_permissions_tool(if features.enabled(Feature::RequestPermissionsTool) {
            RequestPermissionsTool::Available
        } else {
            RequestPermissionsTool::Unavailable
        })
        .catalog_permission_messages(
            messages
                .and_then(|messages| messages.permissions.as_ref())
                .map(CatalogPermissionMessages::from)
                .unwrap_or_default(),
        )
        .catalog_approval_messages(
            messages
                .and_then(|messages| messages.approvals.as_ref())
                .map(CatalogApprovalMessages::from)
                .unwrap_or_default(),
        );
        // The section adds the approved prefixes itself.
        world_state.add_section(PermissionsSection::new(
            builder,
            turn.approved_command_prefixes.clone(),
            templates,
        ))?;
    } else {
        world_state.add_section(ApprovedCommandPrefixesSection::new(
            ApprovedCommandPrefixesSectionInputs {
                approved_command_prefixes: turn.approved_command_prefixes.clone(),
            },
            templates,
        ))?;
    }
    if turn.inclusion.collaboration_mode_instructions.is_included() {
        let mode = &turn.collaboration_mode;
        world_state.add_section(CollaborationModeSection::new(
            CollaborationModeSectionInputs {
                mode: mode.mode,
                model: model.slug.clone(),
                catalog_messages: model
                    .model_messages
                    .as_ref()
                    .and_then(|messages| messages.collaboration_modes.clone()),
                developer_instructions: mode.settings.developer_instructions.clone(),
            },
        ))?;
    }
    let environment_context = turn.inclusion.environment_context.is_included();
    if environment_context {
        world_state.add_section(EnvironmentsSection::new(EnvironmentsSectionInputs {
            environments: turn
                .environments
                .iter()
                .map(|environment| EnvironmentInputs {
                    id: environment.id.clone(),
                    cwd: environment.cwd.clone(),
                    status: environment.status,
                    shell: environment.shell.clone(),
                })
                .collect(),
            current_date: Some(turn.current_date.clone()),
            timezone: Some(turn.timezone.clone()),
            network: turn.network.clone(),
            filesystem: Some(filesystem_context(turn)),
            subagents: None,
        })?)?;
    }
    world_state.add_section(EnvironmentsInstructionsSection::new(
        GuidanceSectionInputs {
            available: environment_context && features.enabled(Feature::DeferredExecutor),
        },
        templates,
    ))?;
    world_state.add_section(AppsInstructionsSection::new(
        GuidanceSectionInputs {
            available: turn.apps.is_available()
                && features.enabled(Feature::Apps)
                && model.include_apps_usage_instructions,
        },
        templates,
    ))?;
    world_state.add_section(PluginsInstructionsSection::new(
        GuidanceSectionInputs {
            available: turn.plugins.is_available()
                && features.enabled(Feature::Plugins)
                && model.include_plugin_usage_instructions,
        },
        templates,
    ))?;
    if features.enabled(Feature::DeferredToolWorldState) {
        world_state.add_section(ToolsSection::new(
            ToolsSectionInputs {
                namespaces: turn
                    .deferred_tool_namespaces
                    .iter()
                    .map(|namespace| (namespace.name.clone(), namespace.description.clone()))
                    .collect(),
            },
            templates,
        ))?;
    }
    if let Some(skills) = &turn.skills {
        // This project discovers no skills in the selected environments, so `skills` only
        // records the listing; `host_skills` carries the configured catalogue.
        world_state.add_contribution(skills_section_contribution(
            SkillsCatalogSource::SelectedEnvironments,
            None,
            skills.listing,
            templates,
        ))?;
        let usage = if model.include_skills_usage_instructions {
            SkillUsageRules::Include
        } else {
            SkillUsageRules::Omit
        };
        world_state.add_contribution(skills_section_contribution(
            SkillsCatalogSource::Host,
            skills_catalog_body(&skills.host, skills.listing, usage, templates),
            skills.listing,
            templates,
        ))?;
    }
    let usage_hint = match turn
        .multi_agent
        .usage_hint
        .as_ref()
        .filter(|hint| !hint.text.trim().is_empty())
    {
        Some(hint) => Some(MultiAgentUsageHintSection::new(hint.clone())?),
        None => None,
    };
    if let Some(hint) = &usage_hint {
        world_state.add_section(hint.clone())?;
    }
    world_state.add_section(MultiAgentModeSection::new(
        turn.multi_agent.mode.clone(),
        usage_hint.as_ref(),
        templates,
    ))?;
    if !turn.session_source.is_guardian_reviewer() {
        world_state.add_section(ManagedDeveloperInstructionsSection::new(
            ManagedDeveloperInstructionsSectionInputs {
                instructions: turn.managed_developer_instructions.clone(),
            },
            templates,
        ))?;
    }
    Ok(world_state)
}

/// The `<filesystem>` description of the sandbox policy: the workspace root (the cwd) and the
/// permission profile the policy amounts to.
fn filesystem_context(turn: &TurnContext) -> FilesystemContext {
    let cwd = turn.cwd.display().to_string();
    let entry = |access, target| FileSystemEntry {
        access,
        escalatable: None,
        target,
    };
    let readable = |access: &ReadOnlyAccess| match access {
        ReadOnlyAccess::FullAccess => vec![entry(
            FileSystemAccess::Read,
            FileSystemTarget::Special(":root".to_string()),
        )],
        ReadOnlyAccess::Restricted {
            include_platform_defaults,
            readable_roots,
        } => include_platform_defaults
            .then(|| {
                entry(
                    FileSystemAccess::Read,
                    FileSystemTarget::Special(":minimal".to_string()),
                )
            })
            .into_iter()
            .chain(readable_roots.iter().map(|root| {
                entry(
                    FileSystemAccess::Read,
                    FileSystemTarget::Path(root.display().to_string()),
                )
            }))
            .collect(),
    };
    let permission_profile = match &turn.sandbox_policy {
        SandboxPolicy::DangerFullAccess => PermissionProfileContext::Disabled,
        SandboxPolicy::ExternalSandbox { .. } => PermissionProfileContext::External,
        SandboxPolicy::ReadOnly { access, .. } => PermissionProfileContext::Managed {
            file_system: FileSystemPolicy::Restricted {
                entries: readable(access),
                glob_scan_max_depth: None,
            },
        },
        SandboxPolicy::WorkspaceWrite {
            writable_roots,
            read_only_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp,
            ..
        } => {
            let mut entries = readable(read_only_access);
            entries.push(entry(
                FileSystemAccess::Write,
                FileSystemTarget::Path(cwd.clone()),
            ));
            entries.extend(writable_roots.iter().map(|root| {
                entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Path(root.display().to_string()),
                )
            }));
            if !exclude_slash_tmp {
                entries.push(entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Special(":slash_tmp".to_string()),
                ));
            }
            if !exclude_tmpdir_env_var {
                entries.push(entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Special(":tmpdir".to_string()),
                ));
            }
            entries.extend(PROTECTED_WORKSPACE_SUBDIRECTORIES.iter().map(|name| {
                entry(
                    FileSystemAccess::Read,
                    FileSystemTarget::Path(turn.cwd.join(name).display().to_string()),
                )
            }));
            PermissionProfileContext::Managed {
                file_system: FileSystemPolicy::Restricted {
                    entries,
                    glob_scan_max_depth: None,
                },
            }
        }
    };
    FilesystemContext {
        workspace_roots: vec![cwd],
        permission_profile,
    }
}
