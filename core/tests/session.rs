//! Session turn flow: full context on the first turn, steady-state diffs afterwards, the order
//! of rollout lines, the early return when nothing changed, and the properties of the issue
//! (prefix stability, silent unchanged turns, world-state records that replay to each turn's
//! snapshot).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod session_support;

use codex_core::ABORTED_OUTPUT;
use codex_core::Inclusion;
use codex_core::TurnContext;
use codex_core::WorldStateSnapshot;
use codex_core::turn_context_item;
use codex_protocol::AskForApproval;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::Personality;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::SandboxPolicy;
use pretty_assertions::assert_eq;
use session_support::*;

#[test]
fn first_turn_records_full_context_then_world_state_then_turn_context() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    let input = play_turn(&mut session, &turn, "hi", "hello");

    assert_eq!(
        labels(lines(&session)),
        vec![
            "event_msg task_started",
            "response_item message/developer",
            "response_item message/user",
            "world_state full",
            "turn_context",
            "response_item message/user",
            "event_msg user_message",
            "event_msg agent_message",
            "response_item message/assistant",
            "event_msg task_complete",
        ]
    );
    assert_eq!(input.len(), 3);
    assert_eq!(
        session.reference_context_item(),
        Some(&turn_context_item(&turn))
    );
    let RolloutItem::WorldState(full) = &lines(&session)[3].item else {
        panic!("world_state line expected");
    };
    assert_eq!(
        Some(
            full.state
                .clone()
                .into_iter()
                .collect::<WorldStateSnapshot>()
        ),
        session.world_state_baseline().cloned()
    );
}

#[test]
fn an_unchanged_turn_adds_no_context_items_and_no_world_state_line() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    play_turn(&mut session, &first, "hi", "hello");
    let before_lines = lines(&session).len();
    let before_items = session.history().len();

    let second = next_turn_context(&first, &ids);
    session.start_turn(&second).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&second)
        .unwrap();
    assert_eq!(session.history().len(), before_items);
    assert_eq!(
        labels(&lines(&session)[before_lines..]),
        vec!["event_msg task_started", "turn_context"]
    );
    assert_eq!(
        session.reference_context_item(),
        Some(&turn_context_item(&second))
    );
}

#[test]
fn the_same_turn_context_twice_writes_nothing_the_second_time() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    session.start_turn(&turn).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&turn)
        .unwrap();
    let written = lines(&session).len();
    let items = session.history().len();
    session
        .record_context_updates_and_set_reference_context_item(&turn)
        .unwrap();
    assert_eq!(lines(&session).len(), written);
    assert_eq!(session.history().len(), items);
}

#[test]
fn a_snapshot_only_change_writes_the_patch_and_no_turn_context() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    session.start_turn(&turn).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&turn)
        .unwrap();
    let written = lines(&session).len();
    let items = session.history().len();

    // Dropping the environment section removes its snapshot key; a removed section tells the
    // model nothing, and the turn context itself is unchanged.
    let mut same_turn = turn.clone();
    same_turn.inclusion.environment_context = Inclusion::Omitted;
    session
        .record_context_updates_and_set_reference_context_item(&same_turn)
        .unwrap();
    assert_eq!(session.history().len(), items);
    assert_eq!(
        labels(&lines(&session)[written..]),
        vec!["world_state patch environments"]
    );
    let RolloutItem::WorldState(patch) = &lines(&session)[written].item else {
        panic!("world_state line expected");
    };
    assert_eq!(patch.state["environments"], serde_json::Value::Null);
}

#[test]
fn a_cwd_change_appends_one_environment_diff_before_the_patch_and_turn_context() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    play_turn(&mut session, &first, "hi", "hello");
    let before = lines(&session).len();

    let mut second = next_turn_context(&first, &ids);
    set_cwd(&mut second, "/repo2");
    play_turn(&mut session, &second, "again", "ok");
    let written = &lines(&session)[before..];
    assert_eq!(
        labels(written)[..4],
        [
            "event_msg task_started",
            "response_item message/user",
            "world_state patch environments",
            "turn_context",
        ]
    );
    let RolloutItem::ResponseItem(update) = &written[1].item else {
        panic!("response item expected");
    };
    let text = &texts(std::slice::from_ref(update))[0];
    assert!(
        text.starts_with("user: <environment_context>\n  <cwd>/repo2</cwd>"),
        "{text}"
    );
    assert!(!text.contains("<environments>"), "{text}");
}

/// A change applied to a turn's settings before it runs.
type SettingsChange = Box<dyn Fn(&mut TurnContext)>;

/// Turns with settings changes between them (cwd, approval policy, sandbox, personality, an
/// unchanged turn).
fn settings_changes() -> Vec<SettingsChange> {
    vec![
        Box::new(|_| {}),
        Box::new(|turn| set_cwd(turn, "/repo/sub")),
        Box::new(|_| {}),
        Box::new(|turn| turn.approval_policy = AskForApproval::Never),
        Box::new(|turn| {
            turn.sandbox_policy = SandboxPolicy::DangerFullAccess;
            turn.personality = Some(Personality::Friendly);
        }),
        Box::new(|turn| set_cwd(turn, "/repo")),
    ]
}

