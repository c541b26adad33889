//! The `<filesystem>` part of `<environment_context>`: the workspace root and the permission
//! profile a turn's sandbox policy amounts to, with the reads it denies.

use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxPolicy;

use super::environments::FileSystemAccess;
use super::environments::FileSystemEntry;
use super::environments::FileSystemPolicy;
use super::environments::FileSystemTarget;
use super::environments::FilesystemContext;
use super::environments::PermissionProfileContext;
use crate::turn_context::TurnContext;

/// The `<filesystem>` description of the primary environment's sandbox: its workspace roots
/// (verbatim, foreign ones included) and the permission profile the policy amounts to, whose
/// workspace rules name the roots that are paths of this host. `None` without an environment.
pub(super) fn filesystem_context(turn: &TurnContext) -> Option<FilesystemContext> {
    let primary = turn.environments.first()?;
    let host_roots: Vec<&std::path::Path> = primary.host_workspace_roots().collect();
    let entry = |access, target| FileSystemEntry {
        access,
        escalatable: None,
        target,
    };
    let readable = |access: &ReadOnlyAccess| match access {
        ReadOnlyAccess::FullAccess => vec![entry(
            FileSystemAccess::Read,
            FileSystemTarget::Special(":root".to_string()),
        )],
        ReadOnlyAccess::Restricted {
            include_platform_defaults,
            readable_roots,
        } => include_platform_defaults
            .then(|| {
                entry(
                    FileSystemAccess::Read,
                    FileSystemTarget::Special(":minimal".to_string()),
                )
            })
            .into_iter()
            .chain(readable_roots.iter().map(|root| {
                entry(
                    FileSystemAccess::Read,
                    FileSystemTarget::Path(root.display().to_string()),
                )
            }))
            .collect(),
    };
    let permission_profile = match &turn.sandbox_policy {
        SandboxPolicy::DangerFullAccess => PermissionProfileContext::Disabled,
        SandboxPolicy::ExternalSandbox { .. } => PermissionProfileContext::External,
        SandboxPolicy::ReadOnly { access, .. } => PermissionProfileContext::Managed {
            file_system: FileSystemPolicy::Restricted {
                entries: readable(access),
                glob_scan_max_depth: None,
            },
        },
        SandboxPolicy::WorkspaceWrite {
            writable_roots,
            read_only_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp,
            ..
        } => {
            let mut entries = readable(read_only_access);
            entries.extend(host_roots.iter().map(|root| {
                entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Path(root.display().to_string()),
                )
            }));
            entries.extend(writable_roots.iter().map(|root| {
                entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Path(root.display().to_string()),
                )
            }));
            if !exclude_slash_tmp {
                entries.push(entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Special(":slash_tmp".to_string()),
                ));
            }
            if !exclude_tmpdir_env_var {
                entries.push(entry(
                    FileSystemAccess::Write,
                    FileSystemTarget::Special(":tmpdir".to_string()),
                ));
            }
            // Read-only folders of a writable workspace (version control, agent configuration
            // and, on the releases that protect them, cloud credentials).
            let protected = turn.profile().protected_workspace_folders;
            entries.extend(protected.names().iter().flat_map(|name| {
                host_roots.iter().map(move |root| {
                    entry(
                        FileSystemAccess::Read,
                        FileSystemTarget::Path(root.join(name).display().to_string()),
                    )
                })
            }));
            PermissionProfileContext::Managed {
                file_system: FileSystemPolicy::Restricted {
                    entries,
                    glob_scan_max_depth: None,
                },
            }
        }
    };
    let mut permission_profile = permission_profile;
    // The reads the profile denies close the list; the model may not ask to lift them.
    if let PermissionProfileContext::Managed {
        file_system: FileSystemPolicy::Restricted { entries, .. },
    } = &mut permission_profile
    {
        entries.extend(turn.denied_reads.iter().map(|path| FileSystemEntry {
            access: FileSystemAccess::Deny,
            escalatable: Some(false),
            target: FileSystemTarget::Path(path.display().to_string()),
        }));
    }
    Some(FilesystemContext {
        workspace_roots: primary.workspace_roots.clone(),
        permission_profile,
    })
}
