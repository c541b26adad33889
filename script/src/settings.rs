//! Layers of settings — a script's `session` and each turn's `set`, `--set key=value`, the
//! settings a rollout recorded — and the configuration they load into. Layers apply in order over
//! `$CODEX_HOME/config.toml`, later ones winning (feature toggles merge per key).

use std::path::Path;
use std::path::PathBuf;
use std::str::FromStr;

use codex_config::CliOverride;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigFile;
use codex_config::ConfigOverrides;
use codex_config::ConfigToml;
use codex_config::EnvironmentToml;
use codex_config::ExtensionHost;
use codex_config::Feature;
use codex_config::KNOWN_KEYS;
use codex_config::PermissionProfileToml;
use codex_config::SkillsToml;
use codex_config::check_working_directory;
use codex_protocol::SandboxPolicy;
use codex_protocol::TurnContextItem;
use codex_release::CodexRelease;
use serde_json::Map;
use serde_json::Value;

use super::ScriptError;
use super::scratch::relocate_value;

/// Keys whose values are paths; relative ones resolve against the layer's folder.
const PATH_KEYS: [&str; 4] = [
    "cwd",
    "model_catalog",
    "model_instructions_file",
    "remote_models",
];

/// Name of the configuration folder an isolated session pretends to use. It is never created,
/// so no `config.toml` is read from it; global AGENTS.md is skipped altogether.
const ISOLATED_CODEX_HOME: &str = "codex-context-isolated-home";

/// Where configuration and the global AGENTS.md come from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CodexHome {
    /// No `config.toml`, no global AGENTS.md: only the script's own settings count.
    #[default]
    Isolated,
    /// This folder's `config.toml` and AGENTS.md, as `--codex-home` names it.
    Dir(PathBuf),
}

impl CodexHome {
    /// The global AGENTS.md folder, when there is one.
    pub fn agents_md_home(&self) -> Option<PathBuf> {
        match self {
            Self::Isolated => None,
            Self::Dir(dir) => Some(dir.clone()),
        }
    }
}

/// Config values set in one place, in the order they were given.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsLayer {
    origin: String,
    overrides: Vec<CliOverride>,
}

impl SettingsLayer {
    /// This layer with `later`'s values set after its own (they win where both set a key).
    pub fn then(mut self, later: &SettingsLayer) -> Self {
        self.overrides.extend(later.overrides.iter().cloned());
        self
    }

    /// A layer that sets `codex_version` to `release`; `origin` names it in messages.
    pub fn release(origin: impl Into<String>, release: CodexRelease) -> Self {
        Self {
            origin: origin.into(),
            overrides: vec![CliOverride {
                raw: format!("codex_version=\"{}\"", release.name()),
                path: vec!["codex_version".to_string()],
                value: toml::Value::String(release.name().to_string()),
            }],
        }
    }

    /// A layer that sets nothing; `origin` names it in messages.
    pub fn empty(origin: impl Into<String>) -> Self {
        Self {
            origin: origin.into(),
            overrides: Vec::new(),
        }
    }

    /// A script's CONFIG object. Keys are config.toml keys; `origin` is the object's place
    /// (`script.json: turns[2].set`); relative paths resolve against `base_dir`.
    pub fn from_json(
        origin: &str,
        object: &Map<String, Value>,
        base_dir: &Path,
    ) -> Result<Self, ScriptError> {
        let mut layer = Self::empty(origin);
        for (key, value) in object {
            let location = format!("{origin}.{key}");
            let value = json_to_toml(value)
                .map_err(|message| ScriptError::invalid(location.clone(), message))?;
            let raw = format!("{key}={value}");
            layer.push(
                origin,
                &location,
                CliOverride {
                    raw,
                    path: vec![key.clone()],
                    value,
                },
                base_dir,
            )?;
        }
        Ok(layer)
    }

    /// `key=value` assignments as `-c` takes them (TOML values, bare strings allowed, dotted
    /// `features.NAME`). Each is checked on its own and named `--set key=value` in messages.
    pub fn from_assignments(
        origin: &str,
        assignments: &[String],
        base_dir: &Path,
    ) -> Result<Self, ScriptError> {
        let mut layer = Self::empty(origin);
        for raw in assignments {
            let location = format!("{origin} {raw}");
            let assignment = CliOverride::from_str(raw).map_err(|error| {
                // The message names the argument as `-c` would; the location already does.
                let message = error.to_string();
                let own = message
                    .strip_prefix(&format!("-c {raw}: "))
                    .unwrap_or(&message);
                ScriptError::invalid(location.clone(), own)
            })?;
            layer.push(&location, &location, assignment, base_dir)?;
        }
        Ok(layer)
    }

