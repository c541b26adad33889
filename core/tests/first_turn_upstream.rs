//! Our first-turn bodies against upstream's captured first requests (needs
//! `CODEX_UPSTREAM_FIXTURES`): from an equivalent configuration, the same top-level fields in the
//! same order, the same items with the same roles, the same number of content entries per item
//! and the same marker opening each entry. Prose differs by design.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

mod first_turn_support;

use std::path::PathBuf;

use codex_config::AgentsMdDiscovery;
use codex_config::ConfigOverrides;
use codex_config::EnvironmentRole;
use codex_config::ProjectDoc;
use codex_core::BaseInstructionsOverrides;
use codex_core::FirstTurn;
use codex_core::FirstTurnOptions;
use codex_core::TurnContext;
use codex_protocol::AskForApproval;
use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::Personality;
use codex_protocol::SandboxMode;
use codex_protocol::openai_models::ReasoningEffort;
use first_turn_support::first_turn;
use first_turn_support::global_agents_md;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
use pretty_assertions::assert_eq;
use serde_json::Value;

fn captured_first_request(scenario: &str) -> Value {
    let path = upstream_fixtures::captures()
        .join(scenario)
        .join("request-01.json");
    let text = std::fs::read_to_string(&path).expect("captured request");
    serde_json::from_str(&text).expect("captured JSON")
}

/// What an entry opens with: its tag (`<permissions instructions>`), the AGENTS.md header
/// (with ` for` when it names a directory), or the literal text of a plain entry.
fn entry_marker(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("# AGENTS.md instructions") {
        return if rest.starts_with(" for ") {
            "# AGENTS.md instructions for".to_string()
        } else {
            "# AGENTS.md instructions".to_string()
        };
    }
    if text.starts_with('<')
        && let Some(end) = text.find('>')
    {
        return text[..=end].to_string();
    }
    format!("text:{text}")
}

/// `type/role: [markers]` per input item.
fn structure(body: &Value) -> Vec<String> {
    body["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let markers: Vec<String> = item["content"]
                .as_array()
                .map(|content| {
                    content
                        .iter()
                        .map(|entry| entry_marker(entry["text"].as_str().unwrap_or("")))
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "{}/{}: {markers:?}",
                item["type"].as_str().unwrap_or("?"),
                item["role"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

fn keys(body: &Value) -> Vec<String> {
    body.as_object().unwrap().keys().cloned().collect()
}

/// Item-level keys of every input item, in order (ids and metadata included).
fn item_keys(body: &Value) -> Vec<Vec<String>> {
    body["input"].as_array().unwrap().iter().map(keys).collect()
}

fn assert_same_shape(scenario: &str, ours: &FirstTurn, captured: &Value) {
    let ours = serde_json::to_value(&ours.request).unwrap();
    assert_eq!(keys(&ours), keys(captured), "{scenario}: top-level keys");
    assert_eq!(structure(&ours), structure(captured), "{scenario}: items");
    assert_eq!(
        item_keys(&ours),
        item_keys(captured),
        "{scenario}: item keys"
    );
    for field in [
        "tool_choice",
        "parallel_tool_calls",
        "store",
        "stream",
        "include",
        "reasoning",
        "text",
    ] {
        assert_eq!(
            ours.get(field),
            captured.get(field),
            "{scenario}: `{field}`"
        );
    }
    assert_eq!(
        keys(&ours["client_metadata"])
            .iter()
            .collect::<std::collections::BTreeSet<_>>(),
        keys(&captured["client_metadata"]).iter().collect(),
        "{scenario}: client_metadata keys"
    );
}

fn upstream_flags(model: &str) -> ConfigOverrides {
    ConfigOverrides {
        model: Some(model.to_string()),
        personality: Some(Personality::Pragmatic),
        approval_policy: Some(AskForApproval::OnRequest),
        sandbox_mode: Some(SandboxMode::ReadOnly),
        ..pinned_flags()
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn prompt_caching_first_request_has_upstream_structure() {
    let scenario =
        "prompt_caching.prefixes_context_and_instructions_once_and_consistently_across_requests";
    let captured = captured_first_request(scenario);
    let config = load_config(&upstream_flags("gpt-5.5"), None);
    let (_, first) = first_turn(
        &config,
        Some(global_agents_md("be consistent and helpful")),
        |_| {},
        FirstTurnOptions {
            user_message: Some("hello 1"),
            ..FirstTurnOptions::default()
        },
    );
    assert_same_shape(scenario, &first, &captured);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn project_doc_chain_first_request_has_upstream_structure() {
    let scenario = "agents_md.agents_docs_are_concatenated_from_project_root_to_cwd";
    let captured = captured_first_request(scenario);
    let cwd = "/work/project/nested/workspace";
    let config = load_config(
        &ConfigOverrides {
            cwd: Some(cwd.into()),
            approval_policy: Some(AskForApproval::Never),
            sandbox_mode: Some(SandboxMode::DangerFullAccess),
            ..upstream_flags("gpt-5.5")
        },
        None,
    );
    let doc = |path: &str, text: &str| ProjectDoc {
        path: PathBuf::from(path),
        text: text.to_string(),
        bytes_used: text.len(),
        truncated_bytes: 0,
        environment_id: "local".to_string(),
        environment_cwd: PathBuf::from(cwd),
        environment_role: EnvironmentRole::Primary,
    };
    let discovery = AgentsMdDiscovery {
        project_docs: vec![
            doc("/work/project/AGENTS.md", "root doc"),
            doc("/work/project/nested/workspace/AGENTS.md", "child doc"),
        ],
        primary_cwd: Some(PathBuf::from(cwd)),
        ..AgentsMdDiscovery::default()
    };
    let (_, first) = first_turn(
        &config,
        Some(discovery),
        |_| {},
        FirstTurnOptions {
            user_message: Some("hello"),
            ..FirstTurnOptions::default()
        },
    );
    assert_same_shape(scenario, &first, &captured);
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn model_switch_before_the_first_turn_has_upstream_structure() {
    let scenario = "prompt_caching.override_before_first_turn_emits_environment_context";
    let captured = captured_first_request(scenario);
    let config = load_config(
        &ConfigOverrides {
            approval_policy: Some(AskForApproval::Never),
            ..upstream_flags("gpt-5.4")
        },
        None,
    );
    let switch_from_gpt_5_5 = |turn: &mut TurnContext| {
        // The thread was created on gpt-5.5, then switched to gpt-5.4 before its first turn:
        // the base instructions stay gpt-5.5's.
        let created_on = BaseInstructions {
            text: "instructions rendered for gpt-5.5".to_string(),
            provenance: Some(BaseInstructionsProvenance::Model {
                model: "gpt-5.5".to_string(),
            }),
        };
        turn.resolve_base_instructions(BaseInstructionsOverrides {
            configured: Some(&created_on),
            recorded: None,
        });
        turn.reasoning_effort = Some(ReasoningEffort::High);
    };
    let (_, first) = first_turn(
        &config,
        None,
        switch_from_gpt_5_5,
        FirstTurnOptions {
            user_message: Some("first message"),
            ..FirstTurnOptions::default()
        },
    );
    assert_same_shape(scenario, &first, &captured);
}
