//! What a session is configured with, read only from the file system and the process
//! environment: `$CODEX_HOME/config.toml`, `-c key=value` overrides and dedicated flags resolved
//! into one [`Config`], the AGENTS.md files that apply to its working directory
//! ([`discover_agents_md`]) and the skills on disk ([`discover_skills`]).

mod agents_md;
mod config;
mod environment;
mod environments;
mod error;
mod features;
mod known_keys;
mod overrides;
mod permission_profiles;
mod projects;
mod sandbox_workspace_write;
mod skills;
mod surface;
mod toml_layer;

// The resolved configuration and the provider it names.
pub use config::BUILT_IN_MODEL_PROVIDERS;
pub use config::CONFIG_TOML_FILE;
pub use config::Config;
pub use config::DEFAULT_AGENT_MAX_DEPTH;
pub use config::DEFAULT_CODEX_HOME_DIR;
pub use config::DEFAULT_MODEL_PROVIDER_ID;
pub use config::DEFAULT_RELEASE;
pub use config::MAX_PROVIDER_RETRIES;
pub use config::ModelProvider;
pub use config::ProviderKey;
pub use config::ProviderNetwork;
pub use config::SettingSource;
pub use config::check_working_directory;

// The layers a `Config` is loaded from: the process environment, `config.toml`'s keys, `-c`
// overrides and flags.
pub use environment::ConfigEnv;
pub use environment::DEFAULT_SHELL;
pub use environment::DEFAULT_TIMEZONE;
pub use environments::EnvironmentPath;
pub use environments::EnvironmentToml;
pub use environments::LOCAL_ENVIRONMENT_ID;
pub use environments::SelectedEnvironment;
pub use environments::TurnInputContributor;
pub use overrides::CliOverride;
pub use overrides::ConfigFile;
pub use overrides::ConfigOverrides;
pub use permission_profiles::BUILT_IN_DANGER_FULL_ACCESS;
pub use permission_profiles::BUILT_IN_READ_ONLY;
pub use permission_profiles::BUILT_IN_WORKSPACE;
pub use permission_profiles::FileSystemAccessMode;
pub use permission_profiles::FilesystemPermissionToml;
pub use permission_profiles::PermissionProfile;
pub use permission_profiles::PermissionProfileError;
pub use permission_profiles::PermissionProfileToml;
pub use permission_profiles::ProfileNetworkToml;
pub use permission_profiles::resolve_permission_profile;
pub use projects::ActiveProject;
pub use projects::ProjectDocsPolicy;
pub use projects::ProjectToml;
pub use sandbox_workspace_write::SandboxWorkspaceWrite;
pub use sandbox_workspace_write::SandboxWorkspaceWriteToml;
pub use toml_layer::AgentsToml;
pub use toml_layer::AnalyticsToml;
pub use toml_layer::ConfigToml;
pub use toml_layer::KNOWN_KEYS;
pub use toml_layer::ModelProviderTable;
pub use toml_layer::ModelProviderToml;
pub use toml_layer::ProjectRootMarkersToml;
pub use toml_layer::WireApi;

// Every valid config.toml key path (upstream's schema and this project's own keys) and what this
// project does with it; a key the table does not know draws a warning.
pub use known_keys::KeyStatus;
pub use known_keys::KeyUse;
pub use known_keys::KnownKey;
pub use known_keys::config_key_status;
pub use known_keys::known_config_keys;

// Why loading failed, where a value came from, and what was ignored with a warning.
pub use error::ConfigError;
pub use error::ConfigOrigin;
pub use error::ConfigWarning;
pub use error::WorkingDirectoryError;

// Feature flags (`[features]`).
pub use features::BETA_HEADER_FEATURES;
pub use features::Feature;
pub use features::Features;

// The skills extension's settings (`[skills]`) and the skills it discovers on disk.
pub use skills::ADMIN_CONFIG_DIR;
pub use skills::BundledSkills;
pub use skills::BundledSkillsToml;
pub use skills::DiscoveredSkill;
pub use skills::ExtensionHost;
pub use skills::Invocation;
pub use skills::MAX_DIRS_PER_ROOT;
pub use skills::MAX_ENTRIES_PER_ROOT;
pub use skills::MAX_NAME_CHARS;
pub use skills::MAX_SCAN_DEPTH;
pub use skills::OrchestratorSkills;
pub use skills::SKILL_FILE;
pub use skills::SkillFrontMatter;
pub use skills::SkillFrontMatterError;
pub use skills::SkillLoadError;
pub use skills::SkillScope;
pub use skills::SkillToml;
pub use skills::SkillsConfig;
pub use skills::SkillsDiscovery;
pub use skills::SkillsDiscoveryRequest;
pub use skills::SkillsToml;
pub use skills::SystemSkills;
pub use skills::discover_skills;
pub use skills::parse_skill_front_matter;

// The front end a thread runs under.
pub use surface::Surface;

// AGENTS.md discovery: what to look for, the file system it looks in, and what it found.
pub use agents_md::AGENTS_MD_SEPARATOR;
pub use agents_md::AgentsMdDiscovery;
pub use agents_md::AgentsMdEnvironment;
pub use agents_md::AgentsMdError;
pub use agents_md::AgentsMdFileSystem;
pub use agents_md::AgentsMdRequest;
pub use agents_md::AgentsMdWarning;
pub use agents_md::DEFAULT_AGENTS_MD_FILENAME;
pub use agents_md::DEFAULT_PROJECT_DOC_MAX_BYTES;
pub use agents_md::DEFAULT_PROJECT_ROOT_MARKER;
pub use agents_md::EntryKind;
pub use agents_md::EnvironmentRole;
pub use agents_md::GlobalInstructions;
pub use agents_md::InstructionScope;
pub use agents_md::LOCAL_AGENTS_MD_FILENAME;
pub use agents_md::LocalFileSystem;
pub use agents_md::MAX_CONCURRENT_ANCESTOR_PROBES;
pub use agents_md::ProjectDoc;
pub use agents_md::ProjectDocOptions;
pub use agents_md::agents_md_paths;
pub use agents_md::discover_agents_md;
pub use agents_md::discover_agents_md_blocking;
pub use agents_md::load_global_instructions;
pub use agents_md::read_project_docs;
