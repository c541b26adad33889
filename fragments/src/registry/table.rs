//! The rows of the fragment registry.

use ContextualList::Developer as HiddenDeveloper;
use ContextualList::User as HiddenUser;
use FragmentTypeInfo as T;

use super::ContextualList;
use super::FragmentOrigin;
use super::FragmentTypeInfo;
use super::Recognition;
use crate::additional_context_developer::ADDITIONAL_CONTEXT_DEVELOPER;
use crate::additional_context_user::ADDITIONAL_CONTEXT_USER;
use crate::additional_context_user::matches_external_context;
use crate::auto_compact_fallback_prompt::AUTO_COMPACT_FALLBACK_PROMPT;
use crate::available_skills_instructions::AVAILABLE_SKILLS_INSTRUCTIONS;
use crate::base_instructions::BASE_INSTRUCTIONS;
use crate::compaction_prompt::COMPACTION_PROMPT;
use crate::compaction_prompt::matches_compaction_prompt;
use crate::compaction_summary::COMPACTION_SUMMARY;
use crate::compaction_summary::matches_compaction_summary;
use crate::current_time_reminder::CURRENT_TIME_REMINDER;
use crate::developer_instructions::DEVELOPER_INSTRUCTIONS;
use crate::guardian_approved_action::GUARDIAN_APPROVED_ACTION;
use crate::guardian_followup_review_reminder::GUARDIAN_FOLLOWUP_REVIEW_REMINDER;
use crate::guardian_node_repl_policy::GUARDIAN_NODE_REPL_POLICY;
use crate::guardian_policy::GUARDIAN_POLICY;
use crate::guardian_review_evidence::GUARDIAN_REVIEW_EVIDENCE;
use crate::historical_fragments;
use crate::hook_additional_context::HOOK_ADDITIONAL_CONTEXT;
use crate::hook_prompt::HOOK_PROMPT;
use crate::hook_prompt::matches_hook_prompt;
use crate::image_resize_notice::IMAGE_RESIZE_NOTICE;
use crate::inter_agent_completion_message::INTER_AGENT_COMPLETION_MESSAGE;
use crate::inter_agent_message::INTER_AGENT_MESSAGE;
use crate::internal_model_context::INTERNAL_MODEL_CONTEXT;
use crate::internal_model_context::matches_internal_model_context;
use crate::legacy_warnings::LEGACY_APPLY_PATCH_EXEC_COMMAND_WARNING;
use crate::legacy_warnings::LEGACY_MODEL_MISMATCH_WARNING;
use crate::legacy_warnings::LEGACY_UNIFIED_EXEC_PROCESS_LIMIT_WARNING;
use crate::network_rule_saved::NETWORK_RULE_SAVED;
use crate::node_repl_review_evidence::NODE_REPL_REVIEW_EVIDENCE;
use crate::plugin_instructions::PLUGIN_INSTRUCTIONS;
use crate::realtime_delegation::REALTIME_DELEGATION;
use crate::recommended_plugins::RECOMMENDED_PLUGINS;
use crate::rollout_budget::ROLLOUT_BUDGET;
use crate::sections::AGENTS_MD_INSTRUCTIONS;
use crate::sections::APPROVED_COMMAND_PREFIX_SAVED;
use crate::sections::APPROVED_COMMAND_PREFIX_SAVED_PREFIX;
use crate::sections::APPS_INSTRUCTIONS;
use crate::sections::COLLABORATION_MODE;
use crate::sections::CONTEXT_WINDOW;
use crate::sections::CONTEXT_WINDOW_GUIDANCE;
use crate::sections::DEFERRED_TOOLS;
use crate::sections::ENVIRONMENT_CONTEXT;
use crate::sections::ENVIRONMENTS_INSTRUCTIONS;
use crate::sections::GIT_ATTRIBUTION;
use crate::sections::MANAGED_DEVELOPER_INSTRUCTIONS;
use crate::sections::MODEL_CATALOG;
use crate::sections::MODEL_SWITCH;
use crate::sections::MULTI_AGENT_MODE;
use crate::sections::MULTI_AGENT_ROLE;
use crate::sections::MULTI_AGENT_USAGE_HINT;
use crate::sections::PERMISSIONS_INSTRUCTIONS;
use crate::sections::PERSISTENT_MODE;
use crate::sections::PERSONALITY_SPEC;
use crate::sections::PLUGINS_INSTRUCTIONS;
use crate::sections::REALTIME_CUSTOM_START;
use crate::sections::REALTIME_END;
use crate::sections::REALTIME_START;
use crate::sections::ROOT_AGENT_ROLE_PREFIX;
use crate::skill_instructions::SKILL_INSTRUCTIONS;
use crate::subagent_notification::SUBAGENT_NOTIFICATION;
use crate::token_budget_remaining::TOKEN_BUDGET_REMAINING;
use crate::token_budget_reminder::TOKEN_BUDGET_REMINDER;
use crate::turn_aborted::TURN_ABORTED;
use crate::turn_aborted::TURN_ABORTED_DEVELOPER;
use crate::turn_input_contribution::TURN_INPUT_CONTRIBUTION;
use crate::unsupported_media::UNSUPPORTED_AUDIO;
use crate::unsupported_media::UNSUPPORTED_IMAGE;
use crate::user_shell_command::USER_SHELL_COMMAND;

