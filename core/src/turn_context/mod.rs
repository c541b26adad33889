//! Everything one turn's model context is assembled from: the model and its instructions, the
//! working directory and environments, policies, modes, feature toggles and the texts that
//! configuration adds. World-state sections and initial-context assembly read only this.
//!
//! A [`TurnContext`] is plain data. [`TurnContext::for_model`] gives a context with upstream's
//! defaults for tests and embedders; [`TurnContext::from_config`] builds one from loaded
//! configuration.

mod from_config;
mod multi_agent;
mod recorded;
mod spawned;
mod values;

use std::path::Path;
use std::path::PathBuf;

use codex_config::AgentsMdDiscovery;
use codex_config::Feature;
use codex_config::Features;
pub use codex_config::OrchestratorSkills;
use codex_config::SkillsDiscovery;
pub use codex_config::SystemSkills;
use codex_context_fragments::ContextualUserFragment;
pub use codex_fragments::available_skills_instructions::SkillEntry;
use codex_fragments::turn_input_contribution::ContributorEnvironment;
use codex_fragments::turn_input_contribution::TurnInputContribution;
use codex_prompts::TemplateSet;
use codex_protocol::ApprovalsReviewer;
use codex_protocol::AskForApproval;
use codex_protocol::CollaborationMode;
use codex_protocol::CollaborationModeSettings;
use codex_protocol::ConfigShellToolType;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::ReasoningSummary;
use codex_protocol::ResponseItem;
use codex_protocol::SandboxPolicy;
use codex_protocol::Verbosity;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ReasoningEffort;
use codex_rollout::ContextWindow;

pub use from_config::TurnContextError;
pub use from_config::TurnContextSources;
pub use multi_agent::derived_multi_agent_settings;
pub use spawned::RunningSubagent;
pub use spawned::SUBAGENT_HEADER_COLLAB_SPAWN;
pub use spawned::SUBAGENT_KIND_THREAD_SPAWN;
pub use spawned::SpawnedBy;
pub use spawned::THREAD_SOURCE_SUBAGENT;
pub use values::EnvironmentStatus;
pub use values::MultiAgentMode;
pub use values::MultiAgentUsageHintSectionInputs;
pub use values::NetworkContext;
pub use values::SkillsListing;
pub use values::UsageHintSource;

use crate::base_instructions::BaseInstructionsInputs;
use crate::base_instructions::ResolvedBaseInstructions;
use crate::base_instructions::resolve_base_instructions;
use crate::context::world_state::sections::git_attribution::GitAttributionInputs;
use crate::request::ROOT_AGENT_NAME;
use codex_tools::BuiltinToolsConfig;
use codex_tools::ToolSpec;
use codex_tools::ToolSpecError;
use codex_tools::builtin_tools;

/// Who the session works for. Guardian reviewers get their developer instructions as a
/// separate policy message and no managed instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SessionSource {
    #[default]
    Cli,
    /// The automatic approval reviewer.
    GuardianReviewer,
}

impl SessionSource {
    pub fn is_guardian_reviewer(self) -> bool {
        match self {
            Self::Cli => false,
            Self::GuardianReviewer => true,
        }
    }
}

/// Whether a group of context is given to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Inclusion {
    #[default]
    Included,
    Omitted,
}

impl Inclusion {
    pub fn is_included(self) -> bool {
        match self {
            Self::Included => true,
            Self::Omitted => false,
        }
    }
}

/// Whether something the model could be told about is usable this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Availability {
    Available,
    #[default]
    Unavailable,
}

impl Availability {
    pub fn is_available(self) -> bool {
        match self {
            Self::Available => true,
            Self::Unavailable => false,
        }
    }
}

/// Whether the model's raw reasoning text is shown (`show_raw_agent_reasoning`): shown raw
/// reasoning gets an `agent_reasoning_raw_content` event line per entry, as upstream records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RawReasoning {
    Shown,
    #[default]
    Hidden,
}

