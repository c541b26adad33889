//! The rows of the fragment registry.

use crate::context::fragments;
use crate::context::fragments::additional_context_developer::ADDITIONAL_CONTEXT_DEVELOPER;
use crate::context::fragments::additional_context_user::ADDITIONAL_CONTEXT_USER;
use crate::context::fragments::additional_context_user::matches_external_context;
use crate::context::fragments::auto_compact_fallback_prompt::AUTO_COMPACT_FALLBACK_PROMPT;
use crate::context::fragments::available_skills_instructions::AVAILABLE_SKILLS_INSTRUCTIONS;
use crate::context::fragments::base_instructions::BASE_INSTRUCTIONS;
use crate::context::fragments::compaction_summary::COMPACTION_SUMMARY;
use crate::context::fragments::compaction_summary::matches_compaction_summary;
use crate::context::fragments::current_time_reminder::CURRENT_TIME_REMINDER;
use crate::context::fragments::developer_instructions::DEVELOPER_INSTRUCTIONS;
use crate::context::fragments::guardian_approved_action::GUARDIAN_APPROVED_ACTION;
use crate::context::fragments::guardian_followup_review_reminder::GUARDIAN_FOLLOWUP_REVIEW_REMINDER;
use crate::context::fragments::guardian_node_repl_policy::GUARDIAN_NODE_REPL_POLICY;
use crate::context::fragments::guardian_policy::GUARDIAN_POLICY;
use crate::context::fragments::guardian_review_evidence::GUARDIAN_REVIEW_EVIDENCE;
use crate::context::fragments::historical_fragments;
use crate::context::fragments::hook_additional_context::HOOK_ADDITIONAL_CONTEXT;
use crate::context::fragments::hook_prompt::HOOK_PROMPT;
use crate::context::fragments::hook_prompt::matches_hook_prompt;
use crate::context::fragments::image_resize_notice::IMAGE_RESIZE_NOTICE;
use crate::context::fragments::inter_agent_completion_message::INTER_AGENT_COMPLETION_MESSAGE;
use crate::context::fragments::inter_agent_message::INTER_AGENT_MESSAGE;
use crate::context::fragments::internal_model_context::INTERNAL_MODEL_CONTEXT;
use crate::context::fragments::internal_model_context::matches_internal_model_context;
use crate::context::fragments::legacy_apply_patch_exec_command_warning as apply_patch_warning;
use crate::context::fragments::legacy_model_mismatch_warning as model_mismatch_warning;
use crate::context::fragments::legacy_unified_exec_process_limit_warning as process_limit_warning;
use crate::context::fragments::network_rule_saved::NETWORK_RULE_SAVED;
use crate::context::fragments::node_repl_review_evidence::NODE_REPL_REVIEW_EVIDENCE;
use crate::context::fragments::plugin_instructions::PLUGIN_INSTRUCTIONS;
use crate::context::fragments::realtime_delegation::REALTIME_DELEGATION;
use crate::context::fragments::recommended_plugins::RECOMMENDED_PLUGINS;
use crate::context::fragments::rollout_budget::ROLLOUT_BUDGET;
use crate::context::fragments::skill_instructions::SKILL_INSTRUCTIONS;
use crate::context::fragments::subagent_notification::SUBAGENT_NOTIFICATION;
use crate::context::fragments::token_budget_remaining::TOKEN_BUDGET_REMAINING;
use crate::context::fragments::token_budget_reminder::TOKEN_BUDGET_REMINDER;
use crate::context::fragments::turn_aborted::TURN_ABORTED;
use crate::context::fragments::turn_aborted::TURN_ABORTED_DEVELOPER;
use crate::context::fragments::unsupported_media::UNSUPPORTED_AUDIO;
use crate::context::fragments::unsupported_media::UNSUPPORTED_IMAGE;
use crate::context::fragments::user_shell_command::USER_SHELL_COMMAND;
use crate::context::world_state::DEVELOPER_ROLE;
use crate::context::world_state::FragmentSpec;
use crate::context::world_state::MessagePlacement;
use crate::context::world_state::sections::agents_md::AGENTS_MD_INSTRUCTIONS;
use crate::context::world_state::sections::approved_command_prefixes::APPROVED_COMMAND_PREFIX_SAVED;
use crate::context::world_state::sections::approved_command_prefixes::APPROVED_COMMAND_PREFIX_SAVED_PREFIX;
use crate::context::world_state::sections::apps_instructions::APPS_INSTRUCTIONS;
use crate::context::world_state::sections::collaboration_mode::COLLABORATION_MODE;
use crate::context::world_state::sections::context_window::CONTEXT_WINDOW;
use crate::context::world_state::sections::context_window_guidance::CONTEXT_WINDOW_GUIDANCE;
use crate::context::world_state::sections::environments::ENVIRONMENT_CONTEXT;
use crate::context::world_state::sections::environments_instructions::ENVIRONMENTS_INSTRUCTIONS;
use crate::context::world_state::sections::managed_developer_instructions::MANAGED_DEVELOPER_INSTRUCTIONS;
use crate::context::world_state::sections::model::MODEL_SWITCH;
use crate::context::world_state::sections::multi_agent_mode::MULTI_AGENT_MODE;
use crate::context::world_state::sections::multi_agent_usage_hint::MULTI_AGENT_ROLE;
use crate::context::world_state::sections::multi_agent_usage_hint::MULTI_AGENT_USAGE_HINT;
use crate::context::world_state::sections::permissions::PERMISSIONS_INSTRUCTIONS;
use crate::context::world_state::sections::personality::PERSONALITY_SPEC;
use crate::context::world_state::sections::plugins_instructions::PLUGINS_INSTRUCTIONS;
use crate::context::world_state::sections::realtime::REALTIME_CUSTOM_START;
use crate::context::world_state::sections::realtime::REALTIME_END;
use crate::context::world_state::sections::realtime::REALTIME_START;
use crate::context::world_state::sections::tools::DEFERRED_TOOLS;
use ContextualList::Developer as HiddenDeveloper;
use ContextualList::User as HiddenUser;
use FragmentTypeInfo as T;

