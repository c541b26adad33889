//! [`ReleaseProfile`]: one row per supported release, one field per behaviour that differs.
//!
//! Every field is a small enum named after the behaviour, never a version number, so the code
//! that consults it reads as what it does. The two rows below are the only place that says
//! which release does what.

use crate::release::CodexRelease;

/// Everything that differs between supported releases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseProfile {
    pub release: CodexRelease,
    /// Which bundled model catalog the release ships.
    pub catalog: BundledCatalog,
    /// Where the base instructions travel in a request that is not Responses Lite.
    pub base_instructions: BaseInstructionsPlacement,
    /// Where `stream` sits among the body's keys.
    pub stream_key: StreamKeyPosition,
    /// Where a Responses Lite body's `additional_tools` item and base-instructions message
    /// come from, and whether they carry ids.
    pub lite_prefix: LitePrefixPlacement,
    /// Which keys the turn metadata (`x-codex-turn-metadata`) has.
    pub turn_metadata: TurnMetadataKeys,
    /// The `accept-encoding` header on `/responses`, if the release sends one.
    pub accept_encoding: Option<&'static str>,
    /// Whether the `update_plan` tool is offered.
    pub plan_tool: PlanTool,
    /// Which parameters `view_image` has.
    pub view_image_detail: ViewImageDetail,
    /// Where an inline `multi_agent_v1` namespace sits among the built-in tools.
    pub inline_multi_agent_position: InlineMultiAgentPosition,
    /// What becomes of the catalog's root-agent role text under multi-agent v2.
    pub catalog_role: CatalogRoleText,
    /// When `multi_agent_v1`'s `spawn_agent` has the `service_tier` parameter.
    pub spawn_agent_service_tier: SpawnAgentServiceTier,
    /// Whether the deferred tool namespaces are listed in the context (`<tools>`).
    pub deferred_tools: DeferredToolsContext,
    /// Whether the tools a Responses Lite model is offered are recorded (`top_level_tools`).
    pub top_level_tools: TopLevelToolsRecord,
    /// Which threads carry the `managed_developer_instructions` section.
    pub managed_developer_instructions: ManagedInstructionsRecord,
    /// When the `context_window_guidance` section is recorded.
    pub context_window_guidance: GuidanceRecord,
    /// Whether the model catalog the thread may pick from is recorded (`model_catalog`).
    pub model_catalog: ModelCatalogRecord,
    /// Whether the persistent mode is recorded (`persistent_mode`).
    pub persistent_mode: PersistentModeRecord,
    /// Whether the personality is a setting of its own or part of the model's instructions.
    pub personality: PersonalitySupport,
    /// Whether the orchestrator's skills catalogue is recorded (`orchestrator_skills`).
    pub orchestrator_skills: OrchestratorSkillsRecord,
    /// How the skills catalogue writes where each `SKILL.md` is.
    pub skill_paths: SkillPaths,
    /// The folders of a writable workspace a workspace-write sandbox keeps read-only.
    pub protected_workspace_folders: ProtectedWorkspaceFolders,
    /// The `cli_version` a rollout's `session_meta` records.
    pub rollout_cli_version: RolloutCliVersion,
    /// The keys a `session_meta` line adds beside the thread's identity.
    pub session_meta: SessionMetaRecord,
    /// Which settings a `turn_context` line records.
    pub turn_context: TurnContextRecord,
    /// How `task_started` and `task_complete` events place their turn in the thread.
    pub task_events: TaskEventRecord,
    /// When a thread records a `thread_settings_applied` event, and what it holds.
    pub thread_settings_events: ThreadSettingsEvents,
    /// What a rollout records of each response's token usage besides the `token_count` event.
    pub token_usage: TokenUsageRecord,
    /// The line-level `metadata` object of `response_item` lines.
    pub response_item_metadata: ResponseItemMetadata,
    /// The `content_item_kinds` an assistant message records in its item metadata.
    pub assistant_content_kinds: AssistantContentKinds,
    /// What a `compacted` line records beside the summary, the replacement history and windows.
    pub compaction_record: CompactionRecord,
}

/// The model catalog a release bundles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BundledCatalog {
    /// The catalog of 0.149.1 (and the reference commit): default `gpt-5.6-sol`.
    V0_149,
    /// The catalog of 0.171.0: default `gpt-6.2-sol`; no gpt-5.2 or gpt-5.4 models.
    V0_171,
}

