//! Configuration: `$CODEX_HOME/config.toml`, then `-c key=value` overrides,
//! then dedicated flags, each layer beating the one before. Key names follow
//! upstream Codex. A malformed file is an error naming file, line and key; an
//! unknown key or feature is a warning.
//!
//! Only the user's own config file is read: a project's `.codex/config.toml`
//! is never consulted, so a repository cannot move its own AGENTS.md root.

use codex_release::CodexRelease;
use std::io;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use codex_protocol::AskForApproval;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::ReasoningEffort;
use codex_protocol::ReasoningSummary;
use codex_protocol::SandboxMode;
use codex_protocol::Verbosity;
use codex_protocol::rollout::HistoryMode;

use crate::agents_md::AgentsMdEnvironment;
use crate::agents_md::AgentsMdRequest;
use crate::agents_md::DEFAULT_PROJECT_DOC_MAX_BYTES;
use crate::agents_md::DEFAULT_PROJECT_ROOT_MARKER;
use crate::agents_md::EnvironmentRole;
use crate::agents_md::ProjectDocOptions;
use crate::agents_md::lexically_normalized;
use crate::environment::ConfigEnv;
use crate::environments::SelectedEnvironment;
use crate::environments::TurnInputContributor;
use crate::error::ConfigError;
use crate::error::ConfigOrigin;
use crate::error::ConfigWarning;
use crate::error::WorkingDirectoryError;
use crate::features::Feature;
use crate::features::Features;
use crate::known_keys::KeyStatus;
use crate::known_keys::config_key_status;
use crate::overrides;
use crate::overrides::CliOverride;
use crate::overrides::ConfigFile;
use crate::overrides::ConfigOverrides;
use crate::permission_profiles::PermissionProfile;
use crate::permission_profiles::resolve_permission_profile;
use crate::projects::ActiveProject;
use crate::sandbox_workspace_write::SandboxWorkspaceWrite;
use crate::skills::ADMIN_CONFIG_DIR;
use crate::skills::ExtensionHost;
use crate::skills::SkillsConfig;
use crate::skills::SkillsDiscoveryRequest;
use crate::toml_layer;
use crate::toml_layer::ModelProviderTable;
use crate::toml_layer::ModelProviderToml;
use crate::toml_layer::ProjectRootMarkersToml;

/// Name of the configuration file inside CODEX_HOME.
pub const CONFIG_TOML_FILE: &str = "config.toml";
/// Directory under the home directory used when CODEX_HOME is not set.
pub const DEFAULT_CODEX_HOME_DIR: &str = ".codex";
/// Provider id used when none is configured.
pub const DEFAULT_MODEL_PROVIDER_ID: &str = "openai";

/// The model provider requests go to: `model_provider = "ID"` resolved against the built-in
/// providers and `[model_providers.ID]` (a configured provider never replaces a built-in one, as
/// upstream's codex-rs/model-provider-info/src/lib.rs merges them), or this project's inline
/// `model_provider = { … }` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelProvider {
    pub id: String,
    pub name: Option<String>,
    /// `None`: the client's default (`$OPENAI_BASE_URL`, else the OpenAI API).
    pub base_url: Option<String>,
    /// Where the API key comes from.
    pub key: ProviderKey,
    /// Appended to every request URL, in this order.
    pub query_params: Vec<(String, String)>,
    /// Sent with every request as given.
    pub http_headers: Vec<(String, String)>,
    /// Header name and the environment variable holding its value; a header whose variable is
    /// unset or blank is not sent.
    pub env_http_headers: Vec<(String, String)>,
    /// Retry and timeout settings; `None` keeps the client's default.
    pub network: ProviderNetwork,
}

/// Where a provider's API key comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ProviderKey {
    /// The named environment variable (`env_key`); unset or blank is an error.
    Env(String),
    /// `OPENAI_API_KEY`: the built-in `openai` provider, one with `requires_openai_auth`, and
    /// this project's inline provider table.
    #[default]
    OpenAi,
    /// No key: requests carry no `Authorization` header.
    None,
}

/// The providers every configuration has, by id.
pub const BUILT_IN_MODEL_PROVIDERS: [&str; 3] = ["openai", "ollama", "lmstudio"];

