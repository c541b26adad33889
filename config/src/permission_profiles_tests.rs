use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxPolicy;
use pretty_assertions::assert_eq;

use super::*;

fn profiles(toml: &str) -> BTreeMap<String, PermissionProfileToml> {
    toml::from_str(toml).expect("profiles")
}

fn resolve(name: &str, toml: &str) -> Result<PermissionProfile, PermissionProfileError> {
    resolve_permission_profile(
        name,
        &profiles(toml),
        &SandboxWorkspaceWrite::default(),
        Path::new("/repo"),
    )
}

#[test]
fn a_read_only_profile_with_a_denied_path() {
    let profile = resolve(
        "restricted",
        r#"
[restricted.filesystem]
":root" = "read"
"/repo/private.txt" = "deny"
[restricted.network]
enabled = false
"#,
    )
    .unwrap();
    assert_eq!(
        profile,
        PermissionProfile {
            id: "restricted".to_string(),
            sandbox: SandboxPolicy::ReadOnly {
                access: ReadOnlyAccess::FullAccess,
                network_access: false,
            },
            denied_reads: vec![PathBuf::from("/repo/private.txt")],
        }
    );
}

#[test]
fn writes_make_a_workspace_write_policy_with_the_temporary_directories_asked_for() {
    let profile = resolve(
        "dev",
        r#"
[dev.filesystem]
":root" = "read"
":workspace_roots" = { "." = "write", "secrets" = "deny" }
"/scratch" = "write"
":tmpdir" = "write"
[dev.network]
enabled = true
"#,
    )
    .unwrap();
    assert_eq!(
        profile.sandbox,
        SandboxPolicy::WorkspaceWrite {
            writable_roots: vec![PathBuf::from("/scratch")],
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: true,
            exclude_tmpdir_env_var: false,
            exclude_slash_tmp: true,
        }
    );
    assert_eq!(profile.denied_reads, vec![PathBuf::from("/repo/secrets")]);
}

#[test]
fn built_in_profiles_are_the_sandbox_modes() {
    assert_eq!(
        resolve(":read-only", "").unwrap().sandbox,
        SandboxPolicy::new_read_only_policy()
    );
    assert_eq!(
        resolve(":danger-full-access", "").unwrap().sandbox,
        SandboxPolicy::DangerFullAccess
    );
}

#[test]
fn bad_profiles_name_what_is_wrong() {
    assert_eq!(
        resolve("missing", "").unwrap_err().to_string(),
        "default_permissions refers to undefined profile `missing`"
    );
    assert_eq!(
        resolve("p", "[p.filesystem]\n\"private.txt\" = \"deny\"\n")
            .unwrap_err()
            .to_string(),
        "permissions profile `p`: filesystem path `private.txt` must be absolute or start with `:`"
    );
    assert_eq!(
        resolve("p", "[p.filesystem]\n\"/repo/**/*.env\" = \"deny\"\n")
            .unwrap_err()
            .to_string(),
        "permissions profile `p`: glob `/repo/**/*.env` is not supported; name the path itself"
    );
    assert_eq!(
        resolve("p", "[\":mine\".filesystem]\n")
            .unwrap_err()
            .to_string(),
        "permissions profile `:mine` uses a reserved built-in profile prefix"
    );
    assert_eq!(
        resolve("p", "[p]\nextends = \":workspace\"\n")
            .unwrap_err()
            .to_string(),
        "permissions profile `p` extends `:workspace`: `extends` is not supported; list the \
         entries in the profile itself"
    );
}