/// Where a non-Lite request carries the base instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseInstructionsPlacement {
    /// The body's top-level `instructions` field.
    InstructionsField,
    /// A developer message at `input[0]` (and no `instructions` field), for every model: built
    /// for each request, not recorded, its id a UUIDv5 name of the thread and the text.
    DeveloperMessage,
}

/// Where `stream` is serialised in the request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamKeyPosition {
    /// `…, store, stream, include, …`.
    AfterStore,
    /// `model, stream, input, …`.
    AfterModel,
}

/// Where the Responses Lite items (`additional_tools`, base instructions) come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LitePrefixPlacement {
    /// Spliced in front of every request's input, without ids, and never recorded.
    SplicedWithoutIds,
    /// The first two items of a new thread's history: drawn ids (`at_…`, `msg_…`) like every
    /// other item of the initial context, recorded as `response_item` lines, sent from history.
    RecordedInHistory,
}

/// The keys of the turn metadata JSON (`client_metadata["x-codex-turn-metadata"]` and the
/// `x-codex-turn-metadata` header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnMetadataKeys {
    /// Ids, request kind, sandbox, workspaces and start time; `codex exec` sends no
    /// `context_window_id`.
    Base,
    /// The base keys plus `window_number`, `context_window_id` (always),
    /// `history_initialization`, `turn_trigger`, `analytics_enabled`, and on turn requests the
    /// `model` and its `reasoning_effort` (absent when the model has none).
    WithTurnSettings,
}

/// Whether the built-in `update_plan` tool is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlanTool {
    Offered,
    Omitted,
}

/// Which parameters the `view_image` tool has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewImageDetail {
    /// `path`, and `detail` for models whose catalog entry sets `supports_image_detail_original`.
    FollowsCatalog,
    /// `path` only, for every model.
    PathOnly,
}

/// Where the `multi_agent_v1` namespace goes when it is sent in full (not behind `tool_search`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InlineMultiAgentPosition {
    /// After the goal tools, before `web_search`.
    AfterGoalTools,
    /// Right after `view_image`, before the goal tools.
    BeforeGoalTools,
}

/// What the release does with the catalog's root-agent role text
/// (`model_messages.multi_agent.role.root`) under multi-agent v2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CatalogRoleText {
    /// Not used: the bundled root-agent text is sent, unmarked.
    Ignored,
    /// Sent inside `<multi_agent_role>` (no padding), followed by the usage notes the bundled
    /// text ends with.
    MarkedWithUsage,
}

/// When the `spawn_agent` tool of the `multi_agent_v1` namespace offers `service_tier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpawnAgentServiceTier {
    /// Always.
    Always,
    /// Only for models whose catalog entry lists service tiers (0.171.0 sends none for a model
    /// it has no metadata for).
    WithModelServiceTiers,
}

/// Whether the deferred tool namespaces are listed in a `<tools>` fragment (section `tools`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeferredToolsContext {
    /// Only with the `deferred_tool_world_state` feature (off by default).
    FeatureGated,
    /// For every model that is not Responses Lite.
    Listed,
}

/// Whether a Responses Lite model's up-front tools are recorded in the world state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TopLevelToolsRecord {
    /// No such section.
    Absent,
    /// Section `top_level_tools`: each namespace and tool with the fingerprint of its spec.
    RecordedForLite,
}

/// Which threads record the `managed_developer_instructions` section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManagedInstructionsRecord {
    /// Only threads of the reference commit's core (its test harness); the released CLI's
    /// threads record none.
    CoreHarnessOnly,
    /// Every thread.
    EveryThread,
}

/// When the `context_window_guidance` section is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GuidanceRecord {
    /// Only with the token-budget feature and a configured message.
    WhenConfigured,
    /// On every thread; without a configured message it records an empty one and sends nothing.
    Always,
}

/// Whether the model catalog is recorded in the world state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelCatalogRecord {
    Absent,
    /// Section `model_catalog`: a fingerprint of the catalog, never sent to the model.
    Fingerprinted,
}

/// Whether the persistent mode is recorded in the world state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PersistentModeRecord {
    Absent,
    /// Section `persistent_mode` (`{}` while the mode is off, as it always is here).
    Recorded,
}