/// How patient the client is with the provider ([`ModelProviderTable`]'s retry and timeout
/// keys); `None` keeps the client's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProviderNetwork {
    pub request_max_retries: Option<u32>,
    pub stream_max_retries: Option<u32>,
    pub stream_idle_timeout: Option<Duration>,
    pub connect_timeout: Option<Duration>,
    pub first_byte_timeout: Option<Duration>,
    pub models_timeout: Option<Duration>,
}

/// Upstream's cap on both retry counts.
pub const MAX_PROVIDER_RETRIES: u32 = 100;

/// Where a resolved setting came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SettingSource {
    /// Nothing set it: the default applies.
    #[default]
    Default,
    /// config.toml, a `-c` override or a command-line flag set it.
    Configured,
}

/// Fully resolved configuration: defaults applied, paths absolute.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub codex_home: PathBuf,
    /// The config file consulted (it may not exist).
    pub config_path: PathBuf,
    /// Working directory, absolute and lexically normalized (symlinks kept).
    pub cwd: PathBuf,
    /// `None`: let the model catalog pick its default.
    pub model: Option<String>,
    pub model_provider: ModelProvider,
    /// The personality config.toml, `-c` or a flag set; `None`: none configured. A session
    /// runs with [`Config::effective_personality`], which fills in the default.
    pub personality: Option<Personality>,
    pub sandbox_mode: SandboxMode,
    /// Whether `sandbox_mode` was set (config.toml, `-c`, a flag) or is the default.
    pub sandbox_mode_source: SettingSource,
    /// `[sandbox_workspace_write]`, applied while `sandbox_mode` is `workspace-write`
    /// ([`Config::sandbox_policy`]).
    pub sandbox_workspace_write: SandboxWorkspaceWrite,
    /// The permission profile `default_permissions` selected; it decides the sandbox policy
    /// (and `sandbox_mode` is its mode). `None`: the legacy sandbox settings apply.
    pub permission_profile: Option<PermissionProfile>,
    pub approval_policy: AskForApproval,
    /// Contents of `model_instructions_file` when set, else `base_instructions`.
    pub base_instructions: Option<String>,
    pub model_instructions_file: Option<PathBuf>,
    pub developer_instructions: Option<String>,
    pub model_catalog: Option<PathBuf>,
    /// `remote_models`: a `/models` response whose entries join the catalog in use.
    pub remote_models: Option<PathBuf>,
    pub project_doc_max_bytes: usize,
    pub project_doc_fallback_filenames: Vec<String>,
    pub project_root_markers: Vec<String>,
    /// The `[projects]` entry of the cwd (or of its git repository's root) and its trust.
    pub active_project: ActiveProject,
    pub model_reasoning_effort: Option<ReasoningEffort>,
    pub model_reasoning_summary: Option<ReasoningSummary>,
    pub model_verbosity: Option<Verbosity>,
    /// `model_auto_compact_token_limit`: replaces the model's own compaction limit.
    pub model_auto_compact_token_limit: Option<i64>,
    pub features: Features,
    /// The enabled [`BETA_HEADER_FEATURES`](crate::BETA_HEADER_FEATURES), comma-separated, for
    /// the `x-codex-beta-features` header; `None` when none is enabled.
    pub beta_features: Option<String>,
    /// `YYYY-MM-DD`, pinned or today in `timezone`.
    pub current_date: String,
    /// IANA zone name, pinned or from `$TZ` / the system.
    pub timezone: String,
    /// Shell name, pinned or from `$SHELL`.
    pub shell: String,
    /// `show_raw_agent_reasoning`: whether raw reasoning entries get their own event lines.
    pub show_raw_agent_reasoning: bool,
    /// `history_mode`: how a new thread's rollout records its turns (legacy by default).
    pub history_mode: HistoryMode,
    pub seed: Option<u64>,
    pub collaboration_mode: ModeKind,
    /// `collaboration_mode_instructions`: the mode's developer instructions, when set.
    pub collaboration_mode_instructions: Option<String>,
    pub realtime: bool,
    /// Seconds the clock must advance between current-time reminders; `None`: no reminders
    /// unless a turn asks for one.
    pub current_time_reminder_interval: Option<u64>,
    /// `[skills]`: the skills extension, when installed (by the host or the table).
    pub skills: Option<SkillsConfig>,
    /// HOME, where `~/.agents/skills` is looked for.
    pub home_dir: Option<PathBuf>,
    /// Which extensions the session's host installs unasked.
    pub extension_host: ExtensionHost,
    /// The upstream release whose behaviour the session reproduces (`codex_version`,
    /// `--codex-version`; default [`DEFAULT_RELEASE`]).
    pub release: CodexRelease,
    /// `[analytics] enabled` (upstream's default: enabled).
    pub analytics_enabled: bool,
    /// `[agents] max_depth`: how deep sub-agents may nest (upstream's default: 1, so a
    /// sub-agent spawns none of its own).
    pub agent_max_depth: u32,
    /// The thread's execution environments, the primary first (`environments`; default one
    /// `local` environment in `cwd`); empty for a thread without any.
    pub environments: Vec<SelectedEnvironment>,
    /// `[[turn_input_contributors]]`, in the order configured.
    pub turn_input_contributors: Vec<TurnInputContributor>,
    pub warnings: Vec<ConfigWarning>,
}

