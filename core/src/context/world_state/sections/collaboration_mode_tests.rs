use codex_protocol::config_types::ModeKind;
use codex_protocol::models::ResponseItem;
use codex_protocol::openai_models::CollaborationModeMessages;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::render_transition_cases;

fn section(
    mode: ModeKind,
    model: &str,
    catalog_messages: Option<CollaborationModeMessages>,
    developer_instructions: Option<&str>,
) -> CollaborationModeSection {
    CollaborationModeSection::new(CollaborationModeSectionInputs {
        mode,
        model: model.to_string(),
        catalog_messages,
        developer_instructions: developer_instructions.map(str::to_string),
    })
}

fn world_state(section: CollaborationModeSection) -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique");
    world_state
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn snapshots() {
    let bare = section(ModeKind::Default, "gpt-5.5", None, None);
    let bare_other_model = section(ModeKind::Default, "gpt-5.4", None, None);
    let pair = section(
        ModeKind::Default,
        "gpt-5.5",
        None,
        Some("pair with the user"),
    );
    let plan = section(ModeKind::Plan, "gpt-5.5", None, Some("plan first"));
    let plan_other_model = section(ModeKind::Plan, "gpt-5.4", None, Some("plan first"));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &bare),
        (Absent, &pair),
        (Unknown, &bare),
        (Unknown, &pair),
        (Known(&pair), &pair),
        (Known(&bare), &bare_other_model),
        (Known(&pair), &plan),
        (Known(&plan), &plan_other_model),
        (Known(&plan), &bare),
    ]));
}

#[test]
fn empty_element_fingerprint_matches_upstream_rollouts() {
    let snapshot = world_state(section(ModeKind::Default, "gpt-5.5", None, None)).snapshot();
    assert_eq!(
        snapshot.into_value(),
        json!({"collaboration_mode": {
            "instructions": "dfd53114f5f6f9f5fd7816370d0bf2847806246d",
            "mode": "default",
            "model": "gpt-5.5"
        }})
    );
}

#[test]
fn instruction_updates_are_applied_once_in_retained_history() {
    let mut history: Vec<ResponseItem> = Vec::new();
    let mut baseline: Option<WorldStateSnapshot> = None;
    for (instructions, expected) in [
        (
            Some("old instructions"),
            "<collaboration_mode>old instructions</collaboration_mode>",
        ),
        (
            Some("new instructions"),
            "<collaboration_mode>new instructions</collaboration_mode>",
        ),
        (None, "<collaboration_mode></collaboration_mode>"),
    ] {
        let state = world_state(section(ModeKind::Default, "gpt-5.5", None, instructions));
        let fragments = state.render_history_diff(baseline.as_ref(), &history);
        assert_eq!(renders(&fragments), vec![expected.to_string()]);
        history.extend(
            fragments
                .into_iter()
                .map(|fragment| fragment.into_boxed_response_item()),
        );
        baseline = Some(state.snapshot());
        assert!(
            state
                .render_history_diff(baseline.as_ref(), &history)
                .is_empty()
        );
    }

    // History lost the fragment (compaction): current instructions are restated, while a
    // cleared mode has nothing left to clear.
    let cleared = world_state(section(ModeKind::Default, "gpt-5.5", None, None));
    assert!(
        cleared
            .render_history_diff(baseline.as_ref(), &[] as &[ResponseItem])
            .is_empty()
    );
    let active = world_state(section(
        ModeKind::Default,
        "gpt-5.5",
        None,
        Some("new instructions"),
    ));
    let active_baseline = active.snapshot();
    assert_eq!(
        renders(&active.render_history_diff(Some(&active_baseline), &[] as &[ResponseItem])),
        vec!["<collaboration_mode>new instructions</collaboration_mode>".to_string()]
    );
}