/// Upstream's `include_*` switches for whole groups of context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ContextInclusion {
    /// `<permissions instructions>`; when omitted only approved-prefix notices are sent.
    pub permissions_instructions: Inclusion,
    /// `<environment_context>`.
    pub environment_context: Inclusion,
    /// `<collaboration_mode>`.
    pub collaboration_mode_instructions: Inclusion,
}

/// One execution environment selected for the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnEnvironment {
    pub id: String,
    /// Native path string of the environment's own platform, shown verbatim.
    pub cwd: String,
    pub status: EnvironmentStatus,
    /// Shell name (`bash`, `zsh`, …) when known.
    pub shell: Option<String>,
    /// Workspace roots as native path strings of the environment's platform, shown verbatim;
    /// only the ones that are absolute paths of this host enter the sandbox's rules.
    pub workspace_roots: Vec<String>,
}

impl TurnEnvironment {
    /// The workspace roots that are absolute paths of this host.
    pub fn host_workspace_roots(&self) -> impl Iterator<Item = &Path> {
        self.workspace_roots
            .iter()
            .map(Path::new)
            .filter(|root| root.is_absolute())
    }
}

/// Settings of the previous real turn, when there was one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousTurnSettings {
    pub model: String,
    pub personality: Option<Personality>,
}

/// Context-window bookkeeping (feature `token_budget`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenBudgetSettings {
    /// This agent's path in the agent tree (`/root` for a root thread).
    pub agent_path: String,
    pub first_window_id: String,
    pub window_id: String,
    pub previous_window_id: Option<String>,
    /// The window's number: 0 for the first, one more after each compaction (the turn
    /// metadata's `window_id` suffix).
    pub window_number: u64,
    /// Notes carried over between windows, appended to the `<context_window>` block.
    pub thread_hint: Option<String>,
    /// Configured `<context_window_guidance>` text; blank means none.
    pub guidance_message: Option<String>,
}

/// Realtime conversation state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RealtimeSettings {
    pub active: bool,
    pub start_instructions: Option<String>,
    pub end_instructions: Option<String>,
}

/// Multi-agent settings of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MultiAgentSettings {
    /// How proactively sub-agents are used; `None` when no mode is active.
    pub mode: Option<MultiAgentMode>,
    /// Usage hint for sub-agents: catalog role text (marked) or configured text (unmarked).
    pub usage_hint: Option<MultiAgentUsageHintSectionInputs>,
}

/// The skills extension of the turn (world-state sections `skills`, `host_skills` and
/// `orchestrator_skills`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsSettings {
    /// Whether catalogues are listed in the context (upstream's `include_instructions`).
    pub listing: SkillsListing,
    /// Skills on the host file system, in catalogue order: the declared `[[skills.host]]`
    /// entries, then the skills discovered on disk.
    pub host: Vec<SkillEntry>,
    /// Whether the orchestrator's catalogue exists (and is off).
    pub orchestrator: OrchestratorSkills,
    /// Whether the release's bundled skills were on disk; `None` when nothing was discovered.
    pub system_skills: Option<SystemSkills>,
    /// The skills roots discovery walked, in discovery order (for root aliases).
    pub roots: Vec<String>,
}

impl Default for SkillsSettings {
    fn default() -> Self {
        Self {
            listing: SkillsListing::default(),
            host: Vec::new(),
            orchestrator: OrchestratorSkills::Absent,
            system_skills: None,
            roots: Vec::new(),
        }
    }
}

impl SkillsSettings {
    /// Adds what discovery found: the skills the model is told about after the declared ones.
    pub fn add_discovered(&mut self, discovery: &SkillsDiscovery) {
        self.host.extend(discovery.listed().map(|skill| SkillEntry {
            name: skill.name.clone(),
            description: skill.description.clone(),
            path: skill.path.display().to_string(),
        }));
        self.system_skills = Some(discovery.system_skills.clone());
        self.roots.extend(
            discovery
                .roots
                .iter()
                .map(|root| root.display().to_string()),
        );
    }
}

/// A tool namespace whose tools are loaded on demand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeferredToolNamespace {
    pub name: String,
    pub description: String,
}

