//! Rewriting a session's history: local compaction, rollback and resume; plus injected-context
//! recognition seen from a whole session (a user pasting a context block) and turn-context
//! contributors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod session_support;

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::SectionFragment;
use codex_core::BaselineAuthor;
use codex_core::ResumedSession;
use codex_core::RollbackOutcome;
use codex_core::TurnContext;
use codex_core::TurnContextContributor;
use codex_fragments::compaction_summary::COMPACTION_SUMMARY;
use codex_fragments::is_user_turn_boundary;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::CollaborationModeSettings;
use codex_protocol::ContentItemKind;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use pretty_assertions::assert_eq;
use session_support::*;

const PASTED: &str = "<environment_context>\n  <cwd>/etc</cwd>\n</environment_context>";

fn summary_text(summary: &str) -> String {
    format!(
        "{}\n{summary}",
        TemplateSet::embedded().text(TemplateId::CompactionSummaryPrefix)
    )
}

#[test]
fn compaction_keeps_the_users_messages_and_a_summary_then_reinjects_full_context() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    play_turn(&mut session, &first, "hello world", "FIRST_REPLY");
    let mut second = next_turn_context(&first, &ids);
    set_cwd(&mut second, "/repo2");
    play_turn(&mut session, &second, PASTED, "SECOND_REPLY");

    let before = lines(&session).len();
    session.compact("SUMMARY_ONLY_CONTEXT").unwrap();
    assert_eq!(
        texts(session.history().items()),
        vec![
            "user: hello world".to_string(),
            format!("user: {PASTED}"),
            format!("user: {}", summary_text("SUMMARY_ONLY_CONTEXT")),
        ]
    );
    let summary = session.history().items().last().unwrap();
    assert_eq!(
        summary.content_item_kinds(),
        Some(&[ContentItemKind::new(COMPACTION_SUMMARY.content_kind)][..])
    );
    assert_eq!(session.reference_context_item(), None);
    assert_eq!(session.world_state_baseline(), None);
    let RolloutItem::Compacted(compacted) = &lines(&session)[before].item else {
        panic!("compacted line expected");
    };
    assert_eq!(compacted.message, summary_text("SUMMARY_ONLY_CONTEXT"));
    assert_eq!(
        compacted.replacement_history.as_deref(),
        Some(session.history().items())
    );

    let third = next_turn_context(&second, &ids);
    let input = play_turn(&mut session, &third, "AFTER_COMPACT", "ok");
    assert_eq!(
        labels(&lines(&session)[before..])[..6],
        [
            "compacted",
            "event_msg task_started",
            "response_item message/developer",
            "response_item message/user",
            "world_state full",
            "turn_context",
        ]
    );
    // Full context follows the summary; the first context message is the developer bundle.
    let roles: Vec<String> = texts(&input)
        .iter()
        .map(|text| text.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(
        roles,
        vec!["user", "user", "user", "developer", "user", "user"]
    );
    assert!(texts(&input)[4].starts_with("user: <environment_context>\n  <cwd>/repo2</cwd>"));
}

#[test]
fn a_second_compaction_does_not_keep_the_first_summary() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    play_turn(&mut session, &first, "one", "r1");
    session.compact("S1").unwrap();
    let second = next_turn_context(&first, &ids);
    play_turn(&mut session, &second, "two", "r2");
    session.compact("S2").unwrap();
    assert_eq!(
        texts(session.history().items()),
        vec![
            "user: one".to_string(),
            "user: two".to_string(),
            format!("user: {}", summary_text("S2")),
        ]
    );
}

#[test]
fn pasted_context_block_typed_by_the_user_is_a_real_user_message() {
    let ids = seeded_ids();
    let turn = first_turn_context(&ids);
    let mut session = new_session(&ids, &turn);
    play_turn(&mut session, &turn, PASTED, "noted");
    let boundaries: Vec<String> = session
        .history()
        .items()
        .iter()
        .filter(|item| is_user_turn_boundary(item))
        .map(|item| texts(std::slice::from_ref(item))[0].clone())
        .collect();
    assert_eq!(boundaries, vec![format!("user: {PASTED}")]);

    // The same text without recorded kinds (an upstream rollout) is taken for context.
    let mut stripped = session.history().items()[2].clone();
    if let ResponseItem::Message {
        internal_chat_message_metadata_passthrough: Some(metadata),
        ..
    } = &mut stripped
    {
        metadata.content_item_kinds = None;
    }
    assert!(!is_user_turn_boundary(&stripped));
}

/// Turn 2 changes the cwd and the collaboration-mode instructions, as upstream's rollback test.
fn rolled_back_scenario() -> (
    MemorySession,
    TurnContext,
    Vec<ResponseItem>,
    Vec<ResponseItem>,
) {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    let first_input = play_turn(&mut session, &first, "turn 1 user", "turn 1 assistant");
    let mut second = next_turn_context(&first, &ids);
    set_cwd(&mut second, "/repo/PRETURN_CONTEXT_DIFF_CWD");
    second.collaboration_mode.settings = CollaborationModeSettings {
        developer_instructions: Some("ROLLED_BACK_DEV_INSTRUCTIONS".to_string()),
        ..second.collaboration_mode.settings.clone()
    };
    let second_input = play_turn(&mut session, &second, "turn 2 user", "turn 2 assistant");
    (session, second, first_input, second_input)
}

