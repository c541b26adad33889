//! The raw `config.toml` shape and how one layer of it is parsed and checked.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::AskForApproval;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::ReasoningEffort;
use codex_protocol::ReasoningSummary;
use codex_protocol::SandboxMode;
use codex_protocol::Verbosity;
use codex_protocol::rollout::HistoryMode;
use codex_release::CodexRelease;
use serde::Deserialize;
use serde::Serialize;

use super::ConfigError;
use super::ConfigOrigin;
use super::ConfigWarning;
use super::SkillsToml;
use crate::agents_md::lexically_normalized;
use crate::environments::EnvironmentToml;
use crate::environments::TurnInputContributor;
use crate::known_keys::KeyStatus;
use crate::known_keys::config_key_has_children;
use crate::known_keys::config_key_status;
use crate::permission_profiles::PermissionProfileToml;
use crate::projects::ProjectToml;
use crate::sandbox_workspace_write::SandboxWorkspaceWriteToml;

/// Every top-level key [`ConfigToml`] has a field for. Which keys are valid at all (upstream's
/// too) is the table of [`config_key_status`](crate::config_key_status).
pub const KNOWN_KEYS: &[&str] = &[
    "agents",
    "analytics",
    "approval_policy",
    "base_instructions",
    "codex_version",
    "collaboration_mode",
    "collaboration_mode_instructions",
    "current_time_reminder_interval",
    "current_date",
    "cwd",
    "default_permissions",
    "developer_instructions",
    "environments",
    "features",
    "history_mode",
    "model",
    "model_auto_compact_token_limit",
    "model_catalog",
    "model_instructions_file",
    "model_provider",
    "model_providers",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "openai_base_url",
    "permissions",
    "personality",
    "project_doc_fallback_filenames",
    "project_doc_max_bytes",
    "project_root_markers",
    "projects",
    "realtime",
    "remote_models",
    "sandbox_mode",
    "sandbox_workspace_write",
    "seed",
    "shell",
    "show_raw_agent_reasoning",
    "skills",
    "timezone",
    "turn_input_contributors",
];

