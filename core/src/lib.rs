//! Core of the context engine: assembly only. From a loaded configuration it builds the turn
//! context, the World State sections and their diffs, the initial context, the session's history
//! and context updates, and the exact Responses request of every turn.
//!
//! Everything else is a crate of its own: configuration and AGENTS.md discovery
//! (`codex-config`), fragment types and their registry (`codex-fragments`), rollout files
//! (`codex-rollout`), the HTTP client (`codex-client`), the views over assembly (`codex-inspect`)
//! and scripted sessions (`codex-script`). The modules are private; this list is the API.

mod assemble;
mod base_instructions;
mod context;
mod context_manager;
mod first_turn;
mod ids;
mod request;
mod session;
mod turn_context;

// Assembling a turn: the one pipeline from configuration to a turn context.
pub use assemble::AgentsMd;
pub use assemble::Assembler;
pub use assemble::AssemblyError;
pub use assemble::thread_ids;

// Ids and timestamps: thread identity, seeded generators, Responses Lite ids.
pub use ids::IdGenerator;
pub use ids::ItemIdPrefix;
pub use ids::LiteIdNamespace;
pub use ids::SEEDED_CLOCK_STEP_MICROS;
pub use ids::ThreadIdentity;
pub use ids::create_time_of;
pub use ids::rollout_timestamp_of;
pub use ids::seeded_clock_start;

// The turn context every section and the request are built from.
pub use turn_context::Availability;
pub use turn_context::BaseInstructionsOverrides;
pub use turn_context::DeferredToolNamespace;
pub use turn_context::EnvironmentStatus;
pub use turn_context::Inclusion;
pub use turn_context::MultiAgentMode;
pub use turn_context::MultiAgentSettings;
pub use turn_context::MultiAgentUsageHintSectionInputs;
pub use turn_context::OrchestratorSkills;
pub use turn_context::PreviousTurnSettings;
pub use turn_context::RawReasoning;
pub use turn_context::RunningSubagent;
pub use turn_context::SUBAGENT_HEADER_COLLAB_SPAWN;
pub use turn_context::SUBAGENT_KIND_THREAD_SPAWN;
pub use turn_context::SessionSource;
pub use turn_context::SkillEntry;
pub use turn_context::SkillsListing;
pub use turn_context::SkillsSettings;
pub use turn_context::SpawnedBy;
pub use turn_context::SystemSkills;
pub use turn_context::THREAD_SOURCE_SUBAGENT;
pub use turn_context::TurnContext;
pub use turn_context::TurnContextSources;
pub use turn_context::UsageHintSource;
pub use turn_context::derived_multi_agent_settings;

// Base instructions with their provenance.
pub use base_instructions::BaseInstructionsSource;

// The World State: sections, snapshots, merge patches and their diff.
pub use context::world_state::ErasedWorldStateSection;
pub use context::world_state::FragmentHistory;
pub use context::world_state::FragmentMatchPurpose;
pub use context::world_state::FragmentQuery;
pub use context::world_state::IndexedHistory;
pub use context::world_state::PERMISSIONS_SECTION_ID;
pub use context::world_state::PreviousSectionArg;
pub use context::world_state::WorldState;
pub use context::world_state::WorldStateSnapshot;
pub use context::world_state::build_catalog_section;
pub use context::world_state::catalog_section_ids;
pub use context::world_state::normalize_snapshot;
pub use context::world_state::world_state_diff_cli;

// The `environments` section (`<environment_context>`).
pub use context::world_state::sections::environments::EnvironmentInputs;
pub use context::world_state::sections::environments::EnvironmentsSection;
pub use context::world_state::sections::environments::EnvironmentsSectionInputs;
pub use context::world_state::sections::environments::FileSystemAccess;
pub use context::world_state::sections::environments::FileSystemEntry;
pub use context::world_state::sections::environments::FileSystemPolicy;
pub use context::world_state::sections::environments::FileSystemTarget;
pub use context::world_state::sections::environments::FilesystemContext;
pub use context::world_state::sections::environments::PermissionProfileContext;

// Extension-owned sections: contributions registered next to the built-in ones, and the
// git-attribution extension built on them.
pub use context::world_state::ExtensionFragmentMatcher;
pub use context::world_state::ExtensionRenderer;
pub use context::world_state::PreviousWorldStateSection;
pub use context::world_state::RenderedWorldStateFragment;
pub use context::world_state::WorldStateSectionContribution;
pub use context::world_state::sections::git_attribution::DEFAULT_ATTRIBUTION;
pub use context::world_state::sections::git_attribution::GIT_ATTRIBUTION_SECTION_ID;
pub use context::world_state::sections::git_attribution::GitAttributionInputs;
pub use context::world_state::sections::git_attribution::git_attribution_contribution;

