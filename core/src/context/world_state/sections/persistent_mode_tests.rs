use codex_protocol::ModelInfo;
use codex_release::CodexRelease;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::WorldState;

fn turn(release: CodexRelease) -> TurnContext {
    let mut turn =
        TurnContext::for_model("thread-1", "turn-1", ModelInfo::with_defaults("m"), "/w");
    turn.release = release;
    turn
}

#[test]
fn recorded_off_and_silent_on_the_release_that_keeps_it() {
    let templates = TemplateSet::embedded();
    let section = PersistentModeSection::for_step(&turn(CodexRelease::V0_171), &templates)
        .expect("section")
        .expect("recorded");
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique");
    assert_eq!(
        serde_json::to_value(world_state.snapshot()).expect("json"),
        json!({"persistent_mode": {}})
    );
    assert_eq!(world_state.render_diff(&Default::default()).len(), 0);
}

#[test]
fn absent_on_the_release_without_it() {
    let templates = TemplateSet::embedded();
    assert!(
        PersistentModeSection::for_step(&turn(CodexRelease::V0_149), &templates)
            .expect("section")
            .is_none()
    );
}
