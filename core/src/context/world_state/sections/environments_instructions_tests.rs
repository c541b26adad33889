use super::EnvironmentsInstructions;
use crate::context::world_state::sections::guidance::test_support;

#[test]
fn snapshots() {
    insta::assert_snapshot!(test_support::transition_matrix::<EnvironmentsInstructions>());
}

#[test]
fn legacy_guidance_is_not_injected_again() {
    test_support::legacy_guidance_is_not_injected_again::<EnvironmentsInstructions>();
}

#[test]
fn persisted_guidance_is_restored_only_when_missing_from_history() {
    test_support::persisted_guidance_is_restored_only_when_missing_from_history::<
        EnvironmentsInstructions,
    >();
}
