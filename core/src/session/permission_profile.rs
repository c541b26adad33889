//! Upstream's permission profile for a sandbox policy, as the `thread_settings_applied` event
//! and every `turn_context` line write it.

use std::path::Path;

use crate::turn_context::TurnContext;
use codex_config::SettingSource;
use codex_protocol::NetworkAccess;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxPolicy;
use codex_release::ProtectedWorkspaceFolders;
use serde_json::Value;
use serde_json::json;

/// Id of upstream's built-in read-only permission profile.
const READ_ONLY_PROFILE_ID: &str = ":read-only";

/// The active permission profile upstream names for `turn`: the profile `default_permissions`
/// selected, by its id. Without one, upstream runs a thread under a named built-in profile only
/// when no `sandbox_mode` was set (config.toml or a flag select the legacy sandbox settings,
/// which name none; codex-rs/core/src/config/mod.rs): then the default read-only sandbox is the
/// built-in `:read-only` profile.
pub(super) fn active_permission_profile(turn: &TurnContext) -> Option<Value> {
    if let Some(id) = &turn.permission_profile_id {
        return Some(json!({"id": id}));
    }
    match turn.sandbox_mode_source {
        SettingSource::Default => (turn.sandbox_policy == SandboxPolicy::new_read_only_policy())
            .then(|| json!({"id": READ_ONLY_PROFILE_ID})),
        SettingSource::Configured => None,
    }
}

/// The split file-system policy upstream records next to the legacy `sandbox_policy` when the
/// two differ: a workspace-write sandbox keeps the repository metadata folders read-only, and a
/// profile may deny reads, which the legacy policy cannot say, so the restricted entries are
/// recorded (`file_system_sandbox_policy`); other policies record none.
pub(super) fn file_system_sandbox_policy(turn: &TurnContext) -> Option<Value> {
    let differs = match &turn.sandbox_policy {
        SandboxPolicy::WorkspaceWrite { .. } => true,
        SandboxPolicy::ReadOnly { .. } => !turn.denied_reads.is_empty(),
        SandboxPolicy::DangerFullAccess | SandboxPolicy::ExternalSandbox { .. } => false,
    };
    if !differs {
        return None;
    }
    let profile = permission_profile(turn);
    let entries = profile.pointer("/file_system/entries")?.clone();
    Some(json!({"kind": "restricted", "entries": entries}))
}

/// The sandbox policy as upstream's permission profile: `disabled` (no sandbox), `external`
/// (an outside sandbox), or `managed` with the file-system entries the policy grants in `cwd`.
/// A workspace-write sandbox keeps the release's protected folders under `cwd` read-only
/// (entries skipped when the folder does not exist); the reads the profile denies come last.
pub(super) fn permission_profile(turn: &TurnContext) -> Value {
    let mut profile = sandbox_profile(
        &turn.sandbox_policy,
        &turn.cwd,
        turn.profile().protected_workspace_folders,
    );
    if let Some(Value::Array(entries)) = profile.pointer_mut("/file_system/entries") {
        entries.extend(
            turn.denied_reads
                .iter()
                .map(|path| entry(path_target(path), "deny")),
        );
    }
    profile
}

fn sandbox_profile(
    policy: &SandboxPolicy,
    cwd: &Path,
    protected: ProtectedWorkspaceFolders,
) -> Value {
    let network = |enabled: bool| match enabled {
        true => "enabled",
        false => "restricted",
    };
    match policy {
        SandboxPolicy::DangerFullAccess => json!({"type": "disabled"}),
        SandboxPolicy::ExternalSandbox { network_access } => json!({
            "type": "external",
            "network": network(matches!(network_access, NetworkAccess::Enabled)),
        }),
        SandboxPolicy::ReadOnly {
            access,
            network_access,
        } => managed(readable_entries(access), network(*network_access)),
        SandboxPolicy::WorkspaceWrite {
            writable_roots,
            read_only_access,
            network_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp,
        } => {
            let mut entries = readable_entries(read_only_access);
            entries.push(entry(path_target(cwd), "write"));
            entries.extend(
                writable_roots
                    .iter()
                    .map(|root| entry(path_target(root), "write")),
            );
            if !exclude_slash_tmp {
                entries.push(entry(special_target("slash_tmp"), "write"));
            }
            if !exclude_tmpdir_env_var {
                entries.push(entry(special_target("tmpdir"), "write"));
            }
            entries.extend(protected.names().iter().map(|folder| {
                let mut protected = entry(path_target(&cwd.join(folder)), "read");
                protected["missing_path_behavior"] = json!("skip");
                protected
            }));
            managed(entries, network(*network_access))
        }
    }
}

fn managed(entries: Vec<Value>, network: &str) -> Value {
    json!({
        "type": "managed",
        "file_system": {"type": "restricted", "entries": entries},
        "network": network,
    })
}

/// What a policy lets the sandbox read: everything (`root`), or the platform's minimal set and
/// the listed roots.
fn readable_entries(access: &ReadOnlyAccess) -> Vec<Value> {
    match access {
        ReadOnlyAccess::FullAccess => vec![entry(special_target("root"), "read")],
        ReadOnlyAccess::Restricted {
            include_platform_defaults,
            readable_roots,
        } => include_platform_defaults
            .then(|| entry(special_target("minimal"), "read"))
            .into_iter()
            .chain(
                readable_roots
                    .iter()
                    .map(|root| entry(path_target(root), "read")),
            )
            .collect(),
    }
}

fn entry(path: Value, access: &str) -> Value {
    json!({"path": path, "access": access})
}

fn path_target(path: &Path) -> Value {
    json!({"type": "path", "path": path})
}

fn special_target(kind: &str) -> Value {
    json!({"type": "special", "value": {"kind": kind}})
}
