use std::collections::BTreeMap;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::config_types::Personality;
use crate::models::BaseInstructionsProvenance;
use crate::protocol::AskForApproval;
use crate::protocol::SandboxPolicy;

/// Parses one JSONL line, writes it back and checks the bytes equal the literal's compact form.
fn assert_line_round_trips(literal: &str) -> RolloutLine {
    let line: RolloutLine = serde_json::from_str(literal).unwrap();
    let expected: serde_json::Value = serde_json::from_str(literal).unwrap();
    assert_eq!(
        serde_json::to_string(&line).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
    line
}

const SESSION_META_LINE: &str = r#"{"timestamp":"2026-11-30T07:02:04.628Z","type":"session_meta","payload":{
    "session_id":"01a2","id":"01a2","forked_from_id":"0199","parent_thread_id":"0198",
    "timestamp":"2026-11-30T07:02:04.557Z","cwd":"/sandbox/tmp7DBZ7U/nested/workspace",
    "originator":"codex_cli_rs","cli_version":"0.0.0",
    "source":{"subagent":{"thread_spawn":{"parent_thread_id":"0198","depth":1,"agent_path":null,"agent_nickname":"Sartre","agent_role":null}}},
    "thread_source":"subagent","agent_nickname":"Sartre","model_provider":"openai",
    "base_instructions":{"text":"You are Codex.","provenance":{"type":"model","model":"gpt-5.5"}},
    "history_mode":"legacy","multi_agent_version":"v1","context_window":{"window_id":"01a2-w"}}}"#;

#[test]
fn session_meta_line_round_trips() {
    let line = assert_line_round_trips(SESSION_META_LINE);
    let RolloutItem::SessionMeta(meta) = &line.item else {
        panic!("expected session_meta");
    };
    assert_eq!(meta.base_instructions_text(), Some("You are Codex."));
    assert_eq!(
        meta.base_instructions
            .as_ref()
            .and_then(|instructions| instructions.provenance.clone()),
        Some(BaseInstructionsProvenance::Model {
            model: "gpt-5.5".to_string()
        })
    );
    insta::assert_debug_snapshot!(meta);
}

#[test]
fn legacy_session_meta_keeps_instructions_string_and_unknown_keys() {
    let line = assert_line_round_trips(
        r#"{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"old","timestamp":"2025-01-01T00:00:00Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.1.0","instructions":"legacy text","git":{"commit_hash":"abc"},"future_key":[1]}}"#,
    );
    let RolloutItem::SessionMeta(meta) = &line.item else {
        panic!("expected session_meta");
    };
    assert_eq!(meta.base_instructions_text(), Some("legacy text"));
    assert_eq!(meta.extra.get("future_key"), Some(&json!([1])));
}

const TURN_CONTEXT_LINE: &str = r#"{"timestamp":"2026-11-30T07:02:04.671Z","ordinal":4,"type":"turn_context","payload":{
    "turn_id":"01a2-t","cwd":"/sandbox/tmpnrFFcR","workspace_roots":["/upstream/codex-rs/core"],
    "current_date":"2026-11-30","timezone":"Etc/UTC","approval_policy":"on-request","approvals_reviewer":"user",
    "sandbox_policy":{"type":"workspace-write","writable_roots":["/upstream/codex-rs/core"],"network_access":true,"exclude_tmpdir_env_var":true,"exclude_slash_tmp":true},
    "permission_profile":{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"}]},"network":"restricted"},
    "active_permission_profile":{"id":":read-only"},
    "file_system_sandbox_policy":{"kind":"restricted","entries":[]},
    "model":"gpt-5.5","comp_hash":"2911","personality":"friendly",
    "collaboration_mode":{"mode":"default","settings":{"model":"gpt-5.5","reasoning_effort":"high","developer_instructions":null}},
    "multi_agent_version":"v1","realtime_active":false,"effort":"high","summary":"auto"}}"#;

#[test]
fn turn_context_line_round_trips() {
    let line = assert_line_round_trips(TURN_CONTEXT_LINE);
    assert_eq!(line.ordinal, Some(4));
    let RolloutItem::TurnContext(context) = &line.item else {
        panic!("expected turn_context");
    };
    assert_eq!(context.approval_policy, AskForApproval::OnRequest);
    assert_eq!(context.personality, Some(Personality::Friendly));
    assert!(context.sandbox_policy.has_full_network_access());
    insta::assert_debug_snapshot!(context);
}

#[test]
fn minimal_turn_context_round_trips() {
    let line = assert_line_round_trips(
        r#"{"timestamp":"t","type":"turn_context","payload":{"cwd":"/w","approval_policy":"never","sandbox_policy":{"type":"danger-full-access"},"model":"o3","user_instructions":"be brief"}}"#,
    );
    let RolloutItem::TurnContext(context) = &line.item else {
        panic!("expected turn_context");
    };
    assert_eq!(context.sandbox_policy, SandboxPolicy::DangerFullAccess);
    assert_eq!(context.user_instructions.as_deref(), Some("be brief"));
}

