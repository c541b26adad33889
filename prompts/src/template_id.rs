//! The catalogue of embedded templates.
//!
//! Each entry names a file under `prompts/templates/`, the variables its placeholders may use,
//! and embeds the file with `include_str!`. `prompts/README.md` documents the same table.

macro_rules! template_catalogue {
    ($( $(#[$doc:meta])* $variant:ident => $path:literal [$($var:literal),*] ),* $(,)?) => {
        /// One embedded template. [`TemplateId::path`] is its file path relative to
        /// `prompts/templates/` (and to a `--prompts-dir` overlay).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum TemplateId {
            $( $(#[$doc])* $variant, )*
        }

        impl TemplateId {
            /// Every template, in catalogue order.
            pub const ALL: &'static [TemplateId] = &[$(TemplateId::$variant),*];

            /// Path relative to the templates directory, with `/` separators.
            pub fn path(self) -> &'static str {
                match self {
                    $(TemplateId::$variant => $path,)*
                }
            }

            /// The variables this template's placeholders may name.
            pub fn variables(self) -> &'static [&'static str] {
                match self {
                    $(TemplateId::$variant => &[$($var),*],)*
                }
            }

            /// The file exactly as compiled into the binary (including its final line break).
            pub fn embedded_file(self) -> &'static str {
                match self {
                    $(TemplateId::$variant => include_str!(concat!("../templates/", $path)),)*
                }
            }
        }
    };
}