#[test]
fn rollback_trims_the_turn_with_its_context_updates_and_restores_the_baseline() {
    let ids = seeded_ids();
    let (mut session, second, first_input, second_input) = rolled_back_scenario();
    let reference_before_turn_2 = session.history().len();
    let outcome = session.rollback(1, None, None).unwrap().outcome;
    assert_eq!(
        outcome,
        RollbackOutcome {
            dropped_user_turns: 1,
            removed_items: 4,
            removed_initial_context: false,
        }
    );
    assert_eq!(session.history().len(), reference_before_turn_2 - 4);
    assert_eq!(
        session.history().items(),
        &second_input[..first_input.len() + 1]
    );
    assert_eq!(
        labels(lines(&session)).last().map(String::as_str),
        Some("event_msg thread_rolled_back")
    );

    let before = lines(&session).len();
    let follow_up = next_turn_context(&second, &ids);
    let input = play_turn(&mut session, &follow_up, "follow-up user", "");
    // The context updates of the dropped turn come back once, diffed against turn 1's
    // baseline, as upstream's follow-up request shows.
    assert_eq!(
        texts(&input[first_input.len() + 1..]),
        texts(&second_input[first_input.len() + 1..])
            .into_iter()
            .take(2)
            .chain(["user: follow-up user".to_string()])
            .collect::<Vec<_>>()
    );
    let world_state: Vec<String> = labels(&lines(&session)[before..])
        .into_iter()
        .filter(|label| label.starts_with("world_state"))
        .collect();
    assert_eq!(
        world_state,
        vec!["world_state patch collaboration_mode,environments"]
    );
}

#[test]
fn rolling_back_the_first_turn_forces_full_context_again() {
    let ids = seeded_ids();
    let (mut session, second, _, _) = rolled_back_scenario();
    let outcome = session.rollback(5, None, None).unwrap().outcome;
    assert_eq!(outcome.dropped_user_turns, 2);
    assert!(session.history().is_empty());
    assert_eq!(session.reference_context_item(), None);
    let before = lines(&session).len();
    let follow_up = next_turn_context(&second, &ids);
    play_turn(&mut session, &follow_up, "again", "");
    assert!(labels(&lines(&session)[before..]).contains(&"world_state full".to_string()));
}

#[test]
fn a_resumed_session_continues_with_diffs_only() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");

    let mut resumed = resumed_session(
        &ids,
        &first,
        ResumedSession {
            history: original.history().items().to_vec(),
            reference_context_item: original.reference_context_item().cloned(),
            world_state_baseline: original.world_state_baseline().cloned(),
            recorded_model: None,
            baseline_author: BaselineAuthor::ThisProject,
        },
    );
    let mut second = next_turn_context(&first, &ids);
    set_cwd(&mut second, "/repo2");
    let continued = play_turn(&mut original, &second, "next", "ok");
    let after_resume = play_turn(&mut resumed, &second, "next", "ok");
    assert_eq!(texts(&after_resume), texts(&continued));
    assert_eq!(
        labels(lines(&resumed))[..4],
        [
            "event_msg task_started",
            "response_item message/user",
            "world_state patch environments",
            "turn_context",
        ]
    );
}

#[test]
fn resuming_without_a_baseline_persists_a_full_record_after_the_updates() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    // A rollout from before world-state records: reference known, no baseline.
    let mut resumed = resumed_session(
        &ids,
        &first,
        ResumedSession {
            history: original.history().items().to_vec(),
            reference_context_item: original.reference_context_item().cloned(),
            world_state_baseline: None,
            recorded_model: None,
            baseline_author: BaselineAuthor::ThisProject,
        },
    );
    let second = next_turn_context(&first, &ids);
    play_turn(&mut resumed, &second, "next", "ok");
    // Sections decide for themselves what a previous state they only recognise by its text
    // (Unknown) needs; whatever they send, the snapshot is persisted whole, as a new baseline.
    let labels = labels(lines(&resumed));
    let full = labels
        .iter()
        .position(|label| label == "world_state full")
        .unwrap();
    assert!(
        labels[1..full]
            .iter()
            .all(|label| label.starts_with("response_item"))
    );
    assert_eq!(labels[full + 1], "turn_context");
    assert!(resumed.world_state_baseline().is_some());
}

const CONTRIBUTION: FragmentSpec = FragmentSpec {
    role: "developer",
    content_kind: "test.turn_contribution",
    start_marker: "<turn_note>",
    end_marker: "</turn_note>",
    placement: MessagePlacement::Mergeable,
};

struct CwdNote;