/// One layer of configuration as written (config.toml, `-c` overrides or
/// flags). `None` means "not set here".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConfigToml {
    pub model: Option<String>,
    pub model_provider: Option<ModelProviderToml>,
    /// `[model_providers.ID]`: providers `model_provider = "ID"` can name.
    pub model_providers: Option<BTreeMap<String, ModelProviderTable>>,
    /// The built-in `openai` provider's base URL.
    pub openai_base_url: Option<String>,
    pub personality: Option<Personality>,
    pub sandbox_mode: Option<SandboxMode>,
    /// `[sandbox_workspace_write]`: what a `workspace-write` sandbox grants.
    pub sandbox_workspace_write: Option<SandboxWorkspaceWriteToml>,
    /// The permission profile to run under: a built-in (`:read-only`, `:workspace`,
    /// `:danger-full-access`) or a `[permissions.NAME]` table; it replaces `sandbox_mode`.
    pub default_permissions: Option<String>,
    /// `[permissions.NAME]`: named permission profiles.
    pub permissions: Option<BTreeMap<String, PermissionProfileToml>>,
    #[serde(deserialize_with = "approval_policy")]
    pub approval_policy: Option<AskForApproval>,
    pub base_instructions: Option<String>,
    pub model_instructions_file: Option<PathBuf>,
    pub developer_instructions: Option<String>,
    pub model_catalog: Option<PathBuf>,
    /// A `/models` response (`{"models": [...]}`) the provider serves: its entries join the
    /// catalog in use, replacing entries of the same slug.
    pub remote_models: Option<PathBuf>,
    pub project_doc_max_bytes: Option<usize>,
    pub project_doc_fallback_filenames: Option<Vec<String>>,
    pub project_root_markers: Option<ProjectRootMarkersToml>,
    /// `[projects."PATH"]`: trust decisions by project path.
    pub projects: Option<BTreeMap<String, ProjectToml>>,
    pub model_reasoning_effort: Option<ReasoningEffort>,
    pub model_reasoning_summary: Option<ReasoningSummary>,
    pub model_verbosity: Option<Verbosity>,
    /// Total tokens after which a turn compacts its history (beats the model's own limit).
    pub model_auto_compact_token_limit: Option<i64>,
    #[serde(deserialize_with = "feature_toggles")]
    pub features: Option<BTreeMap<String, bool>>,
    /// Pinned `YYYY-MM-DD`.
    pub current_date: Option<String>,
    /// Pinned IANA time zone name.
    pub timezone: Option<String>,
    /// Pinned shell name.
    pub shell: Option<String>,
    /// Whether the model's raw reasoning text is shown, which also records an
    /// `agent_reasoning_raw_content` event for each raw reasoning entry.
    pub show_raw_agent_reasoning: Option<bool>,
    /// How a new thread's rollout records its turns (`legacy`, `paginated`); upstream picks
    /// it when a thread starts (`thread/start`'s `historyMode`), this project as a setting.
    pub history_mode: Option<HistoryMode>,
    pub seed: Option<u64>,
    pub cwd: Option<PathBuf>,
    pub collaboration_mode: Option<ModeKind>,
    /// The developer instructions the collaboration mode carries, in place of this project's
    /// text for the mode (upstream's clients send them with the mode); empty sends none.
    pub collaboration_mode_instructions: Option<String>,
    /// This project's switch; upstream's `[realtime]` table (websocket session settings) is
    /// accepted as "not set".
    #[serde(deserialize_with = "realtime_switch")]
    pub realtime: Option<bool>,
    /// Seconds between current-time reminders.
    pub current_time_reminder_interval: Option<u64>,
    /// The skills extension; absent means not installed.
    pub skills: Option<SkillsToml>,
    /// This project's key: the upstream release whose behaviour to reproduce (`0.149`, `0.171`).
    pub codex_version: Option<CodexRelease>,
    /// `[analytics]`: whether the client reports usage analytics (the turn metadata says so).
    pub analytics: Option<AnalyticsToml>,
    /// This project's key: the thread's execution environments (`[[environments]]`); `[]` is
    /// a thread without any. A higher layer's list replaces a lower one's.
    pub environments: Option<Vec<EnvironmentToml>>,
    /// This project's key: turn-input contributors (`[[turn_input_contributors]]`). A higher
    /// layer's list replaces a lower one's.
    pub turn_input_contributors: Option<Vec<TurnInputContributor>>,
    /// `[agents]`: sub-agents a thread spawns (`spawn_agent`); the other keys of the table
    /// are accepted and do nothing.
    pub agents: Option<AgentsToml>,
}

/// `[agents]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentsToml {
    /// How deep sub-agents may nest: a thread at depth `max_depth` (the root thread is at 0)
    /// is offered no multi-agent tools.
    pub max_depth: Option<u32>,
}

/// `[analytics]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnalyticsToml {
    pub enabled: Option<bool>,
}

/// `approval_policy`: a policy name, read as [`AskForApproval`]'s `FromStr` reads it (an unknown
/// name is an error listing the names `--approval` takes), or a `{ granular = { … } }` table.
/// `untrusted` is read too: recorded settings carry it; settings a user wrote are refused it
/// ([`AskForApproval::choosable`]) where they enter.
fn approval_policy<'de, D>(deserializer: D) -> Result<Option<AskForApproval>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct PolicyVisitor;

    impl<'de> serde::de::Visitor<'de> for PolicyVisitor {
        type Value = AskForApproval;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "an approval policy ({}) or a granular table",
                AskForApproval::choosable_names()
            )
        }

        fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Self::Value, E> {
            name.parse().map_err(E::custom)
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            AskForApproval::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }

    deserializer.deserialize_any(PolicyVisitor).map(Some)
}

