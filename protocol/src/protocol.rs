//! Sandbox and approval policies as they appear in turn context, rollouts and config.

use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

use crate::config_types::SandboxMode;
use crate::wire_enum::ParseEnumError;
use crate::wire_enum::wire_enum_strings;

/// Whether outbound network access is available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetworkAccess {
    #[default]
    Restricted,
    Enabled,
}

wire_enum_strings!(NetworkAccess, "network access", {
    Restricted => "restricted",
    Enabled => "enabled",
});

impl NetworkAccess {
    pub fn is_enabled(self) -> bool {
        matches!(self, Self::Enabled)
    }
}

impl From<bool> for NetworkAccess {
    fn from(enabled: bool) -> Self {
        if enabled {
            Self::Enabled
        } else {
            Self::Restricted
        }
    }
}

/// When the user is asked to approve a proposed command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AskForApproval {
    /// Only known-safe read-only commands run without asking. Upstream keeps it for projects it
    /// does not trust and no longer accepts it as a setting; recorded turns still carry it.
    #[serde(rename = "untrusted")]
    UnlessTrusted,
    /// The model decides when to ask. The retired `on-failure` policy is read as this one.
    #[default]
    #[serde(alias = "on-failure")]
    OnRequest,
    /// Per-category control: allowed categories may prompt, the rest are rejected automatically.
    Granular(GranularApprovalConfig),
    /// Never ask; failures go straight back to the model.
    Never,
}

impl AskForApproval {
    /// The policies a user may choose by name (`--approval`, config.toml, `-c`, session
    /// scripts), in the order messages list them; a `granular` policy is a table, not a name.
    /// Every message about an approval policy name lists these.
    pub const CHOOSABLE: [AskForApproval; 2] = [Self::OnRequest, Self::Never];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnlessTrusted => "untrusted",
            Self::OnRequest => "on-request",
            Self::Granular(_) => "granular",
            Self::Never => "never",
        }
    }

    /// Whether a user may set this policy: all but `untrusted`, which upstream Codex refuses as
    /// a setting ("no longer supported") while still reading it from recorded turns.
    pub fn is_choosable(self) -> bool {
        match self {
            Self::UnlessTrusted => false,
            Self::OnRequest | Self::Granular(_) | Self::Never => true,
        }
    }

    /// `self` if a user may set it, else the error saying it is no longer supported.
    pub fn choosable(self) -> Result<Self, UnsupportedApprovalPolicy> {
        match self.is_choosable() {
            true => Ok(self),
            false => Err(UnsupportedApprovalPolicy { policy: self }),
        }
    }

    /// Parses a policy named on the command line: one of [`AskForApproval::CHOOSABLE`], as
    /// upstream's `--ask-for-approval` takes them (config files may still use the retired
    /// `on-failure`; a flag may not).
    pub fn from_choice(name: &str) -> Result<Self, ApprovalChoiceError> {
        if let Some(policy) = Self::CHOOSABLE
            .into_iter()
            .find(|policy| policy.as_str() == name)
        {
            return Ok(policy);
        }
        match name.parse::<Self>() {
            Ok(policy) if !policy.is_choosable() => Err(ApprovalChoiceError::Unsupported(
                UnsupportedApprovalPolicy { policy },
            )),
            Ok(_) | Err(_) => Err(ApprovalChoiceError::Unknown(ParseEnumError::new(
                "approval policy",
                name,
                &Self::CHOOSABLE.map(Self::as_str),
            ))),
        }
    }

    /// The names of [`AskForApproval::CHOOSABLE`], comma-separated.
    pub fn choosable_names() -> String {
        Self::CHOOSABLE.map(Self::as_str).join(", ")
    }
}

/// A policy that is read from recorded turns but refused as a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "approval policy `{policy}` is no longer supported (expected one of: {})",
    AskForApproval::choosable_names()
)]
pub struct UnsupportedApprovalPolicy {
    pub policy: AskForApproval,
}

/// Why [`AskForApproval::from_choice`] refused a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApprovalChoiceError {
    #[error(transparent)]
    Unknown(ParseEnumError),
    #[error(transparent)]
    Unsupported(UnsupportedApprovalPolicy),
}

impl std::fmt::Display for AskForApproval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads every name a recorded policy may have, `untrusted` and the retired `on-failure`
/// included (check [`AskForApproval::choosable`] for a user's setting); an unknown name is an
/// error listing the choosable names.
impl std::str::FromStr for AskForApproval {
    type Err = ParseEnumError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "untrusted" => Ok(Self::UnlessTrusted),
            "on-request" | "on-failure" => Ok(Self::OnRequest),
            "never" => Ok(Self::Never),
            other => Err(ParseEnumError::new(
                "approval policy",
                other,
                &Self::CHOOSABLE.map(Self::as_str),
            )),
        }
    }
}

/// Which approval flows may prompt under [`AskForApproval::Granular`]; `false` means requests of
/// that category are rejected without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GranularApprovalConfig {
    pub sandbox_approval: bool,
    pub rules: bool,
    #[serde(default)]
    pub skill_approval: bool,
    #[serde(default)]
    pub request_permissions: bool,
    pub mcp_elicitations: bool,
}

/// Read access granted inside a sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ReadOnlyAccess {
    Restricted {
        #[serde(default = "include_platform_defaults_by_default")]
        include_platform_defaults: bool,
        #[serde(default)]
        readable_roots: Vec<PathBuf>,
    },
    #[default]
    FullAccess,
}

