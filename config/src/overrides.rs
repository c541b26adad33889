//! Command-line configuration: typed flags and repeated `-c key=value`.

use codex_release::CodexRelease;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;

use codex_protocol::AskForApproval;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::ReasoningEffort;
use codex_protocol::ReasoningSummary;
use codex_protocol::SandboxMode;
use codex_protocol::Verbosity;

use super::ConfigError;
use super::ConfigOrigin;
use super::ConfigToml;
use super::ConfigWarning;
use super::KNOWN_KEYS;
use super::ModelProviderToml;
use crate::known_keys::KeyStatus;
use crate::known_keys::KeyUse;
use crate::known_keys::config_key_status;
use crate::skills::ExtensionHost;

/// Whether loading reads `config.toml` from CODEX_HOME.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConfigFile {
    /// `$CODEX_HOME/config.toml`, when it exists.
    #[default]
    Read,
    /// No file at all, whatever CODEX_HOME holds: only `-c` overrides and flags count.
    Ignored,
}

/// Values from dedicated command-line flags; they beat `-c` and config.toml.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigOverrides {
    /// `--codex-home`: beats `$CODEX_HOME` and `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// Whether `config.toml` under that home is read.
    pub config_file: ConfigFile,
    pub cwd: Option<PathBuf>,
    pub model: Option<String>,
    pub model_provider: Option<String>,
    pub personality: Option<Personality>,
    pub sandbox_mode: Option<SandboxMode>,
    pub approval_policy: Option<AskForApproval>,
    pub model_catalog: Option<PathBuf>,
    pub model_instructions_file: Option<PathBuf>,
    pub developer_instructions: Option<String>,
    pub model_reasoning_effort: Option<ReasoningEffort>,
    pub model_reasoning_summary: Option<ReasoningSummary>,
    pub model_verbosity: Option<Verbosity>,
    pub current_date: Option<String>,
    pub timezone: Option<String>,
    pub shell: Option<String>,
    pub seed: Option<u64>,
    pub collaboration_mode: Option<ModeKind>,
    pub realtime: Option<bool>,
    /// `--enable` / `--disable` toggles by feature key.
    pub features: BTreeMap<String, bool>,
    /// The host the session runs in (not a flag: the front end says which it is).
    pub extension_host: ExtensionHost,
    /// `--codex-version`: the upstream release to reproduce.
    pub codex_version: Option<CodexRelease>,
}

impl ConfigOverrides {
    /// The flags as a config layer (paths still relative to the process cwd).
    pub(crate) fn to_layer(&self) -> ConfigToml {
        ConfigToml {
            model: self.model.clone(),
            model_provider: self.model_provider.clone().map(ModelProviderToml::Id),
            personality: self.personality,
            sandbox_mode: self.sandbox_mode,
            approval_policy: self.approval_policy,
            model_instructions_file: self.model_instructions_file.clone(),
            developer_instructions: self.developer_instructions.clone(),
            model_catalog: self.model_catalog.clone(),
            model_reasoning_effort: self.model_reasoning_effort.clone(),
            model_reasoning_summary: self.model_reasoning_summary,
            model_verbosity: self.model_verbosity,
            features: (!self.features.is_empty()).then(|| self.features.clone()),
            current_date: self.current_date.clone(),
            timezone: self.timezone.clone(),
            shell: self.shell.clone(),
            seed: self.seed,
            cwd: self.cwd.clone(),
            collaboration_mode: self.collaboration_mode,
            realtime: self.realtime,
            codex_version: self.codex_version,
            ..ConfigToml::default()
        }
    }
}

/// One `-c key=value`. The key is a dotted path of bare keys
/// (`features.personality`); the value is parsed as a TOML value and, when
/// that fails, taken as a plain string (so `-c model=gpt-5` works unquoted).
#[derive(Clone, Debug, PartialEq)]
pub struct CliOverride {
    /// The argument as typed, for messages.
    pub raw: String,
    pub path: Vec<String>,
    pub value: toml::Value,
}