/// `[features]`: each key `true`/`false`, or upstream's table form (`[features.NAME]` with an
/// optional `enabled` and settings this project ignores); a table without `enabled` sets nothing.
fn feature_toggles<'de, D>(deserializer: D) -> Result<Option<BTreeMap<String, bool>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    /// A key's value: `Some(enabled)`, or `None` for a table without `enabled`.
    struct Toggle(Option<bool>);

    impl<'de> Deserialize<'de> for Toggle {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct ToggleVisitor;

            impl<'de> serde::de::Visitor<'de> for ToggleVisitor {
                type Value = Toggle;

                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a boolean or a feature table")
                }

                fn visit_bool<E: serde::de::Error>(self, enabled: bool) -> Result<Toggle, E> {
                    Ok(Toggle(Some(enabled)))
                }

                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<Toggle, A::Error> {
                    let mut enabled = None;
                    while let Some(key) = map.next_key::<String>()? {
                        if key == "enabled" {
                            enabled = Some(map.next_value::<bool>()?);
                        } else {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                    Ok(Toggle(enabled))
                }
            }

            deserializer.deserialize_any(ToggleVisitor)
        }
    }

    let toggles = BTreeMap::<String, Toggle>::deserialize(deserializer)?;
    Ok(Some(
        toggles
            .into_iter()
            .filter_map(|(key, Toggle(enabled))| enabled.map(|enabled| (key, enabled)))
            .collect(),
    ))
}

/// `realtime = true|false`, or upstream's `[realtime]` table, read as "not set".
fn realtime_switch<'de, D>(deserializer: D) -> Result<Option<bool>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Realtime {
        Switch(bool),
        Upstream(toml::Table),
    }
    Ok(match Realtime::deserialize(deserializer)? {
        Realtime::Switch(enabled) => Some(enabled),
        Realtime::Upstream(_settings) => None,
    })
}

/// `model_provider = "id"` or `model_provider = { id = "…", base_url = "…" }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ModelProviderToml {
    Id(String),
    Table(Box<ModelProviderTable>),
}

/// A provider's settings: `[model_providers.ID]` (upstream's keys), or this project's inline
/// `model_provider = { id = "…", … }`. The connect, first-byte and models timeouts are this
/// project's own; the keys upstream has and this project does not act on are accepted and kept
/// as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelProviderTable {
    /// The provider's id (inline form only).
    pub id: Option<String>,
    pub name: Option<String>,
    pub base_url: Option<String>,
    /// Environment variable holding the API key.
    pub env_key: Option<String>,
    pub wire_api: Option<WireApi>,
    /// Appended to every request URL.
    pub query_params: Option<BTreeMap<String, String>>,
    /// Sent with every request as given.
    pub http_headers: Option<BTreeMap<String, String>>,
    /// Header name → environment variable; sent when the variable is set and not blank.
    pub env_http_headers: Option<BTreeMap<String, String>>,
    /// Whether the key comes from `OPENAI_API_KEY` when `env_key` is not set.
    pub requires_openai_auth: Option<bool>,
    /// Retries of a request that failed before its stream started.
    pub request_max_retries: Option<u32>,
    /// Resends of a request whose stream broke off.
    pub stream_max_retries: Option<u32>,
    /// Longest wait for more bytes of a started stream, in milliseconds.
    pub stream_idle_timeout_ms: Option<u64>,
    /// Longest wait for a connection, in milliseconds.
    pub connect_timeout_ms: Option<u64>,
    /// Longest wait for the response headers, and then for the first bytes of the stream, in
    /// milliseconds.
    pub first_byte_timeout_ms: Option<u64>,
    /// Longest wait of a `/models` call for its headers or more of its body, in milliseconds.
    pub models_timeout_ms: Option<u64>,
    pub env_key_instructions: Option<toml::Value>,
    pub experimental_bearer_token: Option<toml::Value>,
    pub auth: Option<toml::Value>,
    pub aws: Option<toml::Value>,
    pub supports_websockets: Option<toml::Value>,
    pub websocket_connect_timeout_ms: Option<toml::Value>,
    pub supports_standalone_web_search: Option<toml::Value>,
}

/// The wire protocol a provider speaks: upstream knows only the Responses API (`chat` was
/// removed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WireApi {
    #[default]
    Responses,
}

impl ModelProviderTable {
    /// `higher` wins per key; `[model_providers.ID]` tables of two layers merge.
    fn overlay(self, higher: ModelProviderTable) -> ModelProviderTable {
        let merged = match (toml::Value::try_from(&self), toml::Value::try_from(&higher)) {
            (Ok(toml::Value::Table(mut lower)), Ok(toml::Value::Table(upper))) => {
                lower.extend(upper);
                toml::Value::Table(lower).try_into().ok()
            }
            _ => None,
        };
        merged.unwrap_or(higher)
    }
}

/// Upstream tolerates a malformed `project_root_markers` (warning, default
/// used), so anything that is not an array of strings is kept as `Invalid`
/// instead of failing the whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProjectRootMarkersToml {
    Markers(Vec<String>),
    Invalid(toml::Value),
}

