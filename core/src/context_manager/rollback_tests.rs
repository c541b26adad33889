use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::WorldStateSnapshot;

fn message(role: &str, texts: &[&str]) -> ResponseItem {
    ResponseItem::message(
        role,
        texts
            .iter()
            .map(|text| ContentItem::input_text(*text))
            .collect(),
    )
}

fn typed(text: &str) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "user".to_string(),
        content: vec![ContentItem::input_text(text)],
        phase: None,
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(vec![ContentItemKind::new("user.text")]),
            ..InternalChatMessageMetadataPassthrough::default()
        }),
    }
}

const PERMISSIONS: &str = "<permissions instructions>\nread-only\n</permissions instructions>";
const ENV_1: &str = "<environment_context>\n  <cwd>/a</cwd>\n</environment_context>";
const ENV_2: &str = "<environment_context>\n  <cwd>/b</cwd>\n</environment_context>";
const MODE: &str = "<collaboration_mode>x</collaboration_mode>";

fn two_turns() -> ContextManager {
    ContextManager::from_items([
        message("developer", &[PERMISSIONS]),
        message("user", &[ENV_1]),
        typed("turn 1"),
        message("assistant", &["reply 1"]),
        message("developer", &[MODE]),
        message("user", &[ENV_2]),
        typed("turn 2"),
        message("assistant", &["reply 2"]),
    ])
}

#[test]
fn dropping_a_turn_trims_the_context_updates_recorded_before_it() {
    let mut history = two_turns();
    let mut baseline = WorldStateSnapshot::new();
    baseline.insert("x", json!(1));
    history.set_world_state_baseline(Some(baseline));
    let outcome = history.drop_last_n_user_turns(1);
    assert_eq!(
        outcome,
        RollbackOutcome {
            dropped_user_turns: 1,
            removed_items: 4,
            removed_initial_context: false,
        }
    );
    assert_eq!(history.items(), &two_turns().items()[..4]);
    assert_eq!(history.world_state_baseline(), None);
}

#[test]
fn rolling_back_past_the_first_turn_removes_the_initial_context() {
    let mut history = two_turns();
    let outcome = history.drop_last_n_user_turns(5);
    assert_eq!(outcome.dropped_user_turns, 2);
    assert_eq!(outcome.removed_items, 8);
    assert!(history.is_empty());
}

#[test]
fn a_trimmed_bundle_with_configured_instructions_is_reported() {
    let mut history = ContextManager::from_items([
        message("developer", &[PERMISSIONS, "Be terse."]),
        message("user", &[ENV_1]),
        typed("turn 1"),
    ]);
    let outcome = history.drop_last_n_user_turns(1);
    assert!(outcome.removed_initial_context);
    assert!(history.is_empty());
}

#[test]
fn pasted_context_is_a_turn_of_its_own() {
    let mut history = two_turns();
    history.record_items([typed(ENV_2), message("assistant", &["reply 3"])]);
    let outcome = history.drop_last_n_user_turns(1);
    assert_eq!(outcome.removed_items, 2);
    assert_eq!(history.items(), two_turns().items());
}

#[test]
fn nothing_to_roll_back() {
    let mut history = ContextManager::from_items([message("developer", &[PERMISSIONS])]);
    assert_eq!(
        history.drop_last_n_user_turns(1),
        RollbackOutcome::default()
    );
    assert_eq!(
        history.drop_last_n_user_turns(0),
        RollbackOutcome::default()
    );
    assert_eq!(history.len(), 1);
}