impl FromStr for CliOverride {
    type Err = ConfigError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let invalid = |message: &str| ConfigError::Override {
            raw: raw.to_string(),
            message: message.to_string(),
        };
        let (key, value) = raw
            .split_once('=')
            .ok_or_else(|| invalid("expected key=value"))?;
        // A TOML dotted key: bare names, or quoted ones for names holding dots or slashes
        // (`projects."/work/repo".trust_level`).
        let path: Vec<String> = toml_edit::Key::parse(key.trim())
            .map_err(|_| invalid("the key must be a dotted path of non-empty names"))?
            .iter()
            .map(|segment| segment.get().to_string())
            .collect();
        if path.is_empty() || path.iter().any(String::is_empty) {
            return Err(invalid("the key must be a dotted path of non-empty names"));
        }
        let value = value.trim();
        let parsed = toml::from_str::<toml::Table>(&format!("value = {value}"))
            .ok()
            // More than one key means the text smuggled in extra lines: not a value.
            .filter(|table| table.len() == 1)
            .and_then(|mut table| table.remove("value"));
        let value = parsed.unwrap_or_else(|| toml::Value::String(value.to_string()));
        // What a user types may not choose a retired policy (recorded settings still carry it);
        // a value of the wrong type is reported when the override is applied.
        if path == ["approval_policy"]
            && let Ok(policy) = value.clone().try_into::<AskForApproval>()
        {
            policy
                .choosable()
                .map_err(|error| invalid(&error.to_string()))?;
        }
        Ok(Self {
            raw: raw.to_string(),
            path,
            value,
        })
    }
}

/// The `-c` overrides as one layer, later ones winning. Each override is
/// checked on its own so an error names the argument that caused it.
pub(crate) fn cli_layer(
    overrides: &[CliOverride],
    warnings: &mut Vec<ConfigWarning>,
) -> Result<(ConfigToml, BTreeMap<String, String>), ConfigError> {
    let mut layer = ConfigToml::default();
    let mut raw_by_key = BTreeMap::new();
    for cli_override in overrides {
        let origin = || ConfigOrigin::CliOverride(cli_override.raw.clone());
        let (top, rest) = match cli_override.path.split_first() {
            Some(split) => split,
            None => continue,
        };
        let segments: Vec<&str> = cli_override.path.iter().map(String::as_str).collect();
        match (config_key_status(&segments), top.as_str(), rest) {
            (KeyStatus::Unknown, "features", [feature]) => {
                warnings.push(ConfigWarning::UnknownFeature {
                    origin: origin(),
                    key: feature.clone(),
                });
                continue;
            }
            (KeyStatus::Unknown, _, _) => {
                warnings.push(ConfigWarning::UnknownKey {
                    origin: origin(),
                    key: cli_override.path.join("."),
                });
                continue;
            }
            // A valid key this project does nothing with.
            (KeyStatus::Listed(KeyUse::Ignored), _, _) => continue,
            (KeyStatus::Listed(KeyUse::Read | KeyUse::Ours) | KeyStatus::Table, _, _) => {}
        }
        if !KNOWN_KEYS.contains(&top.as_str()) {
            continue;
        }
        let mut nested = cli_override.value.clone();
        for segment in rest.iter().rev() {
            nested = toml::Value::Table(toml::Table::from_iter([(segment.clone(), nested)]));
        }
        let single = toml::Table::from_iter([(top.clone(), nested)]);
        let mut single: ConfigToml =
            toml::Value::Table(single)
                .try_into()
                .map_err(|error: toml::de::Error| ConfigError::Override {
                    raw: cli_override.raw.clone(),
                    message: error.message().trim().replace('\n', " "),
                })?;
        single.drop_invalid_markers(origin, warnings);
        raw_by_key.insert(top.clone(), cli_override.raw.clone());
        layer = layer.overlay(single);
    }
    Ok((layer, raw_by_key))
}
