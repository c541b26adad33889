//! Named permission profiles from config.toml and `-c`: the profile selected, the sandbox policy
//! and denied reads it compiles to, errors naming the key, and AGENTS.md discovery refusing a
//! project doc the profile denies.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use std::path::PathBuf;
use std::sync::Arc;

use codex_config::AgentsMdError;
use codex_config::ConfigOverrides;
use codex_config::LocalFileSystem;
use codex_config::PermissionProfile;
use codex_config::SettingSource;
use codex_config::discover_agents_md_blocking;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxMode;
use codex_protocol::SandboxPolicy;
use config_support::Fixture;
use pretty_assertions::assert_eq;

const PROFILES: &str = r#"
sandbox_mode = "danger-full-access"
default_permissions = "restricted"

[permissions.restricted.filesystem]
":root" = "read"
"/srv/secrets" = "deny"

[permissions.restricted.network]
enabled = false

[permissions.dev.filesystem]
":root" = "read"
":workspace_roots" = { "." = "write" }
"/scratch" = "write"
":slash_tmp" = "write"

[permissions.dev.network]
enabled = true
"#;

#[test]
fn config_toml_selects_a_profile_that_replaces_the_sandbox_mode() {
    let config = Fixture::new(Some(PROFILES)).load().unwrap();
    assert_eq!(
        config.permission_profile,
        Some(PermissionProfile {
            id: "restricted".to_string(),
            sandbox: SandboxPolicy::ReadOnly {
                access: ReadOnlyAccess::FullAccess,
                network_access: false,
            },
            denied_reads: vec![PathBuf::from("/srv/secrets")],
        })
    );
    assert_eq!(config.sandbox_mode, SandboxMode::ReadOnly);
    assert_eq!(config.sandbox_mode_source, SettingSource::Configured);
    assert_eq!(
        config.sandbox_policy(),
        SandboxPolicy::new_read_only_policy()
    );
    assert_eq!(config.denied_reads(), [PathBuf::from("/srv/secrets")]);
    assert_eq!(
        config.project_doc_options().denied_reads,
        vec![PathBuf::from("/srv/secrets")]
    );
}

#[test]
fn dash_c_selects_and_extends_profiles() {
    let fixture = Fixture::new(Some(PROFILES));
    let config = fixture
        .load_with(
            &ConfigOverrides::default(),
            &[
                "default_permissions=dev",
                "permissions.dev.filesystem.\"/tmp/extra\"=\"write\"",
            ],
        )
        .unwrap();
    assert_eq!(
        config.sandbox_policy(),
        SandboxPolicy::WorkspaceWrite {
            writable_roots: vec![PathBuf::from("/scratch"), PathBuf::from("/tmp/extra")],
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: true,
            exclude_tmpdir_env_var: true,
            exclude_slash_tmp: false,
        }
    );
    assert!(config.denied_reads().is_empty());
    let built_in = fixture
        .load_with(
            &ConfigOverrides::default(),
            &["default_permissions=:danger-full-access"],
        )
        .unwrap();
    assert_eq!(built_in.sandbox_policy(), SandboxPolicy::DangerFullAccess);
}

#[test]
fn an_unknown_profile_is_an_error_naming_the_key_and_its_origin() {
    let fixture = Fixture::new(Some(PROFILES));
    let error = fixture
        .load_with(&ConfigOverrides::default(), &["default_permissions=nope"])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "-c default_permissions=nope: key `default_permissions`: default_permissions refers to \
         undefined profile `nope`"
    );
}

#[test]
fn a_denied_project_doc_fails_discovery() {
    let home = tempfile::tempdir().unwrap();
    let fixture = Fixture::new(None);
    let agents = fixture.cwd.path().join("AGENTS.md");
    std::fs::write(&agents, "project instructions").unwrap();
    let toml = format!(
        "default_permissions = \"p\"\nproject_root_markers = []\n\
         [permissions.p.filesystem]\n\":root\" = \"read\"\n\"{}\" = \"deny\"\n",
        agents.display()
    );
    std::fs::write(fixture.config_path(), toml).unwrap();
    let config = fixture.load().unwrap();
    let mut request = config.agents_md_request("");
    request.codex_home = Some(home.path().to_path_buf());
    let error = discover_agents_md_blocking(&request, Arc::new(LocalFileSystem)).unwrap_err();
    assert!(matches!(error, AgentsMdError::ReadDenied { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "failed to load AGENTS.md instructions for environment `local`: reading `{}` is \
             denied by the permission profile",
            agents.display()
        )
    );
}
