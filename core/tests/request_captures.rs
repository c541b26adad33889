//! Our request bodies against upstream's captured ones (ignored; `-- --ignored` runs them with
//! `CODEX_UPSTREAM_FIXTURES` pointing at the upstream material).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod request_support;
#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::collections::BTreeSet;

use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::ParallelToolCalls;
use codex_core::ResponsesRequest;
use codex_core::ResponsesRequestInputs;
use codex_core::build_responses_request;
use codex_core::builtin_tools;
use codex_core::stamp_recorded_item;
use codex_protocol::ContentItem;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use codex_protocol::WebSearchMode;
use pretty_assertions::assert_eq;
use request_support::SessionIds;
use request_support::captured_requests;
use request_support::first_turn_input;
use request_support::seeded;
use request_support::standard_model;
use request_support::top_level_keys;
use request_support::validator::validate_create_response;
use serde_json::Value;

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn our_bodies_have_upstreams_top_level_fields_in_order() {
    let captures = upstream_fixtures::captures();
    let requests = captured_requests(&captures);
    assert!(requests.len() >= 100, "expected the 108 captured bodies");
    for (path, theirs) in requests {
        // The same kind of request: a non-Lite model whose verbosity support matches (`text` is
        // present exactly when it is), with or without tools.
        let mut model = standard_model();
        model.support_verbosity = theirs.get("text").is_some();
        let ids = seeded(1);
        let session = SessionIds::draw(&ids);
        let input = first_turn_input(&ids, &session.turn_id);
        let tools = if theirs["tools"].as_array().is_some_and(Vec::is_empty) {
            Vec::new()
        } else {
            builtin_tools(
                &BuiltinToolsConfig::for_model(&model, WebSearchMode::Cached, &Features::default()),
                &codex_prompts::TemplateSet::embedded(),
            )
            .expect("tools")
        };
        let mut inputs =
            ResponsesRequestInputs::new(&model, "base", &input, &tools, &session.thread_id);
        inputs.client_metadata = Some(session.client_metadata(&ids));
        if theirs["parallel_tool_calls"] == Value::Bool(false) {
            inputs.parallel_tool_calls = ParallelToolCalls::Disallowed;
        }
        let ours = serde_json::to_value(build_responses_request(inputs).expect("request")).unwrap();
        assert_eq!(
            top_level_keys(&ours),
            top_level_keys(&theirs),
            "{}",
            path.display()
        );
        assert_eq!(ours["parallel_tool_calls"], theirs["parallel_tool_calls"]);
        assert_eq!(ours["include"], theirs["include"]);
        assert_eq!(ours["store"], theirs["store"]);
        assert_eq!(ours["stream"], theirs["stream"]);
        assert_eq!(ours["tool_choice"], theirs["tool_choice"]);
        let client_keys = |body: &Value| -> BTreeSet<String> {
            body["client_metadata"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        if theirs["client_metadata"].get("parent_turn_id").is_none()
            && theirs["client_metadata"].get("root_turn_id").is_some()
        {
            assert_eq!(
                client_keys(&ours),
                client_keys(&theirs),
                "{}",
                path.display()
            );
        }
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn captured_bodies_parse_into_our_types_and_serialize_back_unchanged() {
    let captures = upstream_fixtures::captures();
    for (path, theirs) in captured_requests(&captures) {
        assert_eq!(
            validate_create_response(&theirs),
            Ok(()),
            "{}",
            path.display()
        );
        let parsed: ResponsesRequest =
            serde_json::from_value(theirs.clone()).expect("capture parses as ResponsesRequest");
        let ours = serde_json::to_value(&parsed).unwrap();
        assert_eq!(top_level_keys(&ours), top_level_keys(&theirs));
        // Text comparison, so key order inside items and tools counts.
        for field in ["input", "tools", "reasoning", "text"] {
            assert_eq!(
                serde_json::to_string_pretty(&ours[field]).unwrap(),
                serde_json::to_string_pretty(&theirs[field]).unwrap(),
                "{field} of {}",
                path.display()
            );
        }
        // Upstream's client_metadata comes from a hash map; only the entries must agree.
        assert_eq!(ours["client_metadata"], theirs["client_metadata"]);
    }
}

/// The part of an item's shape the id conventions decide: its kind (`type/role`), its keys
/// (`namespace` aside, which only some tools have) and its metadata keys.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ItemShape {
    kind: String,
    keys: Vec<String>,
    metadata_keys: Vec<String>,
}

fn item_shape(item: &Value) -> ItemShape {
    let keys = |value: &Value| -> Vec<String> {
        value
            .as_object()
            .map(|object| {
                object
                    .keys()
                    .filter(|key| *key != "namespace")
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    ItemShape {
        kind: format!(
            "{}/{}",
            item["type"].as_str().unwrap_or(""),
            item["role"].as_str().unwrap_or("")
        ),
        keys: keys(item),
        metadata_keys: keys(&item["internal_chat_message_metadata_passthrough"]),
    }
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn stamped_items_carry_the_ids_and_metadata_upstream_sends() {
    let captures = upstream_fixtures::captures();
    let mut seen: BTreeSet<ItemShape> = BTreeSet::new();
    for (path, body) in captured_requests(&captures) {
        for item in body["input"].as_array().unwrap() {
            let item_type = item["type"].as_str().unwrap();
            let role = item["role"].as_str().unwrap_or("");
            let id = item["id"].as_str();
            let expected_prefix = match (item_type, role) {
                ("message", "user" | "developer") => Some("msg_"),
                ("function_call", _) => Some("fc_"),
                ("function_call_output", _) => Some("fco_"),
                _ => None,
            };
            let recorded = item
                .get("internal_chat_message_metadata_passthrough")
                .is_some();
            if let (Some(prefix), true) = (expected_prefix, recorded) {
                assert!(
                    id.is_some_and(|id| id.starts_with(prefix)),
                    "{item_type}/{role} without a {prefix} id in {}",
                    path.display()
                );
            }
            if recorded {
                seen.insert(item_shape(item));
            }
        }
    }

    let ids = seeded(4);
    let turn = "turn";
    let mut ours = first_turn_input(&ids, turn);
    ours.push(ResponseItem::message(
        "assistant",
        vec![ContentItem::output_text("reply")],
    ));
    ours.push(ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: None,
        name: "exec_command".to_string(),
        namespace: None,
        arguments: "{}".to_string(),
        encrypted_function_args: None,
        call_id: "call".to_string(),
        internal_chat_message_metadata_passthrough: None,
    });
    ours.push(ResponseItem::FunctionCallOutput {
        id: None,
        call_id: Some("call".to_string()),
        name: None,
        namespace: None,
        output: FunctionCallOutputPayload::from_text("ok"),
        internal_chat_message_metadata_passthrough: None,
    });
    for item in &mut ours {
        stamp_recorded_item(item, &ids, turn);
        let shape = item_shape(&serde_json::to_value(&*item).unwrap());
        assert!(
            seen.contains(&shape),
            "{shape:?} is not a shape upstream sends; upstream sends {seen:#?}"
        );
    }
}