/// `[agents] max_depth` when unset (upstream's `DEFAULT_AGENT_MAX_DEPTH`).
pub const DEFAULT_AGENT_MAX_DEPTH: u32 = 1;

/// The release a session of the command-line tool reproduces when nothing names one: the latest
/// supported (a library session defaults to the reference commit's release, see
/// [`ExtensionHost::default_release`]).
pub const DEFAULT_RELEASE: CodexRelease = CodexRelease::LATEST;

impl Config {
    /// Loads configuration for the given flags, `-c` overrides and environment.
    pub fn load(
        flags: &ConfigOverrides,
        cli_overrides: &[CliOverride],
        env: &ConfigEnv,
    ) -> Result<Config, ConfigError> {
        let process_dir = env.current_dir.as_deref();
        let codex_home = flags
            .codex_home
            .clone()
            .or_else(|| env.codex_home.clone())
            .or_else(|| {
                env.home_dir
                    .as_ref()
                    .map(|home| home.join(DEFAULT_CODEX_HOME_DIR))
            })
            .map(|home| absolute(home, process_dir))
            .ok_or(ConfigError::NoCodexHome)?;
        let config_path = codex_home.join(CONFIG_TOML_FILE);

        let mut warnings = Vec::new();
        let read = match flags.config_file {
            ConfigFile::Read => codex_utils_fs::read_regular_to_string(&config_path),
            ConfigFile::Ignored => Ok(String::new()),
        };
        let text = match read {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => String::new(),
            Err(source) => {
                return Err(ConfigError::ReadFile {
                    path: config_path,
                    source,
                });
            }
        };
        let file = toml_layer::parse_file_layer(&config_path, &text, &mut warnings)?;
        let mut file_layer = file.toml;
        file_layer.resolve_paths(Some(&codex_home));
        let (mut cli_layer, cli_raw) = overrides::cli_layer(cli_overrides, &mut warnings)?;
        cli_layer.resolve_paths(process_dir);
        let mut flag_layer = flags.to_layer();
        flag_layer.resolve_paths(process_dir);
        for key in flags.features.keys() {
            if config_key_status(&["features", key]) == KeyStatus::Unknown {
                warnings.push(ConfigWarning::UnknownFeature {
                    origin: ConfigOrigin::Flag {
                        key: "features".to_string(),
                    },
                    key: key.clone(),
                });
            }
        }

        // Which layer set a key, for messages about its value.
        let origin_of = |key: &str, set_by_flag: bool, set_by_cli: bool| {
            if set_by_flag {
                ConfigOrigin::Flag {
                    key: key.to_string(),
                }
            } else if set_by_cli {
                ConfigOrigin::CliOverride(cli_raw.get(key).cloned().unwrap_or_default())
            } else {
                ConfigOrigin::File {
                    path: config_path.clone(),
                    line: file.key_lines.get(key).copied(),
                }
            }
        };
        let date_origin = origin_of(
            "current_date",
            flag_layer.current_date.is_some(),
            cli_layer.current_date.is_some(),
        );
        let timezone_origin = origin_of(
            "timezone",
            flag_layer.timezone.is_some(),
            cli_layer.timezone.is_some(),
        );
        let environments_origin = origin_of(
            "environments",
            flag_layer.environments.is_some(),
            cli_layer.environments.is_some(),
        );
        let contributors_origin = origin_of(
            "turn_input_contributors",
            flag_layer.turn_input_contributors.is_some(),
            cli_layer.turn_input_contributors.is_some(),
        );
        let provider_origin = origin_of(
            "model_provider",
            flag_layer.model_provider.is_some(),
            cli_layer.model_provider.is_some(),
        );
        let permissions_origin = origin_of(
            "default_permissions",
            flag_layer.default_permissions.is_some(),
            cli_layer.default_permissions.is_some(),
        );
        let merged = file_layer.overlay(cli_layer).overlay(flag_layer);

        let cwd = merged
            .cwd
            .clone()
            .or_else(|| env.current_dir.clone())
            .ok_or(ConfigError::NoWorkingDirectory)?;
        let cwd = lexically_normalized(&absolute(cwd, process_dir));

        let active_project = ActiveProject::resolve(
            merged.projects.as_ref().unwrap_or(&Default::default()),
            &cwd,
        );

        let pinned_date = merged.current_date.clone();
        if let Some(date) = &pinned_date {
            // Only the canonical spelling is accepted, so the model sees
            // exactly what a computed date would look like.
            let canonical = date
                .parse::<jiff::civil::Date>()
                .ok()
                .map(|parsed| parsed.to_string());
            if canonical.as_deref() != Some(date.as_str()) {
                return Err(ConfigError::InvalidValue {
                    origin: date_origin,
                    key: "current_date".to_string(),
                    message: format!("`{date}` is not a date in YYYY-MM-DD form"),
                });
            }
        }
        let pinned_timezone = merged.timezone.clone();
        let timezone = env.resolve_timezone(pinned_timezone.clone());
        let current_date = match pinned_date {
            Some(date) => date,
            None => {
                if pinned_timezone.is_some() && jiff::tz::TimeZone::get(&timezone).is_err() {
                    return Err(ConfigError::InvalidValue {
                        origin: timezone_origin,
                        key: "timezone".to_string(),
                        message: format!(
                            "`{timezone}` is not in the time zone database (pin current_date to use it anyway)"
                        ),
                    });
                }
                env.today_in(&timezone, &mut warnings)
            }
        };

        let base_instructions =
            match &merged.model_instructions_file {
                Some(path) => Some(codex_utils_fs::read_regular_to_string(path).map_err(
                    |source| ConfigError::ReferencedFile {
                        key: "model_instructions_file".to_string(),
                        path: path.clone(),
                        source,
                    },
                )?),
                None => merged.base_instructions.clone(),
            };
        let beta_features = crate::features::BETA_HEADER_FEATURES
            .iter()
            .filter(|(key, default)| {
                merged
                    .features
                    .as_ref()
                    .and_then(|features| features.get(*key))
                    .copied()
                    .unwrap_or(*default)
            })
            .map(|(key, _)| *key)
            .collect::<Vec<_>>()
            .join(",");
        let beta_features = (!beta_features.is_empty()).then_some(beta_features);
        let mut features = Features::default();
        for (key, enabled) in merged.features.iter().flatten() {
            if let Some(feature) = Feature::from_key(key) {
                features.set(feature, *enabled);
            }
        }

        let sandbox_workspace_write = merged.sandbox_workspace_write.unwrap_or_default().resolve();
        let permission_profile = merged
            .default_permissions
            .as_deref()
            .map(|name| {
                resolve_permission_profile(
                    name,
                    merged.permissions.as_ref().unwrap_or(&Default::default()),
                    &sandbox_workspace_write,
                    &cwd,
                )
            })
            .transpose()
            .map_err(|error| ConfigError::InvalidValue {
                origin: permissions_origin,
                key: "default_permissions".to_string(),
                message: error.to_string(),
            })?;
        let shell = env.resolve_shell(merged.shell);
        let environments = SelectedEnvironment::resolve(merged.environments, &cwd, &shell)
            .map_err(|message| ConfigError::InvalidValue {
                origin: environments_origin,
                key: "environments".to_string(),
                message,
            })?;
        let turn_input_contributors = merged.turn_input_contributors.unwrap_or_default();
        TurnInputContributor::check_all(&turn_input_contributors).map_err(|message| {
            ConfigError::InvalidValue {
                origin: contributors_origin,
                key: "turn_input_contributors".to_string(),
                message,
            }
        })?;

        Ok(Config {
            config_path,
            cwd,
            model: merged.model,
            model_provider: ModelProvider::resolve(
                merged.model_provider,
                merged.model_providers.unwrap_or_default(),
                merged.openai_base_url,
                &provider_origin,
            )?,
            personality: merged.personality,
            sandbox_mode: match &permission_profile {
                Some(profile) => profile.sandbox_mode(),
                None => merged
                    .sandbox_mode
                    .unwrap_or_else(|| active_project.default_sandbox_mode()),
            },
            sandbox_mode_source: match (&permission_profile, merged.sandbox_mode) {
                (Some(_), _) | (None, Some(_)) => SettingSource::Configured,
                (None, None) => SettingSource::Default,
            },
            sandbox_workspace_write,
            permission_profile,
            approval_policy: merged
                .approval_policy
                .unwrap_or_else(|| active_project.default_approval_policy()),
            base_instructions,
            model_instructions_file: merged.model_instructions_file,
            developer_instructions: merged.developer_instructions,
            model_catalog: merged.model_catalog,
            remote_models: merged.remote_models,
            project_doc_max_bytes: merged
                .project_doc_max_bytes
                .unwrap_or(DEFAULT_PROJECT_DOC_MAX_BYTES),
            project_doc_fallback_filenames: merged
                .project_doc_fallback_filenames
                .unwrap_or_default(),
            project_root_markers: match merged.project_root_markers {
                Some(ProjectRootMarkersToml::Markers(markers)) => markers,
                Some(ProjectRootMarkersToml::Invalid(_)) | None => {
                    vec![DEFAULT_PROJECT_ROOT_MARKER.to_string()]
                }
            },
            active_project,
            model_reasoning_effort: merged.model_reasoning_effort,
            model_reasoning_summary: merged.model_reasoning_summary,
            model_verbosity: merged.model_verbosity,
            model_auto_compact_token_limit: merged.model_auto_compact_token_limit,
            features,
            beta_features,
            current_date,
            timezone,
            shell,
            show_raw_agent_reasoning: merged.show_raw_agent_reasoning.unwrap_or(false),
            history_mode: merged.history_mode.unwrap_or_default(),
            seed: merged.seed,
            collaboration_mode: merged.collaboration_mode.unwrap_or_default(),
            collaboration_mode_instructions: merged.collaboration_mode_instructions,
            realtime: merged.realtime.unwrap_or(false),
            current_time_reminder_interval: merged.current_time_reminder_interval,
            skills: SkillsConfig::installed(merged.skills, flags.extension_host),
            home_dir: env.home_dir.clone(),
            extension_host: flags.extension_host,
            release: merged
                .codex_version
                .unwrap_or(flags.extension_host.default_release()),
            agent_max_depth: merged
                .agents
                .as_ref()
                .and_then(|agents| agents.max_depth)
                .unwrap_or(DEFAULT_AGENT_MAX_DEPTH),
            analytics_enabled: merged
                .analytics
                .as_ref()
                .and_then(|analytics| analytics.enabled)
                .unwrap_or(true),
            environments,
            turn_input_contributors,
            warnings,
            codex_home,
        })
    }