#[test]
fn catalog_collaboration_messages_select_mode_variant() {
    let messages = CollaborationModeMessages {
        default: Some("catalog default".to_string()),
        plan: Some("catalog plan".to_string()),
    };
    let default = section(
        ModeKind::Default,
        "gpt-5.5",
        Some(messages.clone()),
        Some("legacy default"),
    );
    let plan = section(
        ModeKind::Plan,
        "gpt-5.5",
        Some(messages),
        Some("legacy plan"),
    );
    assert_eq!(
        renders(&world_state(default).render_full()),
        vec!["<collaboration_mode>catalog default</collaboration_mode>"]
    );
    assert_eq!(
        renders(&world_state(plan).render_full()),
        vec!["<collaboration_mode>catalog plan</collaboration_mode>"]
    );
}

#[test]
fn empty_catalog_collaboration_message_suppresses_legacy_instructions() {
    let messages = CollaborationModeMessages {
        default: Some(String::new()),
        plan: None,
    };
    let state = world_state(section(
        ModeKind::Default,
        "gpt-5.5",
        Some(messages),
        Some("legacy default"),
    ));
    assert_eq!(
        renders(&state.render_full()),
        vec!["<collaboration_mode></collaboration_mode>"]
    );
}

#[test]
fn missing_catalog_collaboration_message_uses_legacy_instructions() {
    let messages = CollaborationModeMessages {
        default: None,
        plan: Some("catalog plan".to_string()),
    };
    let state = world_state(section(
        ModeKind::Default,
        "gpt-5.5",
        Some(messages),
        Some("legacy default"),
    ));
    assert_eq!(
        renders(&state.render_full()),
        vec!["<collaboration_mode>legacy default</collaboration_mode>"]
    );
}

#[test]
fn legacy_collaboration_mode_snapshots_refresh_catalog_messages_once() {
    let state = world_state(section(
        ModeKind::Default,
        "gpt-5.5",
        Some(CollaborationModeMessages {
            default: Some("catalog default".to_string()),
            plan: None,
        }),
        None,
    ));
    let retained: ResponseItem =
        collaboration_mode_fragment("legacy default").into_boxed_response_item();
    for legacy in [
        json!({"collaboration_mode": "default"}),
        json!({"collaboration_mode": {"mode": "default", "model": "gpt-5.5"}}),
    ] {
        let baseline = WorldStateSnapshot::from_value(legacy).expect("object");
        let mut history = vec![retained.clone()];
        let fragments = state.render_history_diff(Some(&baseline), &history);
        assert_eq!(
            renders(&fragments),
            vec!["<collaboration_mode>catalog default</collaboration_mode>"]
        );
        history.extend(
            fragments
                .into_iter()
                .map(|fragment| fragment.into_boxed_response_item()),
        );
        let refreshed = state.snapshot();
        assert!(
            state
                .render_history_diff(Some(&refreshed), &history)
                .is_empty()
        );
    }
}

/// A fingerprint no text of this project has (another renderer's Plan text).
const OTHER_RENDERER: &str = "0123456789abcdef0123456789abcdef01234567";

#[test]
fn a_recorded_fingerprint_is_rederived_for_the_same_mode_and_model_only() {
    let own = section(ModeKind::Plan, "gpt-x", None, Some("plan text"));
    let recorded = CollaborationModeSnapshot::Current {
        mode: ModeKind::Plan,
        model: "gpt-x".to_string(),
        instructions: Some(serde_json::from_value(json!(OTHER_RENDERER)).expect("fingerprint")),
    };
    assert_eq!(own.rederive_recorded(&recorded), Some(own.snapshot()));
    assert!(own.render_diff(Known(&own.snapshot())).is_none());
    let other_mode = CollaborationModeSnapshot::Current {
        mode: ModeKind::Default,
        model: "gpt-x".to_string(),
        instructions: Some(serde_json::from_value(json!(OTHER_RENDERER)).expect("fingerprint")),
    };
    assert_eq!(own.rederive_recorded(&other_mode), None);
    assert_eq!(
        own.rederive_recorded(&CollaborationModeSnapshot::Legacy(ModeKind::Plan)),
        None
    );
}
