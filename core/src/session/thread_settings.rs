//! The `thread_settings_applied` event: the thread's settings as one settings operation left
//! them, written for every operation applied once the thread's rollout exists.
//!
//! The payload is `{"type": "thread_settings_applied", "thread_settings": {…}}` with upstream's
//! keys in upstream's order; optional settings (reasoning effort and summary when not
//! configured, no personality) are left out rather than written as `null`.

use std::path::Path;

use codex_protocol::NetworkAccess;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxPolicy;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use crate::turn_context::TurnContext;

const THREAD_SETTINGS_APPLIED: &str = "thread_settings_applied";

/// Id of upstream's built-in read-only permission profile.
const READ_ONLY_PROFILE_ID: &str = ":read-only";

/// Folders under the working directory a workspace-write sandbox keeps read-only (they hold
/// repository metadata and the agent's own configuration). Entries for them are skipped when
/// the folder does not exist.
const PROTECTED_WORKSPACE_FOLDERS: [&str; 3] = [".git", ".agents", ".codex"];

/// The event payload for the settings `turn` runs with.
pub(super) fn thread_settings_applied(turn: &TurnContext) -> Result<Value, serde_json::Error> {
    let mut settings = Map::new();
    settings.insert("model".to_string(), json!(turn.model.slug));
    settings.insert("model_provider_id".to_string(), json!(turn.provider_id));
    settings.insert(
        "approval_policy".to_string(),
        serde_json::to_value(turn.approval_policy)?,
    );
    settings.insert(
        "approvals_reviewer".to_string(),
        serde_json::to_value(turn.approvals_reviewer)?,
    );
    settings.insert(
        "permission_profile".to_string(),
        permission_profile(&turn.sandbox_policy, &turn.cwd),
    );
    if turn.sandbox_policy == SandboxPolicy::new_read_only_policy() {
        // The default read-only sandbox is upstream's built-in `:read-only` permission profile,
        // which upstream names as the active one.
        settings.insert(
            "active_permission_profile".to_string(),
            json!({"id": READ_ONLY_PROFILE_ID}),
        );
    }
    settings.insert("cwd".to_string(), json!(turn.cwd));
    if let Some(effort) = &turn.reasoning_effort {
        settings.insert(
            "reasoning_effort".to_string(),
            serde_json::to_value(effort)?,
        );
    }
    if let Some(summary) = turn.reasoning_summary {
        settings.insert(
            "reasoning_summary".to_string(),
            serde_json::to_value(summary)?,
        );
    }
    if let Some(personality) = turn.personality {
        settings.insert(
            "personality".to_string(),
            serde_json::to_value(personality)?,
        );
    }
    settings.insert(
        "collaboration_mode".to_string(),
        serde_json::to_value(&turn.collaboration_mode)?,
    );
    Ok(json!({
        "type": THREAD_SETTINGS_APPLIED,
        "thread_settings": settings,
    }))
}

/// The sandbox policy as upstream's permission profile: `disabled` (no sandbox), `external`
/// (an outside sandbox), or `managed` with the file-system entries the policy grants in `cwd`.
fn permission_profile(policy: &SandboxPolicy, cwd: &Path) -> Value {
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
            entries.extend(PROTECTED_WORKSPACE_FOLDERS.iter().map(|folder| {
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

#[cfg(test)]
#[path = "thread_settings_tests.rs"]
mod tests;