// The ordered registry of built-in sections.
pub use context::world_state_for_step::build_world_state_for_step;
pub use context::world_state_for_step::section_built_from;

// The initial context: fragments routed into messages.
pub use context::initial_context::ContextSource;
pub use context::initial_context::DEVELOPER_INSTRUCTIONS_KIND;
pub use context::initial_context::GUARDIAN_POLICY_KIND;
pub use context::initial_context::build_initial_context_with_world_state;

// A thread's first request and where each of its items came from.
pub use first_turn::FirstTurn;
pub use first_turn::FirstTurnOptions;
pub use first_turn::RequestItemSource;
pub use first_turn::build_first_turn_request;

// The Responses request: body, builder, Lite prefix, metadata and stamping.
pub use request::ClientMetadata;
pub use request::ClientSurface;
pub use request::CompactionMetadata;
pub use request::CompactionPhase;
pub use request::ContentItemKindsPolicy;
pub use request::HistoryInitialization;
pub use request::INCLUDE_REASONING_ENCRYPTED_CONTENT;
pub use request::LITE_FUNCTIONS_NAMESPACE;
pub use request::LitePrefixIds;
pub use request::LiteToolCatalog;
pub use request::ModelProviderKind;
pub use request::OUTPUT_SCHEMA_FORMAT_NAME;
pub use request::OutputSchemaStrictness;
pub use request::ParallelToolCalls;
pub use request::ROOT_AGENT_NAME;
pub use request::Reasoning;
pub use request::ReasoningContext;
pub use request::ReasoningSummaryDelivery;
pub use request::RequestBuildError;
pub use request::RequestKind;
pub use request::RequestPrefixInputs;
pub use request::ResponsesRequest;
pub use request::ResponsesRequestInputs;
pub use request::StreamOptions;
pub use request::TextControls;
pub use request::TextFormat;
pub use request::TextFormatType;
pub use request::ToolChoice;
pub use request::TurnMetadata;
pub use request::TurnMetadataWorkspace;
pub use request::TurnRequestError;
pub use request::TurnTrigger;
pub use request::build_compaction_request;
pub use request::build_responses_request;
pub use request::build_turn_request;
pub use request::last_assistant_text;
pub use request::lite_catalog_tools;
pub use request::lite_prefix_items;
pub use request::prepare_outgoing_items;
pub use request::request_input_prefix;
pub use request::stamp_recorded_item;
pub use request::turn_metadata;

// Built-in tools.
pub use codex_tools::BuiltinToolsConfig;
pub use codex_tools::ExperimentalTool;
pub use codex_tools::FreeformTool;
pub use codex_tools::FreeformToolFormat;
pub use codex_tools::FreeformToolFormatType;
pub use codex_tools::FunctionTool;
pub use codex_tools::GoalTools;
pub use codex_tools::GrammarSyntax;
pub use codex_tools::ImageDetailParameter;
pub use codex_tools::MultiAgentTools;
pub use codex_tools::ServiceTierParameter;
pub use codex_tools::ToolLayout;
pub use codex_tools::ToolSearchTool;
pub use codex_tools::ToolSpec;
pub use codex_tools::ToolSpecError;
pub use codex_tools::WebSearchTool;
pub use codex_tools::builtin_tools;
pub use codex_tools::multi_agent_version;

// Append-only history, normalisation and rollback.
pub use context_manager::ABORTED_OUTPUT;
pub use context_manager::ContextManager;
pub use context_manager::RollbackOutcome;
pub use context_manager::WorldStateUpdate;
pub use context_manager::estimated_tokens;
pub use context_manager::is_api_item;

// The session: history, steady-state context updates, compaction, rollout lines.
pub use session::BaselineAuthor;
pub use session::CommandExecution;
pub use session::HistoryMode;
pub use session::MetaWriter;
pub use session::NewThreadMeta;
pub use session::ResumedSession;
pub use session::Rollback;
pub use session::RolloutSink;
pub use session::RolloutSinkError;
pub use session::Session;
pub use session::SessionError;
pub use session::SessionInit;
pub use session::THREAD_SOURCE_USER;
pub use session::TurnAbortReason;
pub use session::TurnContextContributor;
pub use session::new_thread_meta;
pub use session::turn_context_item;