    /// The personality a session runs with: the configured one, else `pragmatic` while the
    /// `personality` feature is enabled (upstream's default, so an unconfigured session gets the
    /// pragmatic text rather than the catalog's empty default), else `None`.
    ///
    /// `Some(Personality::None)` is an explicit choice of no personality text; `None` means "no
    /// preference" and renders the model's default text. With the feature disabled a configured
    /// value is still returned (upstream records it in the turn context), but the model's
    /// instructions ignore it then.
    pub fn effective_personality(&self) -> Option<Personality> {
        self.personality.or_else(|| {
            self.features
                .enabled(Feature::Personality)
                .then_some(Personality::Pragmatic)
        })
    }

    /// The AGENTS.md options this configuration asks for.
    pub fn project_doc_options(&self) -> ProjectDocOptions {
        ProjectDocOptions {
            max_bytes: self.project_doc_max_bytes,
            fallback_filenames: self.project_doc_fallback_filenames.clone(),
            project_root_markers: self.project_root_markers.clone(),
            denied_reads: self.denied_reads().to_vec(),
        }
    }

    /// Skills discovery for this session's cwd, with the CODEX_HOME roots of `codex_home`
    /// (none when `None`); `None` when the skills extension is not installed. The
    /// administrator's folder is looked at only under the CLI's host.
    pub fn skills_discovery_request(
        &self,
        codex_home: Option<PathBuf>,
    ) -> Option<SkillsDiscoveryRequest> {
        let skills = self.skills.as_ref()?;
        Some(SkillsDiscoveryRequest {
            codex_home,
            home_dir: self.home_dir.clone(),
            cwd: self.cwd.clone(),
            project_root_markers: self.project_root_markers.clone(),
            admin_dir: match self.extension_host {
                ExtensionHost::Cli => Some(PathBuf::from(ADMIN_CONFIG_DIR)),
                ExtensionHost::Library => None,
            },
            bundled: skills.bundled,
        })
    }