    /// The settings a `turn_context` line recorded that a resumed session keeps by default:
    /// model, cwd, approval policy, sandbox mode (and a workspace-write sandbox's roots, network
    /// and temporary directories), personality, collaboration mode, realtime and
    /// reasoning effort. Date, time zone and shell are not among them: they are read afresh.
    ///
    /// Nor is the reasoning summary: upstream writes `summary: "auto"` into every `turn_context`
    /// whatever it sends (`to_turn_context_item` in `codex-rs/core/src/session/turn_context.rs`
    /// at the reference), and a resumed thread takes the summary from its configuration, else
    /// from the model's default (`merge_persisted_resume_metadata` in
    /// `codex-rs/app-server/src/request_processors/thread_processor.rs` carries over the model
    /// and the effort only).
    pub fn recorded(origin: &str, item: &TurnContextItem) -> Result<Self, ScriptError> {
        let mut entries = Map::new();
        let mut put = |key: &str, value: Result<Value, serde_json::Error>| match value {
            Ok(Value::Null) => {}
            Ok(value) => {
                entries.insert(key.to_string(), value);
            }
            Err(error) => {
                tracing::warn!("the recorded setting `{key}` cannot be carried over: {error}")
            }
        };
        put("model", Ok(Value::String(item.model.clone())));
        put(
            "sandbox_mode",
            serde_json::to_value(item.sandbox_policy.mode()),
        );
        // What the recorded workspace-write sandbox granted, whole (a config.toml table does
        // not add to it).
        if let SandboxPolicy::WorkspaceWrite {
            writable_roots,
            network_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp,
            ..
        } = &item.sandbox_policy
        {
            put(
                "sandbox_workspace_write",
                Ok(serde_json::json!({
                    "writable_roots": writable_roots,
                    "network_access": network_access,
                    "exclude_tmpdir_env_var": exclude_tmpdir_env_var,
                    "exclude_slash_tmp": exclude_slash_tmp,
                })),
            );
        }
        put("personality", serde_json::to_value(item.personality));
        put(
            "collaboration_mode",
            serde_json::to_value(item.collaboration_mode.as_ref().map(|mode| mode.mode)),
        );
        put("realtime", serde_json::to_value(item.realtime_active));
        put("model_reasoning_effort", serde_json::to_value(&item.effort));
        let mut layer = Self::from_json(origin, &entries, Path::new("/"))?;
        // A thread recorded by an older release may run with `untrusted`, which a user can no
        // longer choose: the recorded policy is carried over as it was, unchecked.
        match serde_json::to_value(item.approval_policy)
            .map_err(|error| error.to_string())
            .and_then(|value| json_to_toml(&value))
        {
            Ok(value) => layer.overrides.push(CliOverride {
                raw: format!("approval_policy={value}"),
                path: vec!["approval_policy".to_string()],
                value,
            }),
            Err(error) => tracing::warn!(
                "the recorded setting `approval_policy` cannot be carried over: {error}"
            ),
        }
        // A recorded cwd may be gone on this machine; [`load_continued_config`] replaces it then.
        layer.overrides.push(cwd_override(&item.cwd));
        Ok(layer)
    }

    /// A layer that sets only `cwd` to `dir` (not checked here: loading checks it).
    pub fn cwd(origin: impl Into<String>, dir: &Path) -> Self {
        Self {
            origin: origin.into(),
            overrides: vec![cwd_override(dir)],
        }
    }

    /// This layer with every absolute path under `from` (a value, or a key of a table such as
    /// `projects`) moved under `to`: the same settings over a copy of the folder.
    pub fn relocated(&self, from: &Path, to: &Path) -> Self {
        Self {
            origin: self.origin.clone(),
            overrides: self
                .overrides
                .iter()
                .map(|entry| CliOverride {
                    value: relocate_value(&entry.value, from, to),
                    ..entry.clone()
                })
                .collect(),
        }
    }

