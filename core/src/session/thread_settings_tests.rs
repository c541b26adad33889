use std::path::PathBuf;

use codex_protocol::AskForApproval;
use codex_protocol::NetworkAccess;
use codex_protocol::Personality;
use codex_protocol::ReadOnlyAccess;
use codex_protocol::ReasoningEffort;
use codex_protocol::ReasoningSummary;
use codex_protocol::SandboxPolicy;
use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn turn(policy: SandboxPolicy) -> TurnContext {
    let mut turn = TurnContext::for_model("t", "u", ModelInfo::with_defaults("gpt-x"), "/w");
    turn.sandbox_policy = policy;
    turn
}

fn profile_of(turn: &TurnContext) -> Value {
    thread_settings_applied("thread", turn).expect("payload")["thread_settings"]["permission_profile"].clone()
}

#[test]
fn default_settings_as_upstream_writes_them() {
    let mut turn = turn(SandboxPolicy::new_read_only_policy());
    turn.personality = Some(Personality::Pragmatic);
    assert_eq!(
        thread_settings_applied("thread", &turn).expect("payload"),
        json!({
            "type": "thread_settings_applied",
            "thread_settings": {
                "model": "gpt-x",
                "model_provider_id": "openai",
                "approval_policy": "on-request",
                "approvals_reviewer": "user",
                "permission_profile": {
                    "type": "managed",
                    "file_system": {"type": "restricted", "entries": [
                        {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}
                    ]},
                    "network": "restricted"
                },
                "active_permission_profile": {"id": ":read-only"},
                "cwd": "/w",
                "personality": "pragmatic",
                "collaboration_mode": {
                    "mode": "default",
                    "settings": {"model": "gpt-x", "reasoning_effort": null, "developer_instructions": null}
                }
            }
        })
    );
}

#[test]
fn configured_reasoning_is_written_and_key_order_is_upstreams() {
    let mut turn = turn(SandboxPolicy::DangerFullAccess);
    turn.approval_policy = AskForApproval::Never;
    turn.reasoning_effort = Some(ReasoningEffort::High);
    turn.reasoning_summary = Some(ReasoningSummary::Detailed);
    let payload = thread_settings_applied("thread", &turn).expect("payload");
    let keys: Vec<&str> = payload["thread_settings"]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "model",
            "model_provider_id",
            "approval_policy",
            "approvals_reviewer",
            "permission_profile",
            "cwd",
            "reasoning_effort",
            "reasoning_summary",
            "collaboration_mode",
        ]
    );
    assert_eq!(
        (
            &payload["thread_settings"]["approval_policy"],
            &payload["thread_settings"]["permission_profile"],
            &payload["thread_settings"]["reasoning_effort"],
            &payload["thread_settings"]["reasoning_summary"],
        ),
        (
            &json!("never"),
            &json!({"type": "disabled"}),
            &json!("high"),
            &json!("detailed"),
        )
    );
}

#[test]
fn workspace_write_grants_the_cwd_and_roots_and_protects_metadata_folders() {
    let turn = turn(SandboxPolicy::WorkspaceWrite {
        writable_roots: vec![PathBuf::from("/extra")],
        read_only_access: ReadOnlyAccess::FullAccess,
        network_access: true,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: true,
    });
    let protected = |folder: &str| json!({"path": {"type": "path", "path": format!("/w/{folder}")}, "access": "read", "missing_path_behavior": "skip"});
    assert_eq!(
        profile_of(&turn),
        json!({
            "type": "managed",
            "file_system": {"type": "restricted", "entries": [
                {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"},
                {"path": {"type": "path", "path": "/w"}, "access": "write"},
                {"path": {"type": "path", "path": "/extra"}, "access": "write"},
                {"path": {"type": "special", "value": {"kind": "tmpdir"}}, "access": "write"},
                protected(".git"),
                protected(".agents"),
                protected(".codex"),
            ]},
            "network": "enabled"
        })
    );
}

#[test]
fn restricted_reads_and_outside_sandboxes() {
    let restricted = turn(SandboxPolicy::ReadOnly {
        access: ReadOnlyAccess::Restricted {
            include_platform_defaults: true,
            readable_roots: vec![PathBuf::from("/docs")],
        },
        network_access: false,
    });
    let external = turn(SandboxPolicy::ExternalSandbox {
        network_access: NetworkAccess::Enabled,
    });
    assert_eq!(
        (profile_of(&restricted), profile_of(&external)),
        (
            json!({
                "type": "managed",
                "file_system": {"type": "restricted", "entries": [
                    {"path": {"type": "special", "value": {"kind": "minimal"}}, "access": "read"},
                    {"path": {"type": "path", "path": "/docs"}, "access": "read"},
                ]},
                "network": "restricted"
            }),
            json!({"type": "external", "network": "enabled"}),
        )
    );
}

#[test]
fn release_0_171_names_the_thread_its_roots_and_plugins_and_no_personality() {
    let mut turn = turn(SandboxPolicy::new_read_only_policy());
    turn.release = codex_release::CodexRelease::V0_171;
    turn.personality = Some(Personality::Pragmatic);
    let payload = thread_settings_applied("thread-1", &turn).expect("payload");
    assert_eq!(
        serde_json::to_string(&payload).expect("text"),
        serde_json::to_string(&json!({
            "type": "thread_settings_applied",
            "thread_id": "thread-1",
            "thread_settings": {
                "model": "gpt-x",
                "model_provider_id": "openai",
                "approval_policy": "on-request",
                "approvals_reviewer": "user",
                "requested_approvals_reviewer": "user",
                "permission_profile": {
                    "type": "managed",
                    "file_system": {"type": "restricted", "entries": [
                        {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}
                    ]},
                    "network": "restricted"
                },
                "active_permission_profile": {"id": ":read-only"},
                "cwd": "/w",
                "runtime_workspace_roots": ["/w"],
                "collaboration_mode": {
                    "mode": "default",
                    "settings": {"model": "gpt-x", "reasoning_effort": null, "developer_instructions": null}
                },
                "disabled_plugin_ids": []
            }
        }))
        .expect("text")
    );
}
