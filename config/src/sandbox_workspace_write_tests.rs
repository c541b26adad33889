use super::*;
use pretty_assertions::assert_eq;

#[test]
fn a_higher_layer_wins_per_key() {
    let lower = SandboxWorkspaceWriteToml {
        writable_roots: Some(vec!["/a".into()]),
        network_access: Some(true),
        exclude_tmpdir_env_var: None,
        exclude_slash_tmp: Some(true),
    };
    let higher = SandboxWorkspaceWriteToml {
        network_access: Some(false),
        exclude_tmpdir_env_var: Some(true),
        ..SandboxWorkspaceWriteToml::default()
    };
    assert_eq!(
        lower.overlay(higher).resolve(),
        SandboxWorkspaceWrite {
            writable_roots: vec!["/a".into()],
            network_access: false,
            exclude_tmpdir_env_var: true,
            exclude_slash_tmp: true,
        }
    );
}

#[test]
fn nothing_set_is_the_default_workspace_write_policy() {
    assert_eq!(
        SandboxWorkspaceWriteToml::default().resolve().policy(),
        SandboxPolicy::new_workspace_write_policy()
    );
}
