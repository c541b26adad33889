use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section(model: &str, previous_model: Option<&str>) -> ModelSection {
    ModelSection::new(
        ModelSectionInputs {
            model: model.to_string(),
            previous_model: previous_model.map(str::to_string),
            instructions: format!("Instructions for {model}."),
        },
        &TemplateSet::embedded(),
    )
}

#[test]
fn snapshots() {
    let first = section("gpt-5.4", None);
    let second = section("gpt-5.5", None);
    let inferred = section("gpt-5.5", Some("gpt-5.4"));
    let same_previous = section("gpt-5.5", Some("gpt-5.5"));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &first),
        (Absent, &inferred),
        (Absent, &same_previous),
        (Unknown, &second),
        (Unknown, &inferred),
        (Known(&first), &first),
        (Known(&first), &second),
        (Known(&second), &first),
    ]));
}

#[test]
fn model_change_renders_when_persisted_or_inferred_from_previous_turn() {
    let mut persisted = WorldState::new();
    persisted
        .add_section(section("gpt-5.4", None))
        .expect("unique");
    let snapshot = persisted.snapshot();

    let mut switched = WorldState::new();
    switched
        .add_section(section("gpt-5.5", None))
        .expect("unique");
    let from_snapshot = switched.render_diff(&snapshot);
    assert_eq!(from_snapshot.len(), 1);
    assert_eq!(from_snapshot[0].markers(), MODEL_SWITCH.markers());
    assert!(
        from_snapshot[0]
            .render()
            .contains("Instructions for gpt-5.5.")
    );
    assert!(from_snapshot[0].requires_separate_message());

    let mut inferred = WorldState::new();
    inferred
        .add_section(section("gpt-5.5", Some("gpt-5.4")))
        .expect("unique");
    let from_previous_turn = inferred.render_history_diff(None, &[] as &[_]);
    assert_eq!(
        from_previous_turn
            .iter()
            .map(|fragment| fragment.render())
            .collect::<Vec<_>>(),
        from_snapshot
            .iter()
            .map(|fragment| fragment.render())
            .collect::<Vec<_>>()
    );
}

#[test]
fn unchanged_model_does_not_render() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section("gpt-5.5", Some("gpt-5.5")))
        .expect("unique");
    let snapshot = world_state.snapshot();
    assert!(world_state.render_diff(&snapshot).is_empty());
    assert!(world_state.render_full().is_empty());
}

#[test]
fn empty_instructions_never_render_a_switch() {
    let silent = ModelSection::new(
        ModelSectionInputs {
            model: "gpt-5.5".to_string(),
            previous_model: Some("gpt-5.4".to_string()),
            instructions: String::new(),
        },
        &TemplateSet::embedded(),
    );
    let previous = "gpt-5.4".to_string();
    assert!(silent.render_diff(Known(&previous)).is_none());
    assert!(silent.render_diff(Absent).is_none());
}