impl ConfigToml {
    /// `higher` wins wherever it sets a value; feature toggles merge per key.
    pub fn overlay(self, higher: ConfigToml) -> ConfigToml {
        let ConfigToml {
            model,
            model_provider,
            model_providers,
            openai_base_url,
            personality,
            sandbox_mode,
            sandbox_workspace_write,
            default_permissions,
            permissions,
            approval_policy,
            base_instructions,
            model_instructions_file,
            developer_instructions,
            model_catalog,
            remote_models,
            project_doc_max_bytes,
            project_doc_fallback_filenames,
            project_root_markers,
            projects,
            model_reasoning_effort,
            model_reasoning_summary,
            model_verbosity,
            model_auto_compact_token_limit,
            features,
            current_date,
            timezone,
            shell,
            show_raw_agent_reasoning,
            history_mode,
            seed,
            cwd,
            collaboration_mode,
            collaboration_mode_instructions,
            realtime,
            current_time_reminder_interval,
            skills,
            codex_version,
            analytics,
            agents,
            environments,
            turn_input_contributors,
        } = higher;
        let features = match (self.features, features) {
            (Some(mut lower), Some(higher)) => {
                lower.extend(higher);
                Some(lower)
            }
            (lower, higher) => higher.or(lower),
        };
        ConfigToml {
            model: model.or(self.model),
            model_provider: model_provider.or(self.model_provider),
            model_providers: match (self.model_providers, model_providers) {
                (Some(mut lower), Some(higher)) => {
                    for (id, provider) in higher {
                        let merged = match lower.remove(&id) {
                            Some(below) => below.overlay(provider),
                            None => provider,
                        };
                        lower.insert(id, merged);
                    }
                    Some(lower)
                }
                (lower, higher) => higher.or(lower),
            },
            openai_base_url: openai_base_url.or(self.openai_base_url),
            personality: personality.or(self.personality),
            sandbox_mode: sandbox_mode.or(self.sandbox_mode),
            sandbox_workspace_write: match (self.sandbox_workspace_write, sandbox_workspace_write) {
                (Some(lower), Some(higher)) => Some(lower.overlay(higher)),
                (lower, higher) => higher.or(lower),
            },
            default_permissions: default_permissions.or(self.default_permissions),
            permissions: match (self.permissions, permissions) {
                (Some(mut lower), Some(higher)) => {
                    for (name, profile) in higher {
                        let merged = match lower.remove(&name) {
                            Some(below) => below.overlay(profile),
                            None => profile,
                        };
                        lower.insert(name, merged);
                    }
                    Some(lower)
                }
                (lower, higher) => higher.or(lower),
            },
            approval_policy: approval_policy.or(self.approval_policy),
            base_instructions: base_instructions.or(self.base_instructions),
            model_instructions_file: model_instructions_file.or(self.model_instructions_file),
            developer_instructions: developer_instructions.or(self.developer_instructions),
            model_catalog: model_catalog.or(self.model_catalog),
            remote_models: remote_models.or(self.remote_models),
            project_doc_max_bytes: project_doc_max_bytes.or(self.project_doc_max_bytes),
            project_doc_fallback_filenames: project_doc_fallback_filenames
                .or(self.project_doc_fallback_filenames),
            project_root_markers: project_root_markers.or(self.project_root_markers),
            projects: match (self.projects, projects) {
                (Some(mut lower), Some(higher)) => {
                    for (key, project) in higher {
                        let merged = match lower.remove(&key) {
                            Some(below) => below.overlay(project),
                            None => project,
                        };
                        lower.insert(key, merged);
                    }
                    Some(lower)
                }
                (lower, higher) => higher.or(lower),
            },
            model_reasoning_effort: model_reasoning_effort.or(self.model_reasoning_effort),
            model_reasoning_summary: model_reasoning_summary.or(self.model_reasoning_summary),
            model_verbosity: model_verbosity.or(self.model_verbosity),
            model_auto_compact_token_limit: model_auto_compact_token_limit
                .or(self.model_auto_compact_token_limit),
            features,
            current_date: current_date.or(self.current_date),
            timezone: timezone.or(self.timezone),
            shell: shell.or(self.shell),
            show_raw_agent_reasoning: show_raw_agent_reasoning.or(self.show_raw_agent_reasoning),
            history_mode: history_mode.or(self.history_mode),
            seed: seed.or(self.seed),
            cwd: cwd.or(self.cwd),
            collaboration_mode: collaboration_mode.or(self.collaboration_mode),
            collaboration_mode_instructions: collaboration_mode_instructions
                .or(self.collaboration_mode_instructions),
            realtime: realtime.or(self.realtime),
            current_time_reminder_interval: current_time_reminder_interval
                .or(self.current_time_reminder_interval),
            codex_version: codex_version.or(self.codex_version),
            analytics: match (self.analytics, analytics) {
                (Some(lower), Some(higher)) => Some(AnalyticsToml {
                    enabled: higher.enabled.or(lower.enabled),
                }),
                (lower, higher) => higher.or(lower),
            },
            environments: environments.or(self.environments),
            turn_input_contributors: turn_input_contributors.or(self.turn_input_contributors),
            skills: match (self.skills, skills) {
                (Some(lower), Some(higher)) => Some(lower.overlay(higher)),
                (lower, higher) => higher.or(lower),
            },
            agents: match (self.agents, agents) {
                (Some(lower), Some(higher)) => Some(AgentsToml {
                    max_depth: higher.max_depth.or(lower.max_depth),
                }),
                (lower, higher) => higher.or(lower),
            },
        }
    }