#[test]
fn each_request_extends_the_previous_one_byte_for_byte() {
    let ids = seeded_ids();
    let mut turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    let mut previous: Option<(Vec<ResponseItem>, usize)> = None;
    for (index, change) in settings_changes().into_iter().enumerate() {
        if index > 0 {
            turn = next_turn_context(&turn, &ids);
        }
        change(&mut turn);
        let input = play_turn(&mut session, &turn, &format!("message {index}"), "reply");
        if let Some((previous_input, previous_history)) = &previous {
            // Everything recorded after the previous request: its reply, this turn's context
            // updates and the user's message.
            let mut expected = previous_input.clone();
            expected.extend_from_slice(&session.history().items()[*previous_history..input.len()]);
            assert_eq!(
                serde_json::to_string(&input).unwrap(),
                serde_json::to_string(&expected).unwrap(),
                "turn {index}"
            );
        }
        previous = Some((input, session.history().len() - 1));
    }
}

#[test]
fn world_state_records_replay_to_every_turns_snapshot() {
    let ids = seeded_ids();
    let mut turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    let mut snapshots = Vec::new();
    for (index, change) in settings_changes().into_iter().enumerate() {
        if index > 0 {
            turn = next_turn_context(&turn, &ids);
        }
        change(&mut turn);
        play_turn(&mut session, &turn, "go", "done");
        snapshots.push((
            lines(&session).len(),
            session.world_state_baseline().cloned(),
        ));
    }
    for (written, snapshot) in &snapshots {
        assert_eq!(&replay_world_state(&lines(&session)[..*written]), snapshot);
    }
    // Every line after the first is a patch, and consecutive turns produce a patch only when
    // something changed.
    let world_state_lines: Vec<String> = labels(lines(&session))
        .into_iter()
        .filter(|label| label.starts_with("world_state"))
        .collect();
    assert_eq!(world_state_lines[0], "world_state full");
    assert_eq!(world_state_lines.len(), 5, "{world_state_lines:?}");
}

#[test]
fn unanswered_calls_are_answered_in_the_request_only() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    session.start_turn(&turn).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&turn)
        .unwrap();
    session.record_user_message("run it").unwrap();
    let call = ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: Some("fc_1".to_string()),
        name: "shell".to_string(),
        namespace: None,
        arguments: "{}".to_string(),
        encrypted_function_args: None,
        call_id: "call_1".to_string(),
        internal_chat_message_metadata_passthrough: None,
    };
    let orphan = ResponseItem::FunctionCallOutput {
        id: None,
        call_id: Some("call_gone".to_string()),
        name: None,
        namespace: None,
        output: FunctionCallOutputPayload::from_text("late"),
        internal_chat_message_metadata_passthrough: None,
    };
    session.record_model_output(vec![call, orphan]).unwrap();
    let input = session.build_prompt_input();
    let tail: Vec<(String, Option<String>)> = input[input.len() - 2..]
        .iter()
        .map(|item| match item {
            ResponseItem::FunctionCall { call_id, .. } => {
                ("function_call".to_string(), Some(call_id.clone()))
            }
            ResponseItem::FunctionCallOutput {
                call_id, output, ..
            } => (
                format!("function_call_output {}", output.text().unwrap()),
                call_id.clone(),
            ),
            other => (other.item_type().to_string(), None),
        })
        .collect();
    assert_eq!(
        tail,
        vec![
            ("function_call".to_string(), Some("call_1".to_string())),
            (
                format!("function_call_output {ABORTED_OUTPUT}"),
                Some("call_1".to_string())
            ),
        ]
    );
    assert_eq!(input.len(), session.history().len());
}

/// `task_complete` says how long the turn took and, when the model answered, how long until its
/// first output was written; settings and token-count events leave history alone.
#[test]
fn task_complete_reports_durations_and_events_leave_history_alone() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    play_turn(&mut session, &turn, "hi", "hello");
    let history = session.history().items().to_vec();
    session
        .record_thread_settings_applied(&turn)
        .expect("settings event");
    session.record_token_count(None).expect("token count");
    assert_eq!(session.history().items(), history.as_slice());

    let next = next_turn_context(&turn, &ids);
    session.start_turn(&next).expect("start turn");
    session
        .record_context_updates_and_set_reference_context_item(&next)
        .expect("context updates");
    session.record_user_message("again").expect("user message");
    session.record_model_output(Vec::new()).expect("no output");
    session.complete_turn().expect("complete turn");

    let completions: Vec<serde_json::Value> = lines(&session)
        .iter()
        .filter(|line| line.item.event_msg_type() == Some("task_complete"))
        .map(|line| match &line.item {
            RolloutItem::Other { payload, .. } => {
                let mut payload = payload.clone();
                payload["turn_id"] = serde_json::Value::Null;
                payload
            }
            other => panic!("an event line: {other:?}"),
        })
        .collect();
    assert_eq!(
        completions,
        vec![
            serde_json::json!({
                "type": "task_complete", "turn_id": null, "last_agent_message": "hello",
                "started_at": 1796022120, "completed_at": 1796022120,
                "duration_ms": 16, "time_to_first_token_ms": 15,
            }),
            serde_json::json!({
                "type": "task_complete", "turn_id": null, "last_agent_message": null,
                "started_at": 1796022120, "completed_at": 1796022120, "duration_ms": 7,
            }),
        ]
    );
    assert_eq!(
        labels(&lines(&session)[9..12]),
        vec![
            "event_msg task_complete",
            "event_msg thread_settings_applied",
            "event_msg token_count",
        ]
    );
}