    /// AGENTS.md discovery for this session's environments and CODEX_HOME, with the
    /// hierarchical guidance text when `child_agents_md` is enabled; an untrusted
    /// project's docs are skipped, and so are the docs of an environment whose working
    /// directory is not on this host (a thread without environments reads only the global docs).
    pub fn agents_md_request(&self, hierarchical_guidance: &str) -> AgentsMdRequest {
        let environments = self
            .environments
            .iter()
            .enumerate()
            .filter_map(|(position, environment)| {
                Some(AgentsMdEnvironment {
                    id: environment.id.clone(),
                    cwd: environment.cwd.native()?.to_path_buf(),
                    role: match position {
                        0 => EnvironmentRole::Primary,
                        _ => EnvironmentRole::Secondary,
                    },
                })
            })
            .collect();
        AgentsMdRequest {
            environments,
            options: self.project_doc_options(),
            project_docs: self.active_project.project_docs(),
            internal_guidance: self
                .features
                .enabled(Feature::ChildAgentsMd)
                .then(|| hierarchical_guidance.to_string()),
            ..AgentsMdRequest::for_cwd(Some(self.codex_home.clone()), &self.cwd)
        }
    }
}

/// Checks that `path` is a directory a session can run in (symlinks followed). Loading
/// configuration does not check its `cwd`: callers that run a session do.
pub fn check_working_directory(path: &Path) -> Result<(), WorkingDirectoryError> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(WorkingDirectoryError::NotADirectory(path.to_path_buf())),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            Err(WorkingDirectoryError::Missing(path.to_path_buf()))
        }
        // `/etc/passwd/sub`: a component of the path is a file.
        Err(error) if error.kind() == io::ErrorKind::NotADirectory => {
            Err(WorkingDirectoryError::NotADirectory(path.to_path_buf()))
        }
        Err(source) => Err(WorkingDirectoryError::Unreadable {
            path: path.to_path_buf(),
            source,
        }),
    }
}