    /// Where the layer came from, for messages.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    pub fn is_empty(&self) -> bool {
        self.overrides.is_empty()
    }

    /// Whether this layer sets `key` (or a key under it).
    pub fn sets(&self, key: &str) -> bool {
        self.overrides
            .iter()
            .any(|entry| entry.path.first().is_some_and(|first| first == key))
    }

    /// The (absolute) path a path key is set to here.
    pub fn path(&self, key: &str) -> Option<PathBuf> {
        self.overrides
            .iter()
            .rev()
            .find(|entry| entry.path.len() == 1 && entry.path[0] == key)
            .and_then(|entry| entry.value.as_str())
            .map(PathBuf::from)
    }

    /// Checks one entry and appends it. `unknown_location` prefixes an unknown-key message,
    /// `location` every other one.
    fn push(
        &mut self,
        unknown_location: &str,
        location: &str,
        mut entry: CliOverride,
        base_dir: &Path,
    ) -> Result<(), ScriptError> {
        let invalid = |message: String| ScriptError::invalid(location, message);
        let Some((key, rest)) = entry.path.split_first() else {
            return Err(invalid("empty key".to_string()));
        };
        let key = key.clone();
        if !KNOWN_KEYS.contains(&key.as_str()) {
            return Err(ScriptError::invalid(
                unknown_location,
                format!("unknown key \"{key}\""),
            ));
        }
        let feature_names: Vec<&str> = match (key.as_str(), rest, &entry.value) {
            ("features", [], toml::Value::Table(table)) => {
                table.keys().map(String::as_str).collect()
            }
            ("features", [name], _) => vec![name.as_str()],
            ("projects" | "permissions", _, _) => Vec::new(),
            ("sandbox_workspace_write", [_] | [], _) => Vec::new(),
            (_, [], _) => Vec::new(),
            (_, _, _) => return Err(invalid(format!("`{key}` has no sub-keys"))),
        };
        if let Some(unknown) = feature_names
            .iter()
            .find(|name| Feature::from_key(name).is_none())
        {
            return Err(invalid(format!("unknown feature \"{unknown}\"")));
        }
        if PATH_KEYS.contains(&key.as_str()) {
            let Some(text) = entry.value.as_str() else {
                return Err(invalid("must be a path string".to_string()));
            };
            let path = base_dir.join(text);
            if key == "cwd" && !path.is_dir() {
                return Err(invalid(format!(
                    "directory {} does not exist",
                    path.display()
                )));
            }
            entry.value = toml::Value::String(path.display().to_string());
        }
        if key == "skills" {
            // Skill paths resolve against the script's folder, like the path keys.
            let mut skills: SkillsToml = typed(&entry.value).map_err(invalid)?;
            skills.resolve_paths(base_dir);
            entry.value =
                toml::Value::try_from(&skills).map_err(|error| invalid(error.to_string()))?;
        }
        if key == "environments" {
            // Environment paths of this host resolve against the script's folder, like the
            // path keys; foreign ones stay as written.
            let mut environments: Vec<EnvironmentToml> = typed(&entry.value).map_err(invalid)?;
            for environment in &mut environments {
                environment.resolve_paths(base_dir);
            }
            entry.value =
                toml::Value::try_from(&environments).map_err(|error| invalid(error.to_string()))?;
        }
        if key == "sandbox_workspace_write" {
            // Writable roots resolve against the script's folder, like the path keys.
            resolve_writable_roots(&mut entry, base_dir).map_err(invalid)?;
        }
        if key == "permissions" {
            // Profile paths resolve against the script's folder, like the path keys.
            resolve_permission_paths(&mut entry, base_dir).map_err(invalid)?;
        }
        if key == "projects" {
            // Project paths resolve against the script's folder, like the path keys.
            resolve_project_keys(&mut entry, base_dir).map_err(invalid)?;
        }
        if key == "current_date"
            && let Some(date) = entry.value.as_str()
            && date
                .parse::<jiff::civil::Date>()
                .ok()
                .map(|parsed| parsed.to_string())
                .as_deref()
                != Some(date)
        {
            return Err(invalid(format!(
                "`{date}` is not a date in YYYY-MM-DD form"
            )));
        }
        // The value must fit the key's type: read it as a one-key config layer.
        let mut nested = entry.value.clone();
        for segment in entry.path.iter().skip(1).rev() {
            nested = toml::Value::Table(toml::Table::from_iter([(segment.clone(), nested)]));
        }
        let layer = toml::Value::Table(toml::Table::from_iter([(key, nested)]))
            .try_into::<ConfigToml>()
            .map_err(|error| invalid(error.message().trim().replace('\n', " ")))?;
        if let Some(policy) = layer.approval_policy {
            policy
                .choosable()
                .map_err(|error| invalid(error.to_string()))?;
        }
        self.overrides.push(entry);
        Ok(())
    }
}

