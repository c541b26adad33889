use codex_protocol::SandboxPolicy;
use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;

fn payload(policy: SandboxPolicy, comp_hash: Option<&str>) -> Value {
    let mut model = ModelInfo::with_defaults("gpt-x");
    model.comp_hash = comp_hash.map(str::to_string);
    let mut turn = TurnContext::for_model("t", "u", model, "/w");
    turn.sandbox_policy = policy;
    turn.timezone = "Etc/UTC".to_string();
    turn.current_date = "2026-11-30".to_string();
    serde_json::to_value(turn_context_item(&turn)).expect("payload")
}

#[test]
fn read_only_turn_names_the_built_in_profile_in_upstreams_key_order() {
    let payload = payload(SandboxPolicy::new_read_only_policy(), Some("2911"));
    assert_eq!(
        serde_json::to_string(&payload).expect("text"),
        serde_json::to_string(&json!({
            "turn_id": "u",
            "cwd": "/w",
            "workspace_roots": ["/w"],
            "current_date": "2026-11-30",
            "timezone": "Etc/UTC",
            "approval_policy": "on-request",
            "approvals_reviewer": "user",
            "sandbox_policy": {"type": "read-only"},
            "permission_profile": {
                "type": "managed",
                "file_system": {"type": "restricted", "entries": [
                    {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}
                ]},
                "network": "restricted"
            },
            "active_permission_profile": {"id": ":read-only"},
            "model": "gpt-x",
            "comp_hash": "2911",
            "collaboration_mode": {
                "mode": "default",
                "settings": {"model": "gpt-x", "reasoning_effort": null, "developer_instructions": null}
            },
            "multi_agent_version": "v1",
            "realtime_active": false,
            "summary": "auto"
        }))
        .expect("text")
    );
}

#[test]
fn full_access_turn_has_a_disabled_profile_and_no_active_one() {
    let payload = payload(SandboxPolicy::DangerFullAccess, None);
    assert_eq!(
        (
            &payload["permission_profile"],
            payload.get("active_permission_profile"),
            payload.get("comp_hash"),
        ),
        (&json!({"type": "disabled"}), None, None)
    );
}

#[test]
fn release_0_171_records_the_root_turn_and_plugins_without_date_or_personality() {
    let mut turn = TurnContext::for_model("t", "u", ModelInfo::with_defaults("gpt-x"), "/w");
    turn.release = codex_release::CodexRelease::V0_171;
    turn.personality = Some(codex_protocol::Personality::Pragmatic);
    let payload = serde_json::to_value(turn_context_item(&turn)).expect("payload");
    assert_eq!(
        serde_json::to_string(&payload).expect("text"),
        serde_json::to_string(&json!({
            "turn_id": "u",
            "root_turn_id": "u",
            "disabled_plugin_ids": [],
            "cwd": "/w",
            "approval_policy": "on-request",
            "approvals_reviewer": "user",
            "sandbox_policy": {"type": "read-only"},
            "permission_profile": {
                "type": "managed",
                "file_system": {"type": "restricted", "entries": [
                    {"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}
                ]},
                "network": "restricted"
            },
            "active_permission_profile": {"id": ":read-only"},
            "model": "gpt-x",
            "collaboration_mode": {
                "mode": "default",
                "settings": {"model": "gpt-x", "reasoning_effort": null, "developer_instructions": null}
            },
            "multi_agent_version": "v1",
            "realtime_active": false,
            "summary": "none"
        }))
        .expect("text")
    );
}

/// Only workspace roots that are paths of this host are recorded; none (foreign roots only, or
/// no environment) leaves the field out, as upstream's `turn_context` does.
#[cfg(not(windows))]
#[test]
fn workspace_roots_record_the_host_roots_of_the_primary_environment() {
    let mut turn = TurnContext::for_model("t", "u", ModelInfo::with_defaults("gpt-x"), "/w");
    let recorded = |turn: &TurnContext| turn_context_item(turn).workspace_roots;
    assert_eq!(recorded(&turn), Some(vec![std::path::PathBuf::from("/w")]));
    turn.environments[0].workspace_roots = vec![r"C:\workspace".to_string(), "/srv".to_string()];
    assert_eq!(
        recorded(&turn),
        Some(vec![std::path::PathBuf::from("/srv")])
    );
    turn.environments[0].workspace_roots = vec![r"C:\workspace".to_string()];
    assert_eq!(recorded(&turn), None);
    turn.environments.clear();
    assert_eq!(recorded(&turn), None);
}