impl ModelProvider {
    /// The provider `selected` names (default `openai`), with its settings.
    fn resolve(
        selected: Option<ModelProviderToml>,
        mut configured: std::collections::BTreeMap<String, ModelProviderTable>,
        openai_base_url: Option<String>,
        origin: &ConfigOrigin,
    ) -> Result<Self, ConfigError> {
        let id = match selected {
            Some(ModelProviderToml::Table(table)) => {
                let id = table
                    .id
                    .clone()
                    .unwrap_or_else(|| DEFAULT_MODEL_PROVIDER_ID.to_string());
                return Self::from_table(id, *table, ProviderKey::OpenAi, origin);
            }
            Some(ModelProviderToml::Id(id)) => id,
            None => DEFAULT_MODEL_PROVIDER_ID.to_string(),
        };
        let local = |port: u16| Self {
            id: id.clone(),
            name: Some("gpt-oss".to_string()),
            base_url: Some(format!("http://localhost:{port}/v1")),
            key: ProviderKey::None,
            ..Self::default()
        };
        match id.as_str() {
            "openai" => Ok(Self {
                id: id.clone(),
                name: Some("OpenAI".to_string()),
                base_url: openai_base_url,
                key: ProviderKey::OpenAi,
                http_headers: vec![("version".to_string(), env!("CARGO_PKG_VERSION").to_string())],
                env_http_headers: vec![
                    (
                        "OpenAI-Organization".to_string(),
                        "OPENAI_ORGANIZATION".to_string(),
                    ),
                    ("OpenAI-Project".to_string(), "OPENAI_PROJECT".to_string()),
                ],
                ..Self::default()
            }),
            "ollama" => Ok(local(11434)),
            "lmstudio" => Ok(local(1234)),
            _ => match configured.remove(&id) {
                Some(table) => Self::from_table(id, table, ProviderKey::None, origin),
                None => Err(ConfigError::InvalidValue {
                    origin: origin.clone(),
                    key: "model_provider".to_string(),
                    message: format!(
                        "no provider `{id}`: define it under [model_providers.{id}] or choose one of {}",
                        BUILT_IN_MODEL_PROVIDERS.join(", ")
                    ),
                }),
            },
        }
    }

