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
    /// Whether the two items a Responses Lite body splices into `input` carry ids.
    pub lite_prefix_ids: LitePrefixIdPolicy,
    /// The `accept-encoding` header on `/responses`, if the release sends one.
    pub accept_encoding: Option<&'static str>,
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
    /// A developer message at `input[0]` (and no `instructions` field), for every model.
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

/// Whether the spliced Responses Lite items (`additional_tools`, base instructions) carry ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LitePrefixIdPolicy {
    /// No `id` on either item.
    Omitted,
    /// Ids derived from the thread (stable across retries and resumes).
    Derived,
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
    lite_prefix_ids: LitePrefixIdPolicy::Omitted,
    accept_encoding: None,
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
    lite_prefix_ids: LitePrefixIdPolicy::Derived,
    accept_encoding: Some("zstd,gzip"),
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