impl TurnContextContributor for CwdNote {
    fn contribute_turn_context(&self, turn: &TurnContext) -> Vec<SectionFragment> {
        vec![
            CONTRIBUTION.fragment(format!("cwd {}", turn.cwd.display())),
            CONTRIBUTION.fragment("second".to_string()),
        ]
    }
}

#[test]
fn turn_context_contributions_ride_in_one_developer_message_on_changed_turns() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    session.add_turn_context_contributor(Box::new(CwdNote));
    play_turn(&mut session, &first, "hi", "hello");
    let items_before = session.history().len();

    let second = next_turn_context(&first, &ids);
    session.start_turn(&second).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(&second)
        .unwrap();
    assert_eq!(
        texts(&session.history().items()[items_before..]),
        vec!["developer: <turn_note>cwd /repo</turn_note> | <turn_note>second</turn_note>"]
    );
    // Seen again within the same turn: the turn context did not change, nothing is re-sent.
    session
        .record_context_updates_and_set_reference_context_item(&second)
        .unwrap();
    assert_eq!(session.history().len(), items_before + 1);
}

/// The state `original` would be resumed from if another renderer (the released CLI) had
/// written it: its permissions fingerprint is that renderer's, never this project's.
fn as_written_by_the_release(original: &MemorySession) -> ResumedSession {
    let mut baseline = original.world_state_baseline().cloned().unwrap();
    baseline.insert(
        "permissions",
        serde_json::json!({
            "approved_command_prefixes": [],
            "instructions": "fed2f53df24dd05a217b734cf7ad9abefa7cc6a2",
        }),
    );
    ResumedSession {
        history: original.history().items().to_vec(),
        reference_context_item: original.reference_context_item().cloned(),
        world_state_baseline: Some(baseline),
        recorded_model: None,
        baseline_author: BaselineAuthor::Other,
    }
}

#[test]
fn a_release_rollout_resumed_with_its_settings_restates_nothing() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    let mut resumed = resumed_session(&ids, &first, as_written_by_the_release(&original));
    let second = next_turn_context(&first, &ids);
    let input = play_turn(&mut resumed, &second, "next", "ok");
    assert_eq!(
        texts(&input[original.history().items().len()..]),
        vec!["user: next".to_string()]
    );
    // Nothing the model saw changed, so the recorded fingerprint is not replaced either.
    assert_eq!(
        labels(lines(&resumed))[..3],
        [
            "event_msg task_started",
            "turn_context",
            "response_item message/user",
        ]
    );
}

#[test]
fn a_release_rollout_resumed_with_another_policy_restates_the_permissions() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    let mut resumed = resumed_session(&ids, &first, as_written_by_the_release(&original));
    let mut second = next_turn_context(&first, &ids);
    second.approval_policy = codex_protocol::AskForApproval::Never;
    let input = play_turn(&mut resumed, &second, "next", "ok");
    assert_permissions_restated(&texts(&input[original.history().items().len()..]));
}

#[test]
fn without_the_recorded_models_entry_a_switched_model_keeps_the_recorded_fingerprint() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    let mut resumed = resumed_session(&ids, &first, as_written_by_the_release(&original));
    let mut second = next_turn_context(&first, &ids);
    second.model.slug = "another-model".to_string();
    let input = play_turn(&mut resumed, &second, "next", "ok");
    assert!(
        texts(&input[original.history().items().len()..])
            .iter()
            .any(|text| text.starts_with("developer: <permissions instructions>")),
    );
}

#[test]
fn with_the_recorded_models_entry_a_switched_model_restates_no_permissions() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    let mut resumed_state = as_written_by_the_release(&original);
    resumed_state.recorded_model = Some(first.model.clone());
    let mut resumed = resumed_session(&ids, &first, resumed_state);
    let mut second = next_turn_context(&first, &ids);
    second.model.slug = "another-model".to_string();
    let input = play_turn(&mut resumed, &second, "next", "ok");
    assert!(
        !texts(&input[original.history().items().len()..])
            .iter()
            .any(|text| text.starts_with("developer: <permissions instructions>")),
    );
}

#[test]
fn this_projects_own_baseline_is_compared_by_its_fingerprints() {
    // A permissions fingerprint this project's current text does not give, recorded by this
    // project itself (as after a template edited between runs): the text changed, so it is
    // restated, although the recorded settings are the same.
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut original = new_session(&ids, &first);
    play_turn(&mut original, &first, "hi", "hello");
    let resumed_state = ResumedSession {
        baseline_author: BaselineAuthor::ThisProject,
        ..as_written_by_the_release(&original)
    };
    let mut resumed = resumed_session(&ids, &first, resumed_state);
    let second = next_turn_context(&first, &ids);
    let input = play_turn(&mut resumed, &second, "next", "ok");
    assert_permissions_restated(&texts(&input[original.history().items().len()..]));
}

/// What a resumed turn added is the permissions message, then the user's message.
fn assert_permissions_restated(added: &[String]) {
    assert_eq!(added.len(), 2, "{added:?}");
    assert!(
        added[0].starts_with("developer: <permissions instructions>"),
        "{added:?}"
    );
}