/// Makes the relative project paths of a `projects` entry (the whole table, or one project's
/// table as `projects.PATH`) absolute against `base_dir`.
fn resolve_project_keys(entry: &mut CliOverride, base_dir: &Path) -> Result<(), String> {
    let absolute = |key: &str| -> String {
        if Path::new(key).is_relative() {
            normalized(&base_dir.join(key)).display().to_string()
        } else {
            key.to_string()
        }
    };
    match entry.path.as_mut_slice() {
        [_] => {
            let toml::Value::Table(projects) = &entry.value else {
                return Err("must be a table of project paths".to_string());
            };
            entry.value = toml::Value::Table(
                projects
                    .iter()
                    .map(|(key, project)| (absolute(key), project.clone()))
                    .collect(),
            );
        }
        [_, project, ..] => *project = absolute(project),
        [] => {}
    }
    Ok(())
}

/// Makes the relative file-system paths of a `permissions` entry (the whole table, one
/// profile's table as `permissions.NAME`, or its `filesystem` table) absolute against `base_dir`.
fn resolve_permission_paths(entry: &mut CliOverride, base_dir: &Path) -> Result<(), String> {
    let resolve = |value: &toml::Value| -> Result<toml::Value, String> {
        let mut profile: PermissionProfileToml = value
            .clone()
            .try_into()
            .map_err(|error: toml::de::Error| error.message().trim().replace('\n', " "))?;
        profile.resolve_paths(base_dir);
        toml::Value::try_from(&profile).map_err(|error| error.to_string())
    };
    match (entry.path.as_slice(), &mut entry.value) {
        ([_], toml::Value::Table(profiles)) => {
            for (_, profile) in profiles.iter_mut() {
                *profile = resolve(profile)?;
            }
            Ok(())
        }
        ([_], _) => Err("must be a table of permission profiles".to_string()),
        ([_, _], profile) => {
            *profile = resolve(profile)?;
            Ok(())
        }
        ([_, _, name], toml::Value::Table(filesystem)) if name == "filesystem" => {
            let wrapped = toml::Value::Table(toml::Table::from_iter([(
                "filesystem".to_string(),
                toml::Value::Table(std::mem::take(filesystem)),
            )]));
            if let toml::Value::Table(mut resolved) = resolve(&wrapped)?
                && let Some(toml::Value::Table(resolved)) = resolved.remove("filesystem")
            {
                *filesystem = resolved;
            }
            Ok(())
        }
        (_, _) => Ok(()),
    }
}

/// Makes the relative writable roots of a `sandbox_workspace_write` entry (the whole table, or
/// its `writable_roots`) absolute against `base_dir`.
fn resolve_writable_roots(entry: &mut CliOverride, base_dir: &Path) -> Result<(), String> {
    let roots = match (entry.path.as_slice(), &mut entry.value) {
        ([_], toml::Value::Table(table)) => match table.get_mut("writable_roots") {
            Some(roots) => roots,
            None => return Ok(()),
        },
        ([_], _) => return Err("must be a table".to_string()),
        ([_, name], roots) if name == "writable_roots" => roots,
        (_, _) => return Ok(()),
    };
    let toml::Value::Array(roots) = roots else {
        return Err("`writable_roots` must be an array of paths".to_string());
    };
    for root in roots {
        let toml::Value::String(text) = root else {
            return Err("`writable_roots` must be an array of paths".to_string());
        };
        *text = normalized(&base_dir.join(&*text)).display().to_string();
    }
    Ok(())
}

/// `path` without `.` and `..` components (symlinks kept).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn cwd_override(dir: &Path) -> CliOverride {
    CliOverride {
        raw: format!("cwd={}", dir.display()),
        path: vec!["cwd".to_string()],
        value: toml::Value::String(dir.display().to_string()),
    }
}