/// Everything the model context of one turn is assembled from.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnContext {
    pub thread_id: String,
    /// Identifies this installation of the harness in request metadata.
    pub installation_id: String,
    /// The thread this one was forked from (`forked_from_thread_id` in request metadata).
    pub forked_from_thread_id: Option<String>,
    pub turn_id: String,
    pub session_source: SessionSource,
    /// The thread and turn that spawned this thread; `None` for a thread the user started.
    pub spawned_by: Option<SpawnedBy>,
    /// `[agents] max_depth`: a thread this deep is offered no multi-agent tools.
    pub agent_max_depth: u32,
    /// The sub-agents this thread spawned, in spawn order.
    pub subagents: Vec<RunningSubagent>,
    /// The model sampling the turn, configuration applied.
    pub model: ModelInfo,
    pub personality: Option<Personality>,
    pub base_instructions: ResolvedBaseInstructions,
    pub previous_turn: Option<PreviousTurnSettings>,
    /// The primary working directory.
    pub cwd: PathBuf,
    /// Selected environments; the first one is primary.
    pub environments: Vec<TurnEnvironment>,
    /// `YYYY-MM-DD` in `timezone`.
    pub current_date: String,
    pub timezone: String,
    pub sandbox_policy: SandboxPolicy,
    /// Whether the sandbox was configured or is the default, which decides whether upstream
    /// names the built-in permission profile it runs under (`active_permission_profile`).
    pub sandbox_mode_source: codex_config::SettingSource,
    /// The permission profile `default_permissions` selected (`active_permission_profile`);
    /// `None` under the legacy sandbox settings.
    pub permission_profile_id: Option<String>,
    /// Paths the permission profile forbids reading: the model is told (the permissions text,
    /// `<filesystem>`) and AGENTS.md discovery refuses them.
    pub denied_reads: Vec<PathBuf>,
    pub approval_policy: AskForApproval,
    pub approvals_reviewer: ApprovalsReviewer,
    pub approved_command_prefixes: Vec<Vec<String>>,
    /// Managed network allow/deny lists, when a network proxy enforces them.
    pub network: Option<NetworkContext>,
    pub collaboration_mode: CollaborationMode,
    pub features: Features,
    pub inclusion: ContextInclusion,
    /// `developer_instructions` from configuration.
    pub developer_instructions: Option<String>,
    /// `additional_developer_instructions` of managed requirements.
    pub managed_developer_instructions: Option<String>,
    /// AGENTS.md discovery for the turn's cwd; `None` when not run.
    pub agents_md: Option<AgentsMdDiscovery>,
    pub token_budget: TokenBudgetSettings,
    pub realtime: RealtimeSettings,
    pub multi_agent: MultiAgentSettings,
    pub deferred_tool_namespaces: Vec<DeferredToolNamespace>,
    /// The skills extension; `None` when it is not installed.
    pub skills: Option<SkillsSettings>,
    /// Configured turn-input contributors, which add input after the user's message.
    pub turn_input_contributors: Vec<codex_config::TurnInputContributor>,
    /// The git-attribution extension; `None` when the host does not install it (upstream's
    /// core test harness installs no host extensions, the released CLI installs this one).
    pub git_attribution: Option<GitAttributionInputs>,
    pub apps: Availability,
    pub plugins: Availability,
    pub reasoning_effort: Option<ReasoningEffort>,
    pub reasoning_summary: Option<ReasoningSummary>,
    pub raw_reasoning: RawReasoning,
    pub verbosity: Option<Verbosity>,
    pub web_search_mode: WebSearchMode,
    /// Configured model provider id (`openai` unless configured).
    pub provider_id: String,
    /// Whose turn metadata the thread's requests carry.
    pub client_surface: crate::request::ClientSurface,
    /// The upstream release whose behaviour the turn reproduces.
    pub release: codex_release::CodexRelease,
    /// `[analytics] enabled`, which the turn metadata of some releases reports.
    pub analytics_enabled: bool,
    /// Whether this process started the thread or resumed it from its rollout.
    pub history_initialization: crate::request::HistoryInitialization,
    /// Fingerprint of the model catalog the session loaded (its slugs, in catalog order);
    /// `None` when the turn was built without one.
    pub model_catalog: Option<codex_context_fragments::FragmentFingerprint>,
}