#[test]
fn world_state_full_and_patch_round_trip() {
    let full = assert_line_round_trips(
        r#"{"timestamp":"t","type":"world_state","payload":{"full":true,"state":{"agents_md":{"directory":"/w","text":"doc"},"apps_instructions":false,"model":"gpt-5.5"}}}"#,
    );
    assert_eq!(
        full.item,
        RolloutItem::WorldState(WorldStateItem {
            full: true,
            state: BTreeMap::from([
                (
                    "agents_md".to_string(),
                    json!({"directory": "/w", "text": "doc"})
                ),
                ("apps_instructions".to_string(), json!(false)),
                ("model".to_string(), json!("gpt-5.5")),
            ]),
        })
    );
    assert_line_round_trips(
        r#"{"timestamp":"t","type":"world_state","payload":{"full":false,"state":{"realtime":null,"agents_md":{"directory":null,"text":"global"}}}}"#,
    );
}

#[test]
fn compacted_line_round_trips_with_replacement_history() {
    let line = assert_line_round_trips(
        r#"{"timestamp":"t","type":"compacted","payload":{"message":"summary",
            "replacement_history":[{"type":"message","id":"msg_1","role":"user","content":[{"type":"input_text","text":"hello"}],
                "internal_chat_message_metadata_passthrough":{"turn_id":"t1","create_time":1796022139.5562286}}],
            "replacement_history_metadata":[{"client_authored":false}],
            "window_number":1,"first_window_id":"w0","previous_window_id":"w0","window_id":"w1"}}"#,
    );
    let RolloutItem::Compacted(compacted) = &line.item else {
        panic!("expected compacted");
    };
    assert!(!compacted.is_legacy());
    assert_eq!(compacted.window_number(), Some(1));
    assert_eq!(compacted.window_id(), Some("w1"));
}

#[test]
fn legacy_compacted_reads_numeric_window_id_as_number() {
    let line = assert_line_round_trips(
        r#"{"timestamp":"t","type":"compacted","payload":{"message":"old summary","window_id":3}}"#,
    );
    let RolloutItem::Compacted(compacted) = &line.item else {
        panic!("expected compacted");
    };
    assert!(compacted.is_legacy());
    assert_eq!(compacted.window_number(), Some(3));
    assert_eq!(compacted.window_id(), None);
}

#[test]
fn response_item_line_keeps_sibling_metadata() {
    let line = assert_line_round_trips(
        r#"{"timestamp":"t","ordinal":9,"type":"response_item","payload":{"type":"function_call_output","id":"fco_1","call_id":"c","output":"ok"},"metadata":{"client_authored":true}}"#,
    );
    assert_eq!(
        line.extra.get("metadata"),
        Some(&json!({"client_authored": true}))
    );
}

#[test]
fn other_line_types_are_kept_raw() {
    let event = assert_line_round_trips(
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","started_at":1,"model_context_window":258400,"collaboration_mode_kind":"default"}}"#,
    );
    assert_eq!(event.item.event_msg_type(), Some("task_started"));
    assert_eq!(event.item.line_type(), "event_msg");

    let unknown = assert_line_round_trips(
        r#"{"timestamp":"t","type":"token_usage_record","payload":[1,{"b":null}]}"#,
    );
    assert_eq!(
        unknown.item,
        RolloutItem::Other {
            line_type: "token_usage_record".to_string(),
            payload: json!([1, {"b": null}]),
        }
    );
    assert_eq!(unknown.item.event_msg_type(), None);

    let unknown_item = assert_line_round_trips(
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"tool_search_call","call_id":null,"execution":"x","arguments":{}}}"#,
    );
    assert_eq!(
        unknown_item.item,
        RolloutItem::ResponseItem(ResponseItem::Other(json!({
            "type": "tool_search_call", "call_id": null, "execution": "x", "arguments": {}
        })))
    );
}

#[test]
fn malformed_known_payload_is_an_error_naming_the_line_type() {
    let error = serde_json::from_str::<RolloutLine>(
        r#"{"timestamp":"t","type":"world_state","payload":{"full":"yes","state":{}}}"#,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("invalid `world_state` payload:"),
        "{error}"
    );
    assert!(serde_json::from_str::<RolloutLine>(r#"{"timestamp":"t","type":"x"}"#).is_err());
}

#[test]
fn constructed_line_omits_absent_ordinal() {
    let line = RolloutLine::new(
        "2026-01-01T00:00:00.000Z",
        RolloutItem::WorldState(WorldStateItem::default()),
    );
    assert_eq!(
        serde_json::to_string(&line).unwrap(),
        r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"world_state","payload":{"full":false,"state":{}}}"#
    );
}

#[test]
fn a_world_state_patch_writes_its_removed_sections_first() {
    let patch = WorldStateItem {
        full: false,
        state: BTreeMap::from([
            (
                "collaboration_mode".to_string(),
                json!({"model": "gpt-5.4"}),
            ),
            ("model".to_string(), json!("gpt-5.4")),
            ("tools".to_string(), serde_json::Value::Null),
        ]),
    };
    assert_eq!(
        serde_json::to_string(&patch).unwrap(),
        r#"{"full":false,"state":{"tools":null,"collaboration_mode":{"model":"gpt-5.4"},"model":"gpt-5.4"}}"#
    );
    let full = WorldStateItem {
        full: true,
        ..patch
    };
    assert_eq!(
        serde_json::to_string(&full).unwrap(),
        r#"{"full":true,"state":{"collaboration_mode":{"model":"gpt-5.4"},"model":"gpt-5.4","tools":null}}"#
    );
}