use super::ContextualList;
use super::FragmentOrigin;
use super::FragmentTypeInfo;
use super::Recognition;

/// The git-attribution extension keeps its markers private; its rendered kind follows the
/// extension rule `<section id>.instructions`.
const GIT_ATTRIBUTION: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "git_attribution.instructions",
    start_marker: "<git_attribution>",
    end_marker: "</git_attribution>",
    placement: MessagePlacement::Mergeable,
};

/// The later upstream `persistent_mode` world-state section, which this project does not have
/// yet; listed so that its fragments are classified in rollouts that carry them.
const PERSISTENT_MODE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "persistent_mode.instructions",
    start_marker: "<persistent_mode>",
    end_marker: "</persistent_mode>",
    placement: MessagePlacement::Mergeable,
};

/// Every fragment type. Contextual user types come first, in upstream's recogniser order, then
/// the contextual developer types, then the rest; for text that several entries match (shared
/// markers), the first one wins.
pub(super) static FRAGMENT_TYPES: &[FragmentTypeInfo] = &[
    T::section("agents_md", AGENTS_MD_INSTRUCTIONS, "agents_md").listed(HiddenUser),
    T::section("environment_context", ENVIRONMENT_CONTEXT, "environments").listed(HiddenUser),
    T::fragment(
        "additional_context_user",
        ADDITIONAL_CONTEXT_USER,
        fragments::additional_context_user::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_external_context))
    .listed(HiddenUser),
    T::fragment(
        "skill_instructions",
        SKILL_INSTRUCTIONS,
        fragments::skill_instructions::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "user_shell_command",
        USER_SHELL_COMMAND,
        fragments::user_shell_command::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "turn_aborted",
        TURN_ABORTED,
        fragments::turn_aborted::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "subagent_notification",
        SUBAGENT_NOTIFICATION,
        fragments::subagent_notification::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::fragment(
        "internal_model_context",
        INTERNAL_MODEL_CONTEXT,
        fragments::internal_model_context::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_internal_model_context))
    .listed(HiddenUser),
    T::fragment(
        "recommended_plugins",
        RECOMMENDED_PLUGINS,
        fragments::recommended_plugins::MAX_TOKENS,
    )
    .listed(HiddenUser),
    T::historical(
        "legacy_unified_exec_process_limit_warning",
        process_limit_warning::LEGACY_UNIFIED_EXEC_PROCESS_LIMIT_WARNING,
    )
    .recognised_by(Recognition::ExactPrefixSuffix {
        prefix: process_limit_warning::PREFIX,
        suffix: process_limit_warning::SUFFIX,
    })
    .listed(HiddenUser),
    T::historical(
        "legacy_apply_patch_exec_command_warning",
        apply_patch_warning::LEGACY_APPLY_PATCH_EXEC_COMMAND_WARNING,
    )
    .recognised_by(Recognition::ExactPrefixSuffix {
        prefix: apply_patch_warning::PREFIX,
        suffix: apply_patch_warning::SUFFIX,
    })
    .listed(HiddenUser),
    T::historical(
        "legacy_model_mismatch_warning",
        model_mismatch_warning::LEGACY_MODEL_MISMATCH_WARNING,
    )
    .recognised_by(Recognition::ExactPrefixSuffix {
        prefix: model_mismatch_warning::PREFIX,
        suffix: model_mismatch_warning::SUFFIX,
    })
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
        fragments::available_skills_instructions::MAX_TOKENS,
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
        fragments::rollout_budget::MAX_TOKENS,
    )
    .listed(HiddenDeveloper),
    T::section(
        "multi_agent_usage_hint",
        MULTI_AGENT_USAGE_HINT,
        "multi_agent_usage_hint",
    ),
    T::section("persistent_mode", PERSISTENT_MODE, "persistent_mode"),
    T::fragment(
        "turn_aborted_developer",
        TURN_ABORTED_DEVELOPER,
        fragments::turn_aborted::MAX_TOKENS,
    ),
    T::fragment(
        "current_time_reminder",
        CURRENT_TIME_REMINDER,
        fragments::current_time_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "network_rule_saved",
        NETWORK_RULE_SAVED,
        fragments::network_rule_saved::MAX_TOKENS,
    ),
    T::fragment(
        "image_resize_notice",
        IMAGE_RESIZE_NOTICE,
        fragments::image_resize_notice::MAX_TOKENS,
    ),
    T::fragment(
        "hook_additional_context",
        HOOK_ADDITIONAL_CONTEXT,
        fragments::hook_additional_context::MAX_TOKENS,
    ),
    T::fragment(
        "additional_context_developer",
        ADDITIONAL_CONTEXT_DEVELOPER,
        fragments::additional_context_developer::MAX_TOKENS,
    ),
    T::fragment(
        "realtime_delegation",
        REALTIME_DELEGATION,
        fragments::realtime_delegation::MAX_TOKENS,
    ),
    T::fragment(
        "token_budget_remaining",
        TOKEN_BUDGET_REMAINING,
        fragments::token_budget_remaining::MAX_TOKENS,
    ),
    T::fragment(
        "token_budget_reminder",
        TOKEN_BUDGET_REMINDER,
        fragments::token_budget_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "auto_compact_fallback_prompt",
        AUTO_COMPACT_FALLBACK_PROMPT,
        fragments::auto_compact_fallback_prompt::MAX_TOKENS,
    ),
    T::fragment(
        "plugin_instructions",
        PLUGIN_INSTRUCTIONS,
        fragments::plugin_instructions::MAX_TOKENS,
    ),
    T::fragment(
        "inter_agent_message",
        INTER_AGENT_MESSAGE,
        fragments::inter_agent_message::MAX_TOKENS,
    ),
    T::fragment(
        "inter_agent_completion_message",
        INTER_AGENT_COMPLETION_MESSAGE,
        fragments::inter_agent_completion_message::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_policy",
        GUARDIAN_POLICY,
        fragments::guardian_policy::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_followup_review_reminder",
        GUARDIAN_FOLLOWUP_REVIEW_REMINDER,
        fragments::guardian_followup_review_reminder::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_node_repl_policy",
        GUARDIAN_NODE_REPL_POLICY,
        fragments::guardian_node_repl_policy::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_review_evidence",
        GUARDIAN_REVIEW_EVIDENCE,
        fragments::guardian_review_evidence::MAX_TOKENS,
    ),
    T::fragment(
        "node_repl_review_evidence",
        NODE_REPL_REVIEW_EVIDENCE,
        fragments::node_repl_review_evidence::MAX_TOKENS,
    ),
    T::fragment(
        "guardian_approved_action",
        GUARDIAN_APPROVED_ACTION,
        fragments::guardian_approved_action::MAX_TOKENS,
    ),
    T::fragment(
        "compaction_summary",
        COMPACTION_SUMMARY,
        fragments::compaction_summary::MAX_TOKENS,
    )
    .recognised_by(Recognition::Custom(matches_compaction_summary)),
    T::fragment(
        "unsupported_image",
        UNSUPPORTED_IMAGE,
        fragments::unsupported_media::MAX_TOKENS,
    ),
    T::fragment(
        "unsupported_audio",
        UNSUPPORTED_AUDIO,
        fragments::unsupported_media::MAX_TOKENS,
    ),
    T::fragment(
        "developer_instructions",
        DEVELOPER_INSTRUCTIONS,
        fragments::developer_instructions::MAX_TOKENS,
    ),
    T::fragment(
        "base_instructions",
        BASE_INSTRUCTIONS,
        fragments::base_instructions::MAX_TOKENS,
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