impl TokenBudgetSettings {
    /// Moves the turn into `window`, the context window a compaction opened.
    pub fn enter(&mut self, window: &ContextWindow) {
        self.window_number = window.number;
        self.window_id = window.id.clone();
        self.previous_window_id = window.previous_id.clone();
    }
}

impl TurnContext {
    /// A turn of a new root thread on `model` in `cwd`, with upstream's defaults: model-rendered
    /// base instructions, read-only sandbox, on-request approvals, default collaboration mode,
    /// default features, one available environment named `local` with shell `bash`, no
    /// configured texts, no AGENTS.md, no skills extension and the nil installation id, under
    /// the release nearest the reference commit (`CodexRelease::REFERENCE`; `from_config` sets
    /// the configured one). Date and timezone are left for the caller to pin (`1970-01-01`,
    /// `UTC`).
    pub fn for_model(
        thread_id: impl Into<String>,
        turn_id: impl Into<String>,
        model: ModelInfo,
        cwd: impl Into<PathBuf>,
    ) -> Self {
        let thread_id = thread_id.into();
        let cwd = cwd.into();
        let base_instructions = resolve_base_instructions(BaseInstructionsInputs {
            configured: None,
            recorded: None,
            model: &model,
            personality: None,
        });
        Self {
            token_budget: TokenBudgetSettings {
                agent_path: ROOT_AGENT_NAME.to_string(),
                first_window_id: thread_id.clone(),
                window_id: thread_id.clone(),
                previous_window_id: None,
                window_number: 0,
                thread_hint: None,
                guidance_message: None,
            },
            thread_id,
            installation_id: NIL_INSTALLATION_ID.to_string(),
            forked_from_thread_id: None,
            turn_id: turn_id.into(),
            session_source: SessionSource::default(),
            spawned_by: None,
            agent_max_depth: codex_config::DEFAULT_AGENT_MAX_DEPTH,
            subagents: Vec::new(),
            collaboration_mode: CollaborationMode {
                mode: ModeKind::Default,
                settings: CollaborationModeSettings {
                    model: model.slug.clone(),
                    reasoning_effort: None,
                    developer_instructions: None,
                },
            },
            personality: None,
            base_instructions,
            previous_turn: None,
            environments: vec![TurnEnvironment {
                id: LOCAL_ENVIRONMENT_ID.to_string(),
                cwd: cwd.display().to_string(),
                status: EnvironmentStatus::Available,
                shell: Some(codex_config::DEFAULT_SHELL.to_string()),
                workspace_roots: vec![cwd.display().to_string()],
            }],
            cwd,
            current_date: "1970-01-01".to_string(),
            timezone: codex_config::DEFAULT_TIMEZONE.to_string(),
            sandbox_policy: SandboxPolicy::new_read_only_policy(),
            sandbox_mode_source: codex_config::SettingSource::Default,
            permission_profile_id: None,
            denied_reads: Vec::new(),
            approval_policy: AskForApproval::OnRequest,
            approvals_reviewer: ApprovalsReviewer::User,
            approved_command_prefixes: Vec::new(),
            network: None,
            features: Features::default(),
            inclusion: ContextInclusion::default(),
            developer_instructions: None,
            managed_developer_instructions: None,
            agents_md: None,
            realtime: RealtimeSettings::default(),
            multi_agent: MultiAgentSettings::default(),
            deferred_tool_namespaces: Vec::new(),
            skills: None,
            turn_input_contributors: Vec::new(),
            git_attribution: None,
            apps: Availability::Unavailable,
            plugins: Availability::Unavailable,
            reasoning_effort: None,
            reasoning_summary: None,
            raw_reasoning: RawReasoning::Hidden,
            verbosity: None,
            web_search_mode: WebSearchMode::default(),
            provider_id: codex_config::DEFAULT_MODEL_PROVIDER_ID.to_string(),
            client_surface: crate::request::ClientSurface::CoreHarness,
            release: codex_release::CodexRelease::REFERENCE,
            analytics_enabled: true,
            history_initialization: crate::request::HistoryInitialization::New,
            model_catalog: None,
            model,
        }
    }

