//! `[sandbox_workspace_write]` from config.toml and `-c`: the workspace-write policy it makes,
//! relative roots, per-key layering, and no effect under other sandbox modes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::ConfigOverrides;
use codex_config::SandboxWorkspaceWrite;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxMode;
use codex_protocol::SandboxPolicy;
use config_support::Fixture;
use pretty_assertions::assert_eq;

#[test]
fn the_table_in_config_toml_makes_the_workspace_write_policy() {
    let fixture = Fixture::new(Some(
        "sandbox_mode = \"workspace-write\"\n\n[sandbox_workspace_write]\n\
         writable_roots = [\"/data/shared\", \"cache\"]\nnetwork_access = true\n\
         exclude_tmpdir_env_var = true\nexclude_slash_tmp = true\n",
    ));
    let config = fixture.load().unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(
        config.sandbox_workspace_write,
        SandboxWorkspaceWrite {
            // A relative root is under the config file's folder.
            writable_roots: vec!["/data/shared".into(), fixture.codex_home().join("cache")],
            network_access: true,
            exclude_tmpdir_env_var: true,
            exclude_slash_tmp: true,
        }
    );
    assert_eq!(
        config.sandbox_policy(),
        SandboxPolicy::WorkspaceWrite {
            writable_roots: vec!["/data/shared".into(), fixture.codex_home().join("cache")],
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: true,
            exclude_tmpdir_env_var: true,
            exclude_slash_tmp: true,
        }
    );
}

#[test]
fn c_overrides_set_single_keys_over_the_file() {
    let fixture = Fixture::new(Some(
        "sandbox_mode = \"workspace-write\"\n[sandbox_workspace_write]\nnetwork_access = true\n\
         exclude_slash_tmp = true\n",
    ));
    let config = fixture
        .load_with(
            &ConfigOverrides::default(),
            &[
                "sandbox_workspace_write.writable_roots=[\"extra\"]",
                "sandbox_workspace_write.network_access=false",
            ],
        )
        .unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(
        config.sandbox_workspace_write,
        SandboxWorkspaceWrite {
            // A relative root given with `-c` is under the process's current directory.
            writable_roots: vec![fixture.cwd.path().join("extra")],
            network_access: false,
            exclude_tmpdir_env_var: false,
            exclude_slash_tmp: true,
        }
    );
}

#[test]
fn the_table_has_no_effect_under_other_modes() {
    let table = "[sandbox_workspace_write]\nwritable_roots = [\"/data\"]\nnetwork_access = true\n";
    for (mode, policy) in [
        ("read-only", SandboxPolicy::new_read_only_policy()),
        ("danger-full-access", SandboxPolicy::DangerFullAccess),
    ] {
        let fixture = Fixture::new(Some(&format!("sandbox_mode = \"{mode}\"\n{table}")));
        let config = fixture.load().unwrap();
        assert!(config.warnings.is_empty(), "{:?}", config.warnings);
        assert_eq!(config.sandbox_policy(), policy, "{mode}");
    }
    // Without the table, workspace-write is upstream's default policy.
    let fixture = Fixture::new(Some("sandbox_mode = \"workspace-write\"\n"));
    let config = fixture.load().unwrap();
    assert_eq!(config.sandbox_mode, SandboxMode::WorkspaceWrite);
    assert_eq!(
        config.sandbox_policy(),
        SandboxPolicy::new_workspace_write_policy()
    );
}

#[test]
fn a_value_of_the_wrong_type_names_the_key() {
    let fixture = Fixture::new(Some(
        "[sandbox_workspace_write]\nnetwork_access = \"yes\"\n",
    ));
    let error = fixture.load().unwrap_err().to_string();
    assert!(
        error.contains("sandbox_workspace_write.network_access"),
        "{error}"
    );
}