template_catalogue! {
    /// Base instructions used when the model catalog supplies none.
    BaseInstructionsDefault => "base_instructions/default.md" [],
    /// Base instructions for the `gpt-5` family; an instructions template whose
    /// `{{ personality }}` slot takes one of the personality texts.
    BaseInstructionsGpt5 => "base_instructions/gpt-5.md" ["personality"],
    /// Base instructions for the `gpt-5.6` family.
    BaseInstructionsGpt56 => "base_instructions/gpt-5.6.md" [],
    /// Base instructions for the automatic approval reviewer.
    BaseInstructionsAutoReview => "base_instructions/auto_review.md" [],
    /// Base instructions for the `gpt-6` family (0.171 catalog).
    BaseInstructionsGpt6 => "base_instructions/gpt-6.md" [],
    /// Personality text for `friendly`.
    PersonalityFriendly => "personality/friendly.md" [],
    /// Personality text for `pragmatic`.
    PersonalityPragmatic => "personality/pragmatic.md" [],
    /// Sandbox section for `read-only`.
    SandboxReadOnly => "permissions/sandbox_mode/read_only.md" ["network_access"],
    /// Sandbox section for `workspace-write`.
    SandboxWorkspaceWrite => "permissions/sandbox_mode/workspace_write.md" ["network_access"],
    /// Sandbox section for `danger-full-access`.
    SandboxDangerFullAccess => "permissions/sandbox_mode/danger_full_access.md" ["network_access"],
    /// Approval section for `never`.
    ApprovalNever => "permissions/approval_policy/never.md" [],
    /// Approval section for `untrusted`.
    ApprovalUnlessTrusted => "permissions/approval_policy/unless_trusted.md" [],
    /// Approval section for `on-request`.
    ApprovalOnRequest => "permissions/approval_policy/on_request.md" [],
    /// Approval section for `on-request` when exec-permission approvals are enabled; also used
    /// by `granular` when sandbox approvals can still prompt.
    ApprovalOnRequestRuleRequestPermission =>
        "permissions/approval_policy/on_request_rule_request_permission.md" [],
    /// Opening of the `granular` approval section.
    ApprovalGranularIntro => "permissions/approval_policy/granular_intro.md" [],
    /// Granular categories that may still prompt the user.
    ApprovalGranularPrompted => "permissions/approval_policy/granular_prompted.md" ["categories"],
    /// Granular categories that are rejected automatically.
    ApprovalGranularRejected => "permissions/approval_policy/granular_rejected.md" ["categories"],
    /// Appended to the approval section when `approvals_reviewer` is `auto_review`.
    ApprovalAutoReviewSuffix => "permissions/approval_policy/auto_review_suffix.md" [],
    /// Guidance for the `request_permissions` tool.
    RequestPermissionsTool => "permissions/request_permissions_tool.md" [],
    /// Section listing already-approved command prefixes.
    ApprovedCommandPrefixes => "permissions/approved_command_prefixes.md" ["prefixes"],
    /// Appended to a prefix list that had to be cut short.
    ApprovedCommandPrefixesTruncated => "permissions/approved_command_prefixes_truncated.md" [],
    /// Sentence naming the single writable root.
    WritableRoot => "permissions/writable_root.md" ["root"],
    /// Sentence naming several writable roots.
    WritableRoots => "permissions/writable_roots.md" ["roots"],
    /// Section listing paths and globs the permission profile forbids reading.
    DeniedReads => "permissions/denied_reads.md" ["entries"],
    /// Body of `<model_switch>`.
    ModelSwitch => "model_switch.md" ["model_instructions"],
    /// Body of `<personality_spec>`.
    PersonalityChange => "personality_change.md" ["personality"],
    /// Default collaboration mode instructions.
    CollaborationModeDefault => "collaboration_mode/default.md" ["known_mode_names"],
    /// Plan collaboration mode instructions.
    CollaborationModePlan => "collaboration_mode/plan.md" [],
    /// Built-in text when a realtime conversation starts.
    RealtimeStart => "realtime/start.md" [],
    /// Built-in text when a realtime conversation ends.
    RealtimeEnd => "realtime/end.md" [],
    /// AGENTS.md text that replaces earlier AGENTS.md instructions.
    AgentsMdReplaced => "agents_md/replaced.md" ["instructions"],
    /// Notice that earlier AGENTS.md instructions no longer apply.
    AgentsMdRemoved => "agents_md/removed.md" [],
    /// Managed developer instructions that replace earlier ones.
    ManagedInstructionsReplaced => "managed_instructions/replaced.md" ["instructions"],
    /// Notice that earlier managed developer instructions no longer apply.
    ManagedInstructionsRemoved => "managed_instructions/removed.md" [],
    /// Multi-agent mode: spawn sub-agents only on explicit request.
    MultiAgentExplicitRequestOnly => "multi_agent/explicit_request_only.md" [],
    /// Multi-agent mode: proactive delegation.
    MultiAgentProactive => "multi_agent/proactive.md" [],
    /// Who the root agent is under multi-agent v2, when the catalog has no role text.
    MultiAgentRootAgentV2 => "multi_agent/root_agent_v2.md" [],
    /// The 0.171 catalog's root-agent role text of the `gpt-6` family
    /// (`model_messages.multi_agent.role.root`).
    CatalogRoleRoot => "multi_agent/catalog_root_role.md" [],
    /// The 0.171 catalog's sub-agent role text of the `gpt-6` family.
    CatalogRoleSubagent => "multi_agent/catalog_subagent_role.md" [],
    /// The 0.171 catalog's Default-mode text of the `gpt-6` family
    /// (`model_messages.collaboration_modes.default`).
    CatalogCollaborationDefault => "collaboration_mode/catalog_default.md" [],
    /// The 0.171 catalog's `on-request` approval section with the automatic reviewer.
    CatalogApprovalOnRequestAutoReview => "permissions/catalog_on_request_auto_review.md" [],
    /// How the root agent under multi-agent v2 uses its team: follows the role text (this
    /// project's, or the catalog's).
    MultiAgentRootAgentV2Usage => "multi_agent/root_agent_v2_usage.md" ["max_concurrency"],
    /// Prefix that introduces a compaction summary in the rebuilt history.
    CompactionSummaryPrefix => "compaction/summary_prefix.md" [],
    /// Prompt asking the model to write a compaction summary.
    CompactionPrompt => "compaction/prompt.md" [],
    /// `<environments_instructions>` guidance on execution environments.
    GuidanceEnvironments => "guidance/environments.md" [],
    /// `<apps_instructions>` guidance on apps (connectors).
    GuidanceApps => "guidance/apps.md" [],
    /// `<plugins_instructions>` guidance on plugins.
    GuidancePlugins => "guidance/plugins.md" [],
    /// The `exec_command` tool: name, description and JSON parameters.
    ToolExecCommand => "tools/exec_command.json" [],
    /// The `write_stdin` tool.
    ToolWriteStdin => "tools/write_stdin.json" [],
    /// The `update_plan` tool.
    ToolUpdatePlan => "tools/update_plan.json" [],
    /// The `request_user_input` tool.
    ToolRequestUserInput => "tools/request_user_input.json" [],
    /// The freeform (grammar) `apply_patch` tool.
    ToolApplyPatchFreeform => "tools/apply_patch_freeform.json" [],
    /// The grammar of the freeform `apply_patch` tool, sent byte for byte as its definition.
    ToolApplyPatchGrammar => "tools/apply_patch.lark" [],
    /// The function `apply_patch` tool.
    ToolApplyPatchFunction => "tools/apply_patch_function.json" [],
    /// The `view_image` tool.
    ToolViewImage => "tools/view_image.json" [],
    /// The `request_user_input_async` tool (catalog `experimental_supported_tools`).
    ToolRequestUserInputAsync => "tools/request_user_input_async.json" [],
    /// The `send_message_to_user_async` tool (catalog `experimental_supported_tools`).
    ToolSendMessageToUserAsync => "tools/send_message_to_user_async.json" [],
    /// The `clock` namespace (`sleep`; catalog `experimental_supported_tools`).
    ToolClock => "tools/clock.json" [],
    /// The `tool_search` tool that holds deferred tools back.
    ToolSearch => "tools/tool_search.json" [],
    /// The `multi_agent_v1` namespace.
    ToolMultiAgentV1 => "tools/multi_agent_v1.json" [],
    /// The `collaboration` namespace of multi-agent v2.
    ToolMultiAgentV2 => "tools/multi_agent_v2.json" [],
    /// The `get_goal` tool of the goal extension.
    ToolGetGoal => "tools/get_goal.json" [],
    /// The `create_goal` tool of the goal extension.
    ToolCreateGoal => "tools/create_goal.json" [],
    /// The `update_goal` tool of the goal extension.
    ToolUpdateGoal => "tools/update_goal.json" [],
    /// The code-mode `exec` tool (freeform, grammar format); its description opens the `exec`
    /// description, which then describes every nested tool.
    ToolCodeModeExec => "tools/code_mode_exec.json" [],
    /// The grammar of `exec`, sent byte for byte as its definition.
    ToolCodeModeExecGrammar => "tools/code_mode_exec.lark" [],
    /// One tool callable from `exec`, in the `exec` description.
    ToolCodeModeNestedTool => "tools/code_mode_nested_tool.md" ["name", "description", "declaration"],
    /// The code-mode `wait` tool.
    ToolCodeModeWait => "tools/code_mode_wait.json" [],
    /// `<tools>` heading of the full list of deferred tool namespaces.
    DeferredToolNamespaces => "tools/deferred_namespaces.md" [],
    /// `<tools>` heading of namespaces added (or redescribed) since the last update.
    DeferredToolNamespacesAdded => "tools/added_deferred_namespaces.md" [],
    /// `<tools>` heading of namespaces removed since the last update.
    DeferredToolNamespacesRemoved => "tools/removed_deferred_namespaces.md" [],
    /// `<tools>` line when no deferred namespace is left.
    DeferredToolNamespacesNoneRemain => "tools/no_deferred_namespaces_remain.md" [],
    /// `<tools>` line standing for entries cut by the fragment size cap.
    DeferredToolNamespacesOmitted => "tools/deferred_namespaces_omitted.md" ["count"],
    /// Marker put where a custom multi-agent mode text was cut to its token budget.
    MultiAgentCustomModeTruncated => "multi_agent/custom_mode_truncated.md" ["tokens"],
    /// `<git_attribution>` policy: end commit messages with a co-author trailer.
    GitAttributionEnabled => "git_attribution/enabled.md" ["trailer"],
    /// `<git_attribution>` notice that the trailer policy no longer applies.
    GitAttributionDisabled => "git_attribution/disabled.md" [],
    /// Notice put where a fragment's text was cut to its size cap.
    FragmentTruncated => "fragments/truncated.md" ["bytes"],
    /// Body of `<current_time_reminder>`.
    FragmentCurrentTimeReminder => "fragments/current_time_reminder.md" ["time"],
    /// `<result>` part of `<user_shell_command>`.
    FragmentUserShellCommandResult =>
        "fragments/user_shell_command_result.md" ["exit_code", "duration", "output"],
    /// `<turn_aborted>` guidance in the user message after an interrupted turn.
    FragmentTurnAbortedUser => "fragments/turn_aborted_user.md" [],
    /// `<turn_aborted>` guidance in the developer message after an interrupted turn.
    FragmentTurnAbortedDeveloper => "fragments/turn_aborted_developer.md" [],
    /// Envelope of a message between agents (also used for completion messages).
    FragmentInterAgentMessage =>
        "fragments/inter_agent_message.md" ["message_type", "task_name", "sender", "payload"],
    /// Completion payload of an agent that finished without a final message.
    FragmentInterAgentCompletedSilently => "fragments/inter_agent_completed_silently.md" [],
    /// Completion payload of an agent that failed.
    FragmentInterAgentErrored => "fragments/inter_agent_errored.md" ["error"],
    /// Completion payload of an agent that was shut down.
    FragmentInterAgentShutDown => "fragments/inter_agent_shut_down.md" [],
    /// Completion payload when the agent does not exist.
    FragmentInterAgentNotFound => "fragments/inter_agent_not_found.md" [],
    /// Notice that a network allow rule was saved.
    FragmentNetworkRuleAllowed => "fragments/network_rule_allowed.md" ["host"],
    /// Notice that a network deny rule was saved.
    FragmentNetworkRuleDenied => "fragments/network_rule_denied.md" ["host"],
    /// `<image_resize_notice>` line for an image of the user's message.
    FragmentImageResizedInUserMessage => "fragments/image_resized_in_user_message.md"
        ["number", "count", "original_size", "prepared_size"],
    /// `<image_resize_notice>` line for an image of a tool output.
    FragmentImageResizedInToolOutput => "fragments/image_resized_in_tool_output.md"
        ["number", "count", "original_size", "prepared_size"],
    /// Tokens left in the context window (the `get_context_remaining` answer).
    FragmentTokensRemaining => "fragments/tokens_remaining.md" ["tokens"],
    /// The same answer when the count is unknown.
    FragmentTokensRemainingUnknown => "fragments/tokens_remaining_unknown.md" [],
    /// Body of `<rollout_budget>`.
    FragmentRolloutBudget => "fragments/rollout_budget.md" ["tokens"],
    /// First line of `<recommended_plugins>`.
    FragmentRecommendedPlugins => "fragments/recommended_plugins.md" [],
    /// Last line of a list cut by its size cap.
    FragmentListOmitted => "fragments/list_omitted.md" ["count"],
    /// Heading and first paragraph of `<skills_instructions>`.
    FragmentSkillsCatalogIntro => "fragments/skills_catalog_intro.md" [],
    /// Heading of the skill-root alias table.
    FragmentSkillsCatalogRoots => "fragments/skills_catalog_roots.md" [],
    /// Heading of the list of skills.
    FragmentSkillsCatalogAvailable => "fragments/skills_catalog_available.md" [],
    /// Rules for using skills, closing the catalogue when enabled.
    FragmentSkillsCatalogUsage => "fragments/skills_catalog_usage.md" [],
    /// `<skills_instructions>` update: the selected environments' skills are gone.
    SkillsEnvironmentNoneAvailable => "skills/environment_none_available.md" [],
    /// `<skills_instructions>` update: the selected environments' skills are no longer listed.
    SkillsEnvironmentNotListed => "skills/environment_not_listed.md" [],
    /// `<skills_instructions>` update: the host's skills are gone.
    SkillsHostNoneAvailable => "skills/host_none_available.md" [],
    /// `<skills_instructions>` update: the host's skills are no longer listed.
    SkillsHostNotListed => "skills/host_not_listed.md" [],
    /// `<skills_instructions>` update: the orchestrator's skills are gone or switched off.
    SkillsOrchestratorNoneAvailable => "skills/orchestrator_none_available.md" [],
    /// `<skills_instructions>` update: the orchestrator's skills are no longer listed.
    SkillsOrchestratorNotListed => "skills/orchestrator_not_listed.md" [],
    /// Reminder given to the guardian reviewer on follow-up reviews.
    FragmentGuardianFollowupReviewReminder =>
        "fragments/guardian_followup_review_reminder.md" [],
    /// Guardian policy for reviewing node_repl actions.
    FragmentGuardianNodeReplPolicy => "fragments/guardian_node_repl_policy.md" [],
    /// Body of `<guardian_sync_review>`.
    FragmentGuardianReviewEvidence => "fragments/guardian_review_evidence.md"
        ["decision", "correlation", "action", "rationale"],
    /// First line of `<node_repl_review_evidence>`.
    FragmentNodeReplReviewEvidence => "fragments/node_repl_review_evidence.md" [],
    /// Header line of one response in `<node_repl_review_evidence>`.
    FragmentNodeReplResponseHeader =>
        "fragments/node_repl_response_header.md" ["sequence", "provenance"],
    /// Stands in for the text of a node_repl response that printed nothing.
    FragmentNodeReplResponseEmpty => "fragments/node_repl_response_empty.md" [],
    /// Approval of an action that automatic review had denied.
    FragmentGuardianApprovedAction => "fragments/guardian_approved_action.md" ["action"],
    /// Stands in for an image the model cannot take.
    FragmentUnsupportedImage => "fragments/unsupported_image.md" [],
    /// Stands in for audio the model cannot take.
    FragmentUnsupportedAudio => "fragments/unsupported_audio.md" [],
}

impl TemplateId {
    /// The template whose [`TemplateId::path`] equals `path` (`/` separators).
    pub fn from_path(path: &str) -> Option<TemplateId> {
        TemplateId::ALL.iter().copied().find(|id| id.path() == path)
    }
}