    /// What the turn's release does differently from the others.
    pub fn profile(&self) -> &'static codex_release::ReleaseProfile {
        self.release.profile()
    }

    /// Re-resolves the base instructions after the model, personality or overrides changed.
    pub fn resolve_base_instructions(&mut self, inputs: BaseInstructionsOverrides<'_>) {
        self.base_instructions = resolve_base_instructions(BaseInstructionsInputs {
            configured: inputs.configured,
            recorded: inputs.recorded,
            model: &self.model,
            personality: self.personality,
        });
    }

    /// What the turn-input contributors add after the user's message, one message each (none
    /// for a contributor whose text renders empty): each receives the turn's environments, the
    /// primary first, with their working directories as the model sees them.
    pub fn turn_input_contributions(&self, templates: &TemplateSet) -> Vec<ResponseItem> {
        let environments: Vec<ContributorEnvironment<'_>> = self
            .environments
            .iter()
            .enumerate()
            .map(|(position, environment)| ContributorEnvironment {
                id: &environment.id,
                cwd: &environment.cwd,
                primary: position == 0,
            })
            .collect();
        self.turn_input_contributors
            .iter()
            .filter_map(|contributor| {
                TurnInputContribution::new(
                    &contributor.name,
                    &contributor.text,
                    &environments,
                    templates,
                )
            })
            .map(ContextualUserFragment::into_response_item)
            .collect()
    }

    /// The built-in tools this turn offers the model (they depend on the model, the web
    /// search mode and the features). Built once per turn and moved into its request.
    pub fn builtin_tools(&self, templates: &TemplateSet) -> Result<Vec<ToolSpec>, ToolSpecError> {
        let mut config = BuiltinToolsConfig::for_release(
            &self.model,
            self.web_search_mode,
            &self.features,
            self.profile(),
        );
        // An agent whose children would nest deeper than `agents.max_depth` spawns none.
        let depth = self.spawned_by.as_ref().map_or(0, |spawned| spawned.depth);
        if depth.saturating_add(1) > self.agent_max_depth {
            config.multi_agent = codex_tools::MultiAgentTools::Omitted;
        }
        if self.environments.is_empty() {
            // Without an environment there is nowhere to run commands, patch files or read
            // images from.
            config.shell_type = ConfigShellToolType::Disabled;
            config.apply_patch_tool_type = None;
            config.image_input = false;
        }
        builtin_tools(&config, templates)
    }

    /// Whether the token-budget sections (`context_window`, `context_window_guidance`) apply:
    /// the feature is on and the model's context window is known.
    pub fn token_budget_applies(&self) -> bool {
        self.features.enabled(Feature::TokenBudget)
            && self.model.resolved_context_window().is_some()
    }

    /// The model the conversation moved here from, if any: the previous turn's model, else
    /// the model named by `model{slug}` base instructions that are not this model's own.
    pub fn previous_model(&self) -> Option<&str> {
        match &self.previous_turn {
            Some(previous) => Some(previous.model.as_str()),
            None => self.base_instructions.generated_for_other_model(),
        }
    }
}

/// Installation id of a context built by [`TurnContext::for_model`].
pub const NIL_INSTALLATION_ID: &str = "00000000-0000-0000-0000-000000000000";

/// Identifier of the environment a local session runs in.
pub const LOCAL_ENVIRONMENT_ID: &str = codex_config::LOCAL_ENVIRONMENT_ID;

/// The higher-priority sources of base instructions (see [`resolve_base_instructions`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct BaseInstructionsOverrides<'a> {
    pub configured: Option<&'a codex_protocol::BaseInstructions>,
    pub recorded: Option<&'a codex_protocol::BaseInstructions>,
}

#[cfg(test)]
#[path = "turn_context_tests.rs"]
mod tests;