/// Every fragment type. Contextual user types come first, in upstream's recogniser order, then
/// the contextual developer types, then the rest; for text that several entries match (shared
/// markers), the first one wins.
pub(super) static FRAGMENT_TYPES: &[FragmentTypeInfo] = &[
    T::section("agents_md", AGENTS_MD_INSTRUCTIONS, "agents_md").listed(HiddenUser),
    T::section("environment_context", ENVIRONMENT_CONTEXT, "environments").listed(HiddenUser),
    T::fragment(
        "additional_context_user",
        ADDITIONAL_CONTEXT_USER,
        crate::additional_context_user::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_external_context))
    .listed(HiddenUser),
    T::fragment(
        "skill_instructions",
        SKILL_INSTRUCTIONS,
        crate::skill_instructions::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "user_shell_command",
        USER_SHELL_COMMAND,
        crate::user_shell_command::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "turn_aborted",
        TURN_ABORTED,
        crate::turn_aborted::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "subagent_notification",
        SUBAGENT_NOTIFICATION,
        crate::subagent_notification::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "internal_model_context",
        INTERNAL_MODEL_CONTEXT,
        crate::internal_model_context::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_internal_model_context))
    .listed(HiddenUser),
    T::fragment(
        "recommended_plugins",
        RECOMMENDED_PLUGINS,
        crate::recommended_plugins::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::legacy_warning(
        "legacy_unified_exec_process_limit_warning",
        LEGACY_UNIFIED_EXEC_PROCESS_LIMIT_WARNING,
    )
    .listed(HiddenUser),
    T::legacy_warning(
        "legacy_apply_patch_exec_command_warning",
        LEGACY_APPLY_PATCH_EXEC_COMMAND_WARNING,
    )
    .listed(HiddenUser),
    T::legacy_warning(
        "legacy_model_mismatch_warning",
        LEGACY_MODEL_MISMATCH_WARNING,
    )
    .listed(HiddenUser),
    T::historical("hook_prompt", HOOK_PROMPT)
        .recognised_by(Recognition::Custom(matches_hook_prompt))
        .produced_by(FragmentOrigin::Protocol)
        .listed(HiddenUser),
    T::section("permissions", PERMISSIONS_INSTRUCTIONS, "permissions").listed(HiddenDeveloper),
    T::section(
        "approved_command_prefix_saved",
        APPROVED_COMMAND_PREFIX_SAVED,
        "approved_command_prefixes",
    )
    .recognised_by(Recognition::Prefix(APPROVED_COMMAND_PREFIX_SAVED_PREFIX))
    .listed(HiddenDeveloper),
    T::section("model_switch", MODEL_SWITCH, "model").listed(HiddenDeveloper),
    T::section(
        "managed_developer_instructions",
        MANAGED_DEVELOPER_INSTRUCTIONS,
        "managed_developer_instructions",
    )
    .listed(HiddenDeveloper),
    T::section("apps_instructions", APPS_INSTRUCTIONS, "apps_instructions").listed(HiddenDeveloper),
    T::section(
        "collaboration_mode",
        COLLABORATION_MODE,
        "collaboration_mode",
    )
    .listed(HiddenDeveloper),
    T::section(
        "multi_agent_role",
        MULTI_AGENT_ROLE,
        "multi_agent_usage_hint",
    )
    .listed(HiddenDeveloper),
    T::section("multi_agent_mode", MULTI_AGENT_MODE, "multi_agent_mode").listed(HiddenDeveloper),
    T::section(
        "environments_instructions",
        ENVIRONMENTS_INSTRUCTIONS,
        "environments_instructions",
    )
    .listed(HiddenDeveloper),
    T::section("git_attribution", GIT_ATTRIBUTION, "git_attribution")
        .produced_by(FragmentOrigin::Extension("git_attribution"))
        .listed(HiddenDeveloper),
    T::section(
        "plugins_instructions",
        PLUGINS_INSTRUCTIONS,
        "plugins_instructions",
    )
    .listed(HiddenDeveloper),
    T::section("realtime_start", REALTIME_START, "realtime").listed(HiddenDeveloper),
    T::section("realtime_custom_start", REALTIME_CUSTOM_START, "realtime").listed(HiddenDeveloper),
    T::section("realtime_end", REALTIME_END, "realtime").listed(HiddenDeveloper),
    T::fragment(
        "available_skills_instructions",
        AVAILABLE_SKILLS_INSTRUCTIONS,
        crate::available_skills_instructions::MAX_TOKENS,
    )
    .listed(HiddenDeveloper),
    T::section("tools", DEFERRED_TOOLS, "tools").listed(HiddenDeveloper),
    T::section("personality_spec", PERSONALITY_SPEC, "personality").listed(HiddenDeveloper),
    T::historical("token_budget", historical_fragments::TOKEN_BUDGET).listed(HiddenDeveloper),
    T::section("context_window", CONTEXT_WINDOW, "context_window").listed(HiddenDeveloper),
    T::section(
        "context_window_guidance",
        CONTEXT_WINDOW_GUIDANCE,
        "context_window_guidance",
    )
    .listed(HiddenDeveloper),
    T::fragment(
        "rollout_budget",
        ROLLOUT_BUDGET,
        crate::rollout_budget::MAX_TOKENS,
    )
    .listed(HiddenDeveloper),
    // Unmarked: a configured hint is known only by its content kind; the root agent's role
    // text also by how it begins.
    T::section(
        "multi_agent_usage_hint",
        MULTI_AGENT_USAGE_HINT,
        "multi_agent_usage_hint",
    )
    .recognised_by(Recognition::Prefix(ROOT_AGENT_ROLE_PREFIX)),
    T::section("persistent_mode", PERSISTENT_MODE, "persistent_mode"),
    T::section("model_catalog", MODEL_CATALOG, "model_catalog"),
    T::fragment(
        "turn_aborted_developer",
        TURN_ABORTED_DEVELOPER,
        crate::turn_aborted::MAX_TOKENS,
    ),
    T::fragment(
        "current_time_reminder",
        CURRENT_TIME_REMINDER,
        crate::current_time_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "network_rule_saved",
        NETWORK_RULE_SAVED,
        crate::network_rule_saved::MAX_TOKENS,
    ),
    T::fragment(
        "image_resize_notice",
        IMAGE_RESIZE_NOTICE,
        crate::image_resize_notice::MAX_TOKENS,
    ),
    T::fragment(
        "hook_additional_context",
        HOOK_ADDITIONAL_CONTEXT,
        crate::hook_additional_context::MAX_TOKENS,
    ),
    T::fragment(
        "turn_input_contribution",
        TURN_INPUT_CONTRIBUTION,
        crate::turn_input_contribution::MAX_TOKENS,
    ),
    T::fragment(
        "additional_context_developer",
        ADDITIONAL_CONTEXT_DEVELOPER,
        crate::additional_context_developer::MAX_TOKENS,
    ),
    T::fragment(
        "realtime_delegation",
        REALTIME_DELEGATION,
        crate::realtime_delegation::MAX_TOKENS,
    ),
    T::fragment(
        "token_budget_remaining",
        TOKEN_BUDGET_REMAINING,
        crate::token_budget_remaining::MAX_TOKENS,
    ),
    T::fragment(
        "token_budget_reminder",
        TOKEN_BUDGET_REMINDER,
        crate::token_budget_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "auto_compact_fallback_prompt",
        AUTO_COMPACT_FALLBACK_PROMPT,
        crate::auto_compact_fallback_prompt::MAX_TOKENS,
    ),
    T::fragment(
        "plugin_instructions",
        PLUGIN_INSTRUCTIONS,
        crate::plugin_instructions::MAX_TOKENS,
    ),
    T::fragment(
        "inter_agent_message",
        INTER_AGENT_MESSAGE,
        crate::inter_agent_message::MAX_TOKENS,
    ),
    T::fragment(
        "inter_agent_completion_message",
        INTER_AGENT_COMPLETION_MESSAGE,
        crate::inter_agent_completion_message::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_policy",
        GUARDIAN_POLICY,
        crate::guardian_policy::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_followup_review_reminder",
        GUARDIAN_FOLLOWUP_REVIEW_REMINDER,
        crate::guardian_followup_review_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_node_repl_policy",
        GUARDIAN_NODE_REPL_POLICY,
        crate::guardian_node_repl_policy::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_review_evidence",
        GUARDIAN_REVIEW_EVIDENCE,
        crate::guardian_review_evidence::MAX_TOKENS,
    ),
    T::fragment(
        "node_repl_review_evidence",
        NODE_REPL_REVIEW_EVIDENCE,
        crate::node_repl_review_evidence::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_approved_action",
        GUARDIAN_APPROVED_ACTION,
        crate::guardian_approved_action::MAX_TOKENS,
    ),
    T::fragment(
        "compaction_summary",
        COMPACTION_SUMMARY,
        crate::compaction_summary::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_compaction_summary)),
    T::fragment(
        "compaction_prompt",
        COMPACTION_PROMPT,
        crate::compaction_prompt::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_compaction_prompt)),
    T::fragment(
        "unsupported_image",
        UNSUPPORTED_IMAGE,
        crate::unsupported_media::MAX_TOKENS,
    ),
    T::fragment(
        "unsupported_audio",
        UNSUPPORTED_AUDIO,
        crate::unsupported_media::MAX_TOKENS,
    ),
    T::fragment(
        "developer_instructions",
        DEVELOPER_INSTRUCTIONS,
        crate::developer_instructions::MAX_TOKENS,
    ),
    T::fragment(
        "base_instructions",
        BASE_INSTRUCTIONS,
        crate::base_instructions::MAX_TOKENS,
    ),
    T::historical(
        "spawned_agent_context",
        historical_fragments::SPAWNED_AGENT_CONTEXT,
    ),
    T::historical("user_instructions", historical_fragments::USER_INSTRUCTIONS),
    T::historical("extension_context", historical_fragments::EXTENSION_CONTEXT),
    T::historical(
        "next_prompt_suggestion",
        historical_fragments::NEXT_PROMPT_SUGGESTION,
    ),
    T::historical(
        "credentialed_routes",
        historical_fragments::CREDENTIALED_ROUTES,
    ),
    T::historical(
        "guardian_network_access_denied",
        historical_fragments::GUARDIAN_NETWORK_ACCESS_DENIED,
    ),
    T::historical(
        "agent_message_board_notification",
        historical_fragments::AGENT_MESSAGE_BOARD_NOTIFICATION,
    ),
    T::historical(
        "realtime_transcript_tail",
        historical_fragments::REALTIME_TRANSCRIPT_TAIL,
    ),
];
