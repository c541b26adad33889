//! The checks every guidance section runs: its transition matrix and the two upstream
//! history scenarios.

use codex_prompts::TemplateSet;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::GuidanceKind;
use super::GuidanceSection;
use super::GuidanceSectionInputs;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section<K: GuidanceKind>(available: bool) -> GuidanceSection<K> {
    GuidanceSection::new(
        GuidanceSectionInputs { available },
        &TemplateSet::embedded(),
    )
}

fn available_world_state<K: GuidanceKind>() -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section::<K>(true)).expect("unique");
    world_state
}

/// Absent/Unknown/Known(false)/Known(true) against unavailable and available guidance.
pub(crate) fn transition_matrix<K: GuidanceKind>() -> String {
    let unavailable = section::<K>(false);
    let available = section::<K>(true);
    render_transition_cases(&[
        (Absent, &unavailable),
        (Absent, &available),
        (Unknown, &unavailable),
        (Unknown, &available),
        (Known(&unavailable), &unavailable),
        (Known(&unavailable), &available),
        (Known(&available), &available),
        (Known(&available), &unavailable),
    ])
}

pub(crate) fn legacy_guidance_is_not_injected_again<K: GuidanceKind>() {
    let world_state = available_world_state::<K>();
    let legacy =
        GuidanceSection::<K>::fragment(&TemplateSet::embedded()).into_boxed_response_item();
    assert!(world_state.render_history_diff(None, &[legacy]).is_empty());
}

pub(crate) fn persisted_guidance_is_restored_only_when_missing_from_history<K: GuidanceKind>() {
    let world_state = available_world_state::<K>();
    let snapshot = world_state.snapshot();
    let retained =
        GuidanceSection::<K>::fragment(&TemplateSet::embedded()).into_boxed_response_item();

    assert_eq!(
        world_state
            .render_history_diff(Some(&snapshot), &[] as &[ResponseItem])
            .len(),
        1
    );
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), &[retained])
            .is_empty()
    );
}