    /// Makes the layer's relative paths absolute against `base` (the config
    /// file's directory, or the process cwd for command-line values).
    pub(crate) fn resolve_paths(&mut self, base: Option<&Path>) {
        let Some(base) = base else {
            return;
        };
        for path in [
            &mut self.model_instructions_file,
            &mut self.model_catalog,
            &mut self.remote_models,
            &mut self.cwd,
        ]
        .into_iter()
        .flatten()
        {
            if path.is_relative() {
                *path = base.join(&*path);
            }
        }
        if let Some(skills) = &mut self.skills {
            skills.resolve_paths(base);
        }
        for environment in self.environments.iter_mut().flatten() {
            environment.resolve_paths(base);
        }
        if let Some(workspace_write) = &mut self.sandbox_workspace_write {
            workspace_write.resolve_paths(base);
        }
        if let Some(projects) = self.projects.take() {
            // A relative project path names a folder under `base`, as other paths do.
            self.projects = Some(
                projects
                    .into_iter()
                    .map(|(key, project)| {
                        if Path::new(&key).is_relative() {
                            let path = lexically_normalized(&base.join(&key));
                            (path.to_string_lossy().into_owned(), project)
                        } else {
                            (key, project)
                        }
                    })
                    .collect(),
            );
        }
    }

    /// Replaces an invalid `project_root_markers` by "not set", with a warning.
    pub(crate) fn drop_invalid_markers(
        &mut self,
        origin: impl FnOnce() -> ConfigOrigin,
        warnings: &mut Vec<ConfigWarning>,
    ) {
        if let Some(ProjectRootMarkersToml::Invalid(_)) = self.project_root_markers {
            self.project_root_markers = None;
            warnings.push(ConfigWarning::InvalidProjectRootMarkers { origin: origin() });
        }
    }
}

/// A parsed config file: its values and the line of every top-level key.
pub(crate) struct FileLayer {
    pub toml: ConfigToml,
    pub key_lines: BTreeMap<String, usize>,
}