    /// A provider from its table; `no_env_key` is where the key comes from without `env_key`
    /// and `requires_openai_auth`.
    fn from_table(
        id: String,
        table: ModelProviderTable,
        no_env_key: ProviderKey,
        origin: &ConfigOrigin,
    ) -> Result<Self, ConfigError> {
        let network = ProviderNetwork::from_table(&table, origin)?;
        let key = match (table.env_key, table.requires_openai_auth) {
            (Some(env_key), _) => ProviderKey::Env(env_key),
            (None, Some(true)) => ProviderKey::OpenAi,
            (None, Some(false) | None) => no_env_key,
        };
        let pairs = |map: Option<std::collections::BTreeMap<String, String>>| {
            map.unwrap_or_default().into_iter().collect::<Vec<_>>()
        };
        Ok(Self {
            id,
            name: table.name,
            base_url: table.base_url,
            key,
            query_params: pairs(table.query_params),
            http_headers: pairs(table.http_headers),
            env_http_headers: pairs(table.env_http_headers),
            network,
        })
    }
}

impl ProviderNetwork {
    /// The table's settings; retry counts are capped at [`MAX_PROVIDER_RETRIES`] as upstream
    /// caps them, and a zero timeout is an error naming the key.
    fn from_table(table: &ModelProviderTable, origin: &ConfigOrigin) -> Result<Self, ConfigError> {
        let timeout = |key: &str, millis: Option<u64>| match millis {
            Some(0) => Err(ConfigError::InvalidValue {
                origin: origin.clone(),
                key: format!("model_provider.{key}"),
                message: "a timeout must be at least 1 ms".to_string(),
            }),
            millis => Ok(millis.map(Duration::from_millis)),
        };
        let retries = |count: Option<u32>| count.map(|count| count.min(MAX_PROVIDER_RETRIES));
        Ok(Self {
            request_max_retries: retries(table.request_max_retries),
            stream_max_retries: retries(table.stream_max_retries),
            stream_idle_timeout: timeout("stream_idle_timeout_ms", table.stream_idle_timeout_ms)?,
            connect_timeout: timeout("connect_timeout_ms", table.connect_timeout_ms)?,
            first_byte_timeout: timeout("first_byte_timeout_ms", table.first_byte_timeout_ms)?,
            models_timeout: timeout("models_timeout_ms", table.models_timeout_ms)?,
        })
    }
}

fn absolute(path: PathBuf, base: Option<&Path>) -> PathBuf {
    match base {
        Some(base) if path.is_relative() => base.join(path),
        Some(_) | None => path,
    }
}