fn include_platform_defaults_by_default() -> bool {
    true
}

impl ReadOnlyAccess {
    pub fn is_full_access(&self) -> bool {
        matches!(self, Self::FullAccess)
    }
}

/// Execution restrictions for model-run commands (tag `type`, kebab-case).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum SandboxPolicy {
    /// No restrictions at all.
    DangerFullAccess,
    ReadOnly {
        #[serde(default, skip_serializing_if = "ReadOnlyAccess::is_full_access")]
        access: ReadOnlyAccess,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        network_access: bool,
    },
    /// The process already runs inside an outside sandbox: full disk access, network as given.
    ExternalSandbox {
        #[serde(default)]
        network_access: NetworkAccess,
    },
    /// Read-only plus write access to the workspace and the configured roots.
    WorkspaceWrite {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        writable_roots: Vec<PathBuf>,
        #[serde(default, skip_serializing_if = "ReadOnlyAccess::is_full_access")]
        read_only_access: ReadOnlyAccess,
        #[serde(default)]
        network_access: bool,
        /// Leave `$TMPDIR` out of the default writable roots.
        #[serde(default)]
        exclude_tmpdir_env_var: bool,
        /// Leave `/tmp` out of the default writable roots.
        #[serde(default)]
        exclude_slash_tmp: bool,
    },
}

/// Temporary directories a workspace-write sandbox may add to its writable roots. Filled in by the
/// caller, which is the one allowed to look at the filesystem and environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemporaryDirectories {
    /// `/tmp` when it exists as a directory (Unix only).
    pub slash_tmp: Option<PathBuf>,
    /// Non-empty `$TMPDIR`.
    pub tmpdir: Option<PathBuf>,
}

impl SandboxPolicy {
    pub fn new_read_only_policy() -> Self {
        Self::ReadOnly {
            access: ReadOnlyAccess::FullAccess,
            network_access: false,
        }
    }

    pub fn new_workspace_write_policy() -> Self {
        Self::WorkspaceWrite {
            writable_roots: Vec::new(),
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: false,
            exclude_tmpdir_env_var: false,
            exclude_slash_tmp: false,
        }
    }

    /// The default policy for a configured sandbox mode.
    pub fn from_mode(mode: SandboxMode) -> Self {
        match mode {
            SandboxMode::ReadOnly => Self::new_read_only_policy(),
            SandboxMode::WorkspaceWrite => Self::new_workspace_write_policy(),
            SandboxMode::DangerFullAccess => Self::DangerFullAccess,
        }
    }

    /// The sandbox mode the model is told about: full disk write access reads as
    /// `danger-full-access`.
    pub fn mode(&self) -> SandboxMode {
        match self {
            Self::DangerFullAccess | Self::ExternalSandbox { .. } => SandboxMode::DangerFullAccess,
            Self::ReadOnly { .. } => SandboxMode::ReadOnly,
            Self::WorkspaceWrite { .. } => SandboxMode::WorkspaceWrite,
        }
    }

    /// The `type` tag of this policy.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::DangerFullAccess => "danger-full-access",
            Self::ReadOnly { .. } => "read-only",
            Self::ExternalSandbox { .. } => "external-sandbox",
            Self::WorkspaceWrite { .. } => "workspace-write",
        }
    }

    pub fn has_full_disk_write_access(&self) -> bool {
        match self {
            Self::DangerFullAccess | Self::ExternalSandbox { .. } => true,
            Self::ReadOnly { .. } | Self::WorkspaceWrite { .. } => false,
        }
    }

    pub fn has_full_network_access(&self) -> bool {
        match self {
            Self::DangerFullAccess => true,
            Self::ExternalSandbox { network_access } => network_access.is_enabled(),
            Self::ReadOnly { network_access, .. } | Self::WorkspaceWrite { network_access, .. } => {
                *network_access
            }
        }
    }

    /// Network access as rendered into permission instructions.
    pub fn network_access(&self) -> NetworkAccess {
        NetworkAccess::from(self.has_full_network_access())
    }

    /// Writable roots of a workspace-write policy, in order: configured roots, `cwd`, `/tmp`
    /// (unless excluded), `$TMPDIR` (unless excluded). Other policies have none (either nothing is
    /// writable or everything is).
    pub fn writable_roots(
        &self,
        cwd: &Path,
        temporary_directories: &TemporaryDirectories,
    ) -> Vec<PathBuf> {
        match self {
            Self::DangerFullAccess | Self::ExternalSandbox { .. } | Self::ReadOnly { .. } => {
                Vec::new()
            }
            Self::WorkspaceWrite {
                writable_roots,
                exclude_tmpdir_env_var,
                exclude_slash_tmp,
                ..
            } => {
                let mut roots = writable_roots.clone();
                roots.push(cwd.to_path_buf());
                if !exclude_slash_tmp && let Some(slash_tmp) = &temporary_directories.slash_tmp {
                    roots.push(slash_tmp.clone());
                }
                if !exclude_tmpdir_env_var && let Some(tmpdir) = &temporary_directories.tmpdir {
                    roots.push(tmpdir.clone());
                }
                roots
            }
        }
    }
}

impl std::fmt::Display for SandboxPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses the JSON form (`{"type":"workspace-write",...}`), as upstream does.
impl std::str::FromStr for SandboxPolicy {
    type Err = serde_json::Error;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        serde_json::from_str(value)
    }
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