/// A JSON value as the TOML value config layers hold.
fn json_to_toml(value: &Value) -> Result<toml::Value, String> {
    Ok(match value {
        Value::Null => return Err("null is not a value (leave the key out)".to_string()),
        Value::Bool(flag) => toml::Value::Boolean(*flag),
        Value::Number(number) => match (number.as_i64(), number.as_f64()) {
            (Some(integer), _) => toml::Value::Integer(integer),
            (None, Some(float)) if number.is_f64() => toml::Value::Float(float),
            (None, _) => return Err(format!("{number} is out of range")),
        },
        Value::String(text) => toml::Value::String(text.clone()),
        Value::Array(values) => toml::Value::Array(
            values
                .iter()
                .map(json_to_toml)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Value::Object(entries) => toml::Value::Table(
            entries
                .iter()
                .map(|(key, value)| Ok((key.clone(), json_to_toml(value)?)))
                .collect::<Result<toml::Table, String>>()?,
        ),
    })
}

/// Loads configuration: `codex_home`'s config.toml, then `layers` in order. `location` names
/// what is being loaded in messages (`script.json: turns[2]`).
pub fn load_config(
    layers: &[&SettingsLayer],
    codex_home: &CodexHome,
    host: ExtensionHost,
    env: &ConfigEnv,
    location: &str,
) -> Result<Config, ScriptError> {
    // An isolated session names a home it never reads: whatever a folder of that name in the
    // shared temporary directory holds, no `config.toml` counts.
    let (home, config_file) = match codex_home {
        CodexHome::Isolated => (
            std::env::temp_dir().join(ISOLATED_CODEX_HOME),
            ConfigFile::Ignored,
        ),
        CodexHome::Dir(dir) => (dir.clone(), ConfigFile::Read),
    };
    let flags = ConfigOverrides {
        codex_home: Some(home),
        config_file,
        extension_host: host,
        ..ConfigOverrides::default()
    };
    let overrides: Vec<CliOverride> = layers
        .iter()
        .flat_map(|layer| layer.overrides.iter().cloned())
        .collect();
    let config = Config::load(&flags, &overrides, env).map_err(|source| ScriptError::Config {
        location: location.to_string(),
        source,
    })?;
    for warning in &config.warnings {
        tracing::warn!("{location}: {warning}");
    }
    check_working_directory(&config.cwd)
        .map_err(|error| ScriptError::invalid(location, error.to_string()))?;
    Ok(config)
}

/// Loads the configuration a thread continued from its rollout runs with: `recorded` (the
/// settings the rollout recorded, see [`SettingsLayer::recorded`]), then `later` layers, as
/// [`load_config`] does.
///
/// A recorded cwd that does not exist here (the rollout was recorded on another machine, or the
/// folder was removed) is not an error: the thread continues in the cwd a later layer sets,
/// else in the current directory, and one warning names both. The next request then tells the
/// model that the working directory changed.
pub fn load_continued_config(
    recorded: &SettingsLayer,
    later: &[&SettingsLayer],
    codex_home: &CodexHome,
    host: ExtensionHost,
    env: &ConfigEnv,
    location: &str,
) -> Result<Config, ScriptError> {
    let gone = recorded
        .path("cwd")
        .filter(|cwd| check_working_directory(cwd).is_err());
    let fallback = match (&gone, &env.current_dir) {
        (Some(_), Some(current)) => Some(SettingsLayer::cwd("current directory", current)),
        (Some(_) | None, _) => None,
    };
    let mut layers = vec![recorded];
    layers.extend(&fallback);
    layers.extend(later);
    let config = load_config(&layers, codex_home, host, env, location)?;
    if let Some(recorded_cwd) = gone {
        tracing::warn!(
            "the rollout's working directory {} does not exist here; continuing in {}",
            recorded_cwd.display(),
            config.cwd.display()
        );
    }
    Ok(config)
}

/// `value` read as a `T`; the error is TOML's message on one line.
fn typed<T: serde::de::DeserializeOwned>(value: &toml::Value) -> Result<T, String> {
    value
        .clone()
        .try_into()
        .map_err(|error: toml::de::Error| error.message().trim().replace('\n', " "))
}