/// Whether the personality is a setting of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PersonalitySupport {
    /// `personality` picks the text of the model's personality placeholder; it is recorded in
    /// `turn_context` and in the `personality` section.
    Selectable,
    /// The model's instructions carry their personality; `personality = "none"` removes it,
    /// any other value keeps it. Neither `turn_context` nor the world state records one.
    BakedIn,
}

/// Whether the orchestrator's skills catalogue is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrchestratorSkillsRecord {
    Recorded,
    Absent,
}

/// How the skills catalogue writes where each `SKILL.md` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkillPaths {
    /// The absolute path.
    Absolute,
    /// Relative to a root alias (`r0`, `r1`, …, one per skills root with listed skills, in
    /// discovery order) that a `### Skill roots` table resolves.
    RootAliases,
}

/// The folders of a writable workspace that stay read-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProtectedWorkspaceFolders {
    /// `.git`, `.agents`, `.codex`.
    RepositoryAndAgent,
    /// Those and `.aws` (cloud credentials).
    WithCloudCredentials,
}

impl ProtectedWorkspaceFolders {
    /// The folder names, in the order the releases list them.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Self::RepositoryAndAgent => &[".git", ".agents", ".codex"],
            Self::WithCloudCredentials => &[".git", ".agents", ".codex", ".aws"],
        }
    }
}

/// The `session_meta.cli_version` of a rollout this project writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RolloutCliVersion {
    /// This project's own package version (`0.1.0`), which reads back as the oldest release.
    ThisProject,
    /// The release's observed version (`0.171.0`), so a resume reads the rollout as that
    /// release's.
    ObservedRelease,
}

/// The keys a `session_meta` line carries beside identity, cwd and instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionMetaRecord {
    /// Only `cwd`.
    CwdOnly,
    /// `account_scoped` first and `runtime_workspace_roots` (the cwd) after `cwd`.
    AccountScopedWithWorkspaceRoots,
}

/// The settings a `turn_context` line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnContextRecord {
    /// `workspace_roots`, `current_date`, `timezone` and `personality`, and `summary` `auto`.
    DateAndPersonality,
    /// `root_turn_id` and `disabled_plugin_ids`, none of the four above, and `summary` `none`.
    RootTurnAndPlugins,
}

/// How the `task_started` and `task_complete` events name their turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskEventRecord {
    /// `turn_id` only.
    TurnId,
    /// `root_turn_id` on both, and a `turn_attribution` object on `task_started`.
    RootTurnAttribution,
}

/// When `thread_settings_applied` events are written and what they carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreadSettingsEvents {
    /// One before each resumed step's `task_started`; the payload has no `thread_id`.
    ResumedStepsOnly,
    /// Also right after the `turn_context` of each full context (a new thread's first turn,
    /// after a mid-turn compaction), and twice before a resumed step whose settings changed;
    /// the payload names its `thread_id`, and the settings their workspace roots and disabled
    /// plugins instead of a personality.
    EveryFullContextWithThreadId,
}

/// What a rollout records of each response's token usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenUsageRecord {
    /// The `token_count` event only.
    TokenCountOnly,
    /// A `token_usage_record` line (the response, the turn's and the thread's usage) right after
    /// each response's output, and `last_usage_includes_reasoning` in `token_count`.
    UsageRecordLines,
}

/// The line-level `metadata` of `response_item` lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResponseItemMetadata {
    /// None.
    Omitted,
    /// The item's place in history (`history_sequence`, `sampled_through_sequence`,
    /// `user_input_order`, `retained_source` for user and assistant messages, …).
    HistorySequence,
}

/// The `content_item_kinds` of an assistant message's item metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssistantContentKinds {
    /// None recorded.
    Omitted,
    /// `["unknown"]`.
    Unknown,
}

/// What a mid-turn compaction's `compacted` line records beyond 0.149.1's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompactionRecord {
    /// Summary, replacement history and window ids.
    Windows,
    /// Also the replacement history's item metadata, the retained user and assistant messages,
    /// the summary response's id and token usage record, and what a resume needs.
    WithResumeBookkeeping,
}

