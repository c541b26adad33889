use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn assert_round_trips<T>(literal: &str) -> T
where
    T: Serialize + serde::de::DeserializeOwned,
{
    let value: T = serde_json::from_str(literal).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), literal);
    value
}

#[test]
fn sandbox_policy_shapes_round_trip() {
    assert_eq!(
        assert_round_trips::<SandboxPolicy>(r#"{"type":"danger-full-access"}"#),
        SandboxPolicy::DangerFullAccess
    );
    assert_eq!(
        assert_round_trips::<SandboxPolicy>(r#"{"type":"read-only"}"#),
        SandboxPolicy::new_read_only_policy()
    );
    assert_round_trips::<SandboxPolicy>(r#"{"type":"read-only","network_access":true}"#);
    assert_round_trips::<SandboxPolicy>(
        r#"{"type":"read-only","access":{"type":"restricted","include_platform_defaults":false,"readable_roots":["/r"]}}"#,
    );
    assert_round_trips::<SandboxPolicy>(
        r#"{"type":"external-sandbox","network_access":"enabled"}"#,
    );
    let workspace = assert_round_trips::<SandboxPolicy>(
        r#"{"type":"workspace-write","writable_roots":["/upstream/codex-rs/core","/sandbox/tmpnrFFcR"],"network_access":true,"exclude_tmpdir_env_var":true,"exclude_slash_tmp":true}"#,
    );
    assert_eq!(
        workspace,
        SandboxPolicy::WorkspaceWrite {
            writable_roots: vec![
                PathBuf::from("/upstream/codex-rs/core"),
                PathBuf::from("/sandbox/tmpnrFFcR")
            ],
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: true,
            exclude_tmpdir_env_var: true,
            exclude_slash_tmp: true,
        }
    );
    assert_eq!(
        serde_json::to_string(&SandboxPolicy::new_workspace_write_policy()).unwrap(),
        r#"{"type":"workspace-write","network_access":false,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":false}"#
    );
}

#[test]
fn restricted_read_access_defaults_to_platform_defaults() {
    let access: ReadOnlyAccess = serde_json::from_value(json!({"type": "restricted"})).unwrap();
    assert_eq!(
        access,
        ReadOnlyAccess::Restricted {
            include_platform_defaults: true,
            readable_roots: Vec::new(),
        }
    );
}

#[test]
fn sandbox_policy_display_and_from_str() {
    let policy: SandboxPolicy = r#"{"type":"external-sandbox"}"#.parse().unwrap();
    assert_eq!(
        policy,
        SandboxPolicy::ExternalSandbox {
            network_access: NetworkAccess::Restricted
        }
    );
    assert_eq!(policy.to_string(), "external-sandbox");
    assert_eq!(
        SandboxMode::ALL
            .iter()
            .map(|mode| SandboxPolicy::from_mode(*mode).mode())
            .collect::<Vec<_>>(),
        SandboxMode::ALL.to_vec()
    );
}

#[test]
fn network_access_helpers() {
    assert!(SandboxPolicy::DangerFullAccess.has_full_network_access());
    assert!(!SandboxPolicy::new_read_only_policy().has_full_network_access());
    assert_eq!(
        SandboxPolicy::new_workspace_write_policy()
            .network_access()
            .to_string(),
        "restricted"
    );
    assert_eq!(
        SandboxPolicy::ExternalSandbox {
            network_access: NetworkAccess::Enabled
        }
        .network_access(),
        NetworkAccess::Enabled
    );
    assert_eq!(
        "enabled".parse::<NetworkAccess>().unwrap(),
        NetworkAccess::Enabled
    );
}

#[test]
fn workspace_write_roots_follow_exclusions() {
    let temporary_directories = TemporaryDirectories {
        slash_tmp: Some(PathBuf::from("/tmp")),
        tmpdir: Some(PathBuf::from("/var/tmp/user")),
    };
    let cwd = PathBuf::from("/work/repo");
    let policy = SandboxPolicy::WorkspaceWrite {
        writable_roots: vec![PathBuf::from("/extra")],
        read_only_access: ReadOnlyAccess::FullAccess,
        network_access: false,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: false,
    };
    assert_eq!(
        policy.writable_roots(&cwd, &temporary_directories),
        vec![
            PathBuf::from("/extra"),
            PathBuf::from("/work/repo"),
            PathBuf::from("/tmp"),
            PathBuf::from("/var/tmp/user"),
        ]
    );
    let excluded = SandboxPolicy::WorkspaceWrite {
        writable_roots: Vec::new(),
        read_only_access: ReadOnlyAccess::FullAccess,
        network_access: false,
        exclude_tmpdir_env_var: true,
        exclude_slash_tmp: true,
    };
    assert_eq!(
        excluded.writable_roots(&cwd, &temporary_directories),
        vec![PathBuf::from("/work/repo")]
    );
    assert_eq!(
        SandboxPolicy::DangerFullAccess.writable_roots(&cwd, &temporary_directories),
        Vec::<PathBuf>::new()
    );
}

#[test]
fn approval_policy_spellings() {
    for (literal, policy) in [
        ("untrusted", AskForApproval::UnlessTrusted),
        ("on-request", AskForApproval::OnRequest),
        ("never", AskForApproval::Never),
    ] {
        assert_eq!(serde_json::to_value(policy).unwrap(), json!(literal));
        assert_eq!(
            serde_json::from_value::<AskForApproval>(json!(literal)).unwrap(),
            policy
        );
        assert_eq!(literal.parse::<AskForApproval>().unwrap(), policy);
        assert_eq!(policy.to_string(), literal);
    }
    assert_eq!(
        serde_json::from_value::<AskForApproval>(json!("on-failure")).unwrap(),
        AskForApproval::OnRequest
    );
    assert_eq!(
        "on-failure".parse::<AskForApproval>().unwrap(),
        AskForApproval::OnRequest
    );
    assert!("granular".parse::<AskForApproval>().is_err());
    assert_eq!(AskForApproval::default(), AskForApproval::OnRequest);
}

#[test]
fn untrusted_is_read_but_not_choosable_and_messages_list_the_choosable_names() {
    let granular = AskForApproval::Granular(GranularApprovalConfig {
        sandbox_approval: true,
        rules: true,
        skill_approval: true,
        request_permissions: true,
        mcp_elicitations: true,
    });
    // Every variant, matched exhaustively so a new one must be placed.
    let choosable: Vec<AskForApproval> = [
        AskForApproval::UnlessTrusted,
        AskForApproval::OnRequest,
        granular,
        AskForApproval::Never,
    ]
    .into_iter()
    .filter(|policy| match policy {
        AskForApproval::UnlessTrusted
        | AskForApproval::OnRequest
        | AskForApproval::Granular(_)
        | AskForApproval::Never => policy.is_choosable(),
    })
    .collect();
    assert_eq!(
        choosable,
        vec![AskForApproval::OnRequest, granular, AskForApproval::Never]
    );
    // The named ones are exactly CHOOSABLE.
    assert_eq!(
        choosable
            .into_iter()
            .filter(|policy| !matches!(policy, AskForApproval::Granular(_)))
            .collect::<Vec<_>>(),
        AskForApproval::CHOOSABLE.to_vec()
    );
    assert_eq!(
        (
            AskForApproval::UnlessTrusted
                .choosable()
                .unwrap_err()
                .to_string(),
            "sometimes"
                .parse::<AskForApproval>()
                .unwrap_err()
                .to_string(),
        ),
        (
            "approval policy `untrusted` is no longer supported (expected one of: on-request, \
             never)"
                .to_string(),
            "unknown approval policy `sometimes` (expected one of: on-request, never)".to_string(),
        )
    );
    // A flag takes exactly the choosable names, as upstream's `--ask-for-approval` does.
    let choices: Vec<String> = ["on-request", "never", "untrusted", "on-failure", "granular"]
        .into_iter()
        .map(|name| match AskForApproval::from_choice(name) {
            Ok(policy) => format!("ok {policy}"),
            Err(error) => error.to_string(),
        })
        .collect();
    assert_eq!(
        choices,
        vec![
            "ok on-request".to_string(),
            "ok never".to_string(),
            "approval policy `untrusted` is no longer supported (expected one of: on-request, \
             never)"
                .to_string(),
            "unknown approval policy `on-failure` (expected one of: on-request, never)".to_string(),
            "unknown approval policy `granular` (expected one of: on-request, never)".to_string(),
        ]
    );
}

#[test]
fn granular_approval_round_trips_with_defaults() {
    let parsed: AskForApproval = serde_json::from_value(json!({
        "granular": {"sandbox_approval": true, "rules": false, "mcp_elicitations": true}
    }))
    .unwrap();
    let expected = AskForApproval::Granular(GranularApprovalConfig {
        sandbox_approval: true,
        rules: false,
        skill_approval: false,
        request_permissions: false,
        mcp_elicitations: true,
    });
    assert_eq!(parsed, expected);
    assert_eq!(
        serde_json::to_string(&expected).unwrap(),
        r#"{"granular":{"sandbox_approval":true,"rules":false,"skill_approval":false,"request_permissions":false,"mcp_elicitations":true}}"#
    );
    assert_eq!(expected.to_string(), "granular");
}