/// Parses config.toml text. Syntax and type errors name the file, line,
/// column and (for type errors) the dotted key; unknown keys and features
/// become warnings.
pub(crate) fn parse_file_layer(
    path: &Path,
    text: &str,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<FileLayer, ConfigError> {
    let document = toml_edit::ImDocument::parse(text).map_err(|error| {
        let offset = error.span().map(|span| span.start).unwrap_or_default();
        parse_error(path, text, offset, None, error.message())
    })?;
    let mut toml: ConfigToml = toml::from_str(text).map_err(|error| {
        let offset = error.span().map(|span| span.start).unwrap_or_default();
        let key = key_path_at(document.as_table(), offset);
        parse_error(path, text, offset, key, error.message())
    })?;

    let line_of = |offset: Option<usize>| offset.map(|offset| line_column(text, offset).0);
    let origin_at = |offset: Option<usize>| ConfigOrigin::File {
        path: path.to_path_buf(),
        line: line_of(offset),
    };
    let mut key_lines = BTreeMap::new();
    let root = document.as_table();
    for (key, _) in root.iter() {
        let key_offset = root
            .get_key_value(key)
            .and_then(|(key, _)| key.span())
            .map(|span| span.start);
        if let Some(line) = line_of(key_offset) {
            key_lines.insert(key.to_string(), line);
        }
    }
    let mut unknown = Vec::new();
    unknown_keys(root, &mut Vec::new(), &mut unknown);
    for (offset, path) in unknown {
        let key = path.join(".");
        let warning = match path.as_slice() {
            [table, feature] if table == "features" => ConfigWarning::UnknownFeature {
                origin: origin_at(offset),
                key: feature.clone(),
            },
            _ => ConfigWarning::UnknownKey {
                origin: origin_at(offset),
                key,
            },
        };
        warnings.push(warning);
    }
    if let Some(policy) = toml.approval_policy {
        policy
            .choosable()
            .map_err(|error| ConfigError::InvalidValue {
                origin: ConfigOrigin::File {
                    path: path.to_path_buf(),
                    line: key_lines.get("approval_policy").copied(),
                },
                key: "approval_policy".to_string(),
                message: error.to_string(),
            })?;
    }
    let markers_line = key_lines.get("project_root_markers").copied();
    toml.drop_invalid_markers(
        || ConfigOrigin::File {
            path: path.to_path_buf(),
            line: markers_line,
        },
        warnings,
    );
    Ok(FileLayer { toml, key_lines })
}

/// The keys of `table` (at `path`) the known-keys table does not know, with the offset of each
/// key, in document order; unknown features (`features.NAME`) come after every other key. Tables
/// are searched as deep as the known-keys table has rows.
fn unknown_keys(
    table: &dyn toml_edit::TableLike,
    path: &mut Vec<String>,
    unknown: &mut Vec<(Option<usize>, Vec<String>)>,
) {
    let mut features = Vec::new();
    for (key, item) in table.iter() {
        let offset = table
            .get_key_value(key)
            .and_then(|(key, _)| key.span())
            .map(|span| span.start);
        path.push(key.to_string());
        let segments: Vec<&str> = path.iter().map(String::as_str).collect();
        match config_key_status(&segments) {
            KeyStatus::Unknown => unknown.push((offset, path.clone())),
            KeyStatus::Listed(_) | KeyStatus::Table => {
                if let Some(nested) = item.as_table_like()
                    && config_key_has_children(&segments)
                {
                    let found = if segments == ["features"] {
                        &mut features
                    } else {
                        &mut *unknown
                    };
                    unknown_keys(nested, path, found);
                }
            }
        }
        path.pop();
    }
    unknown.extend(features);
}

fn parse_error(
    path: &Path,
    text: &str,
    offset: usize,
    key: Option<String>,
    message: &str,
) -> ConfigError {
    let (line, column) = line_column(text, offset);
    ConfigError::Parse {
        path: path.to_path_buf(),
        line,
        column,
        key,
        message: message.trim().replace('\n', " "),
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The dotted key whose value spans `offset`, searching nested tables.
fn key_path_at(table: &dyn toml_edit::TableLike, offset: usize) -> Option<String> {
    for (key, item) in table.iter() {
        let found = match item {
            toml_edit::Item::Value(toml_edit::Value::InlineTable(inline)) => {
                key_path_at(inline, offset)
                    .or_else(|| contains(item.span(), offset).then(String::new))
            }
            toml_edit::Item::Value(_) => contains(item.span(), offset).then(String::new),
            toml_edit::Item::Table(nested) => key_path_at(nested, offset),
            toml_edit::Item::ArrayOfTables(tables) => {
                tables.iter().find_map(|nested| key_path_at(nested, offset))
            }
            toml_edit::Item::None => None,
        };
        if let Some(rest) = found {
            return Some(if rest.is_empty() {
                key.to_string()
            } else {
                format!("{key}.{rest}")
            });
        }
    }
    None
}

fn contains(span: Option<std::ops::Range<usize>>, offset: usize) -> bool {
    span.is_some_and(|span| span.contains(&offset))
}
