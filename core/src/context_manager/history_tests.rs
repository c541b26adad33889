use std::borrow::Cow;

use codex_protocol::ContentItem;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use codex_protocol::WorldStateItem;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::context::world_state::ErasedWorldStateSection;
use crate::context::world_state::PreviousSectionState;
use crate::context_manager::ABORTED_OUTPUT;
use crate::context_manager::merge_contextual_fragments;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

fn text(role: &str, text: &str) -> ResponseItem {
    ResponseItem::message(role, vec![ContentItem::input_text(text)])
}

fn function_call(call_id: &str) -> ResponseItem {
    ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: None,
        name: "shell".to_string(),
        namespace: None,
        arguments: "{}".to_string(),
        encrypted_function_args: None,
        call_id: call_id.to_string(),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn function_output(call_id: Option<&str>, output: &str) -> ResponseItem {
    ResponseItem::FunctionCallOutput {
        id: None,
        call_id: call_id.map(str::to_string),
        name: None,
        namespace: None,
        output: FunctionCallOutputPayload::from_text(output),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn custom_call(call_id: &str) -> ResponseItem {
    ResponseItem::CustomToolCall {
        encrypted_content: None,
        id: None,
        status: None,
        call_id: call_id.to_string(),
        name: "apply_patch".to_string(),
        namespace: None,
        input: "*** Begin Patch".to_string(),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn custom_output(call_id: &str, output: &str) -> ResponseItem {
    ResponseItem::CustomToolCallOutput {
        id: None,
        call_id: call_id.to_string(),
        name: None,
        output: FunctionCallOutputPayload::from_text(output),
        internal_chat_message_metadata_passthrough: None,
    }
}

#[test]
fn record_items_keeps_api_items_only() {
    let mut history = ContextManager::new();
    let kept = history.record_items([
        text("system", "ignored"),
        text("user", "hi"),
        ResponseItem::Other(json!({"type": "ghost_snapshot"})),
        ResponseItem::AdditionalTools {
            id: None,
            role: "developer".to_string(),
            tools: Vec::new(),
        },
        function_call("c1"),
        text("assistant", "ok"),
    ]);
    assert_eq!(kept, 4);
    assert_eq!(
        history.items(),
        &[
            text("user", "hi"),
            ResponseItem::AdditionalTools {
                id: None,
                role: "developer".to_string(),
                tools: Vec::new(),
            },
            function_call("c1"),
            text("assistant", "ok")
        ]
    );
}

#[test]
fn for_prompt_answers_unanswered_calls_right_after_them() {
    let history =
        ContextManager::from_items([function_call("c1"), custom_call("c2"), text("user", "stop")]);
    assert_eq!(
        history.for_prompt(),
        vec![
            function_call("c1"),
            function_output(Some("c1"), ABORTED_OUTPUT),
            custom_call("c2"),
            custom_output("c2", ABORTED_OUTPUT),
            text("user", "stop"),
        ]
    );
    // History itself is untouched.
    assert_eq!(history.len(), 3);
}

#[test]
fn for_prompt_drops_outputs_without_their_call() {
    let history = ContextManager::from_items([
        function_output(Some("gone"), "x"),
        function_output(None, "no id"),
        custom_output("c1", "wrong family"),
        function_call("c1"),
        function_output(Some("c1"), "done"),
    ]);
    assert_eq!(
        history.for_prompt(),
        vec![function_call("c1"), function_output(Some("c1"), "done")]
    );
}

#[test]
fn for_prompt_pairs_local_shell_calls_with_function_outputs() {
    let call: ResponseItem = serde_json::from_value(json!({
        "type": "local_shell_call",
        "call_id": "s1",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"]}
    }))
    .unwrap();
    let answered = ContextManager::from_items([call.clone(), function_output(Some("s1"), "ok")]);
    assert_eq!(
        answered.for_prompt(),
        vec![call.clone(), function_output(Some("s1"), "ok")]
    );
    let unanswered = ContextManager::from_items([call.clone()]);
    assert_eq!(
        unanswered.for_prompt(),
        vec![call, function_output(Some("s1"), ABORTED_OUTPUT)]
    );
}

const SPEC: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "test.value",
    start_marker: "<value>",
    end_marker: "</value>",
    placement: MessagePlacement::Mergeable,
};

/// A section whose snapshot is its value and which must still see its fragment in history.
struct ValueSection(&'static str);

impl ErasedWorldStateSection for ValueSection {
    fn section_id(&self) -> &str {
        "value"
    }

    fn persisted_snapshot(&self) -> Option<Value> {
        Some(Value::String(self.0.to_string()))
    }

    fn recognises_legacy_fragment(&self, role: &str, text: &str) -> bool {
        SPEC.recognises(role, text)
    }

    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn requires_retained_fragment(&self) -> bool {
        true
    }

    fn recognises_retained_fragment(&self, role: &str, text: &str) -> bool {
        SPEC.recognises(role, text)
    }

    fn render_diff_from_json(
        &self,
        previous: PreviousSectionState<'_, Value>,
    ) -> Option<SectionFragment> {
        let unchanged = matches!(previous, PreviousSectionState::Known(Value::String(stored)) if stored == self.0);
        (!unchanged).then(|| SPEC.fragment(self.0.to_string()))
    }
}

fn world_state(value: &'static str) -> WorldState {
    let mut world_state = WorldState::new();
    world_state
        .add_boxed_section(Box::new(ValueSection(value)))
        .unwrap();
    world_state
}

fn rendered(update: &WorldStateUpdate) -> Vec<String> {
    update
        .fragments
        .iter()
        .map(|fragment| fragment.render())
        .collect()
}

#[test]
fn update_world_state_persists_full_then_patches_then_nothing() {
    let mut history = ContextManager::new();
    let first = history.update_world_state(&world_state("a"));
    assert_eq!(rendered(&first), vec!["<value>a</value>".to_string()]);
    assert_eq!(
        first.rollout_item,
        Some(WorldStateItem {
            full: true,
            state: [("value".to_string(), json!("a"))].into_iter().collect(),
        })
    );
    history.record_items(merge_contextual_fragments(first.fragments));

    let second = history.update_world_state(&world_state("b"));
    assert_eq!(rendered(&second), vec!["<value>b</value>".to_string()]);
    assert_eq!(
        second.rollout_item,
        Some(WorldStateItem {
            full: false,
            state: [("value".to_string(), json!("b"))].into_iter().collect(),
        })
    );
    history.record_items(merge_contextual_fragments(second.fragments));

    let third = history.update_world_state(&world_state("b"));
    assert!(third.fragments.is_empty());
    assert_eq!(third.rollout_item, None);
    assert_eq!(
        history.world_state_baseline().unwrap().get("value"),
        Some(&json!("b"))
    );
}

#[test]
fn replacing_history_clears_the_baseline_and_rerenders_lost_fragments() {
    let mut history = ContextManager::new();
    let first = history.update_world_state(&world_state("a"));
    history.record_items(merge_contextual_fragments(first.fragments));
    assert!(
        history
            .update_world_state(&world_state("a"))
            .fragments
            .is_empty()
    );

    history.replace([text("user", "summary")]);
    assert_eq!(history.world_state_baseline(), None);
    let after = history.update_world_state(&world_state("a"));
    assert_eq!(rendered(&after), vec!["<value>a</value>".to_string()]);
    assert_eq!(after.rollout_item.map(|item| item.full), Some(true));
}

#[test]
fn a_known_baseline_whose_fragment_left_history_renders_again() {
    let mut history = ContextManager::from_items([text("user", "hello")]);
    let mut baseline = WorldStateSnapshot::new();
    baseline.insert("value", json!("a"));
    history.set_world_state_baseline(Some(baseline));
    let update = history.update_world_state(&world_state("a"));
    assert_eq!(rendered(&update), vec!["<value>a</value>".to_string()]);
    assert_eq!(update.rollout_item, None);
}