/// 0.149.1: the release nearest the reference commit.
pub(crate) const V0_149: ReleaseProfile = ReleaseProfile {
    release: CodexRelease::V0_149,
    catalog: BundledCatalog::V0_149,
    base_instructions: BaseInstructionsPlacement::InstructionsField,
    stream_key: StreamKeyPosition::AfterStore,
    lite_prefix: LitePrefixPlacement::SplicedWithoutIds,
    turn_metadata: TurnMetadataKeys::Base,
    accept_encoding: None,
    plan_tool: PlanTool::Offered,
    view_image_detail: ViewImageDetail::FollowsCatalog,
    inline_multi_agent_position: InlineMultiAgentPosition::AfterGoalTools,
    catalog_role: CatalogRoleText::Ignored,
    spawn_agent_service_tier: SpawnAgentServiceTier::Always,
    deferred_tools: DeferredToolsContext::FeatureGated,
    top_level_tools: TopLevelToolsRecord::Absent,
    managed_developer_instructions: ManagedInstructionsRecord::CoreHarnessOnly,
    context_window_guidance: GuidanceRecord::WhenConfigured,
    model_catalog: ModelCatalogRecord::Absent,
    persistent_mode: PersistentModeRecord::Absent,
    personality: PersonalitySupport::Selectable,
    orchestrator_skills: OrchestratorSkillsRecord::Recorded,
    skill_paths: SkillPaths::Absolute,
    protected_workspace_folders: ProtectedWorkspaceFolders::RepositoryAndAgent,
    rollout_cli_version: RolloutCliVersion::ThisProject,
    session_meta: SessionMetaRecord::CwdOnly,
    turn_context: TurnContextRecord::DateAndPersonality,
    task_events: TaskEventRecord::TurnId,
    thread_settings_events: ThreadSettingsEvents::ResumedStepsOnly,
    token_usage: TokenUsageRecord::TokenCountOnly,
    response_item_metadata: ResponseItemMetadata::Omitted,
    assistant_content_kinds: AssistantContentKinds::Omitted,
    compaction_record: CompactionRecord::Windows,
};

/// 0.171.0, observed with the released binary (`docs/releases.md`).
pub(crate) const V0_171: ReleaseProfile = ReleaseProfile {
    release: CodexRelease::V0_171,
    catalog: BundledCatalog::V0_171,
    base_instructions: BaseInstructionsPlacement::DeveloperMessage,
    stream_key: StreamKeyPosition::AfterModel,
    lite_prefix: LitePrefixPlacement::RecordedInHistory,
    turn_metadata: TurnMetadataKeys::WithTurnSettings,
    accept_encoding: Some("zstd,gzip"),
    plan_tool: PlanTool::Omitted,
    view_image_detail: ViewImageDetail::PathOnly,
    inline_multi_agent_position: InlineMultiAgentPosition::BeforeGoalTools,
    catalog_role: CatalogRoleText::MarkedWithUsage,
    spawn_agent_service_tier: SpawnAgentServiceTier::WithModelServiceTiers,
    deferred_tools: DeferredToolsContext::Listed,
    top_level_tools: TopLevelToolsRecord::RecordedForLite,
    managed_developer_instructions: ManagedInstructionsRecord::EveryThread,
    context_window_guidance: GuidanceRecord::Always,
    model_catalog: ModelCatalogRecord::Fingerprinted,
    persistent_mode: PersistentModeRecord::Recorded,
    personality: PersonalitySupport::BakedIn,
    orchestrator_skills: OrchestratorSkillsRecord::Absent,
    skill_paths: SkillPaths::RootAliases,
    protected_workspace_folders: ProtectedWorkspaceFolders::WithCloudCredentials,
    rollout_cli_version: RolloutCliVersion::ObservedRelease,
    session_meta: SessionMetaRecord::AccountScopedWithWorkspaceRoots,
    turn_context: TurnContextRecord::RootTurnAndPlugins,
    task_events: TaskEventRecord::RootTurnAttribution,
    thread_settings_events: ThreadSettingsEvents::EveryFullContextWithThreadId,
    token_usage: TokenUsageRecord::UsageRecordLines,
    response_item_metadata: ResponseItemMetadata::HistorySequence,
    assistant_content_kinds: AssistantContentKinds::Unknown,
    compaction_record: CompactionRecord::WithResumeBookkeeping,
};

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use crate::CodexRelease;

    #[test]
    fn every_profile_names_its_own_release() {
        for release in CodexRelease::ALL {
            assert_eq!(release.profile().release, release);
        }
    }
}
