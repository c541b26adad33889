use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section(message: &str) -> ContextWindowGuidanceSection {
    ContextWindowGuidanceSection::new(ContextWindowGuidanceSectionInputs {
        message: message.to_string(),
    })
}

fn world_state(message: &str) -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section(message)).expect("unique");
    world_state
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn snapshots() {
    let original = section("Save notes before the window fills up.");
    let refreshed = section("Summarise progress every hour.");
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &original),
        (Unknown, &original),
        (Known(&original), &original),
        (Known(&original), &refreshed),
    ]));
}

#[test]
fn changed_guidance_is_rendered_once() {
    let snapshot = world_state("original guidance").snapshot();
    assert!(
        world_state("original guidance")
            .render_diff(&snapshot)
            .is_empty()
    );

    let refreshed = world_state("refreshed guidance");
    assert_eq!(
        renders(&refreshed.render_diff(&snapshot)),
        vec![ContextWindowGuidanceSection::fragment_for("refreshed guidance").render()]
    );
    let next = refreshed.snapshot();
    assert!(refreshed.render_diff(&next).is_empty());
}

#[test]
fn legacy_guidance_is_reconciled_once() {
    let state = world_state("current guidance");
    let legacy: ResponseItem =
        ContextWindowGuidanceSection::fragment_for("previous guidance").into_boxed_response_item();

    assert_eq!(
        renders(&state.render_history_diff(None, std::slice::from_ref(&legacy))),
        vec![ContextWindowGuidanceSection::fragment_for("current guidance").render()]
    );

    let snapshot = state.snapshot();
    let reconciled =
        ContextWindowGuidanceSection::fragment_for("current guidance").into_boxed_response_item();
    assert!(
        state
            .render_history_diff(Some(&snapshot), &[legacy, reconciled])
            .is_empty()
    );
    // Compacted away: the guidance is restated.
    assert_eq!(
        state
            .render_history_diff(Some(&snapshot), &[] as &[ResponseItem])
            .len(),
        1
    );
}
