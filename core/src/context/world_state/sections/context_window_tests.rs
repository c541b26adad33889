use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section(agent_path: &str, previous_window_id: Option<&str>) -> ContextWindowSection {
    ContextWindowSection::new(ContextWindowSectionInputs {
        agent_path: agent_path.to_string(),
        first_window_id: "0199a0aa-0000-7000-8000-000000000001".to_string(),
        window_id: "0199a0aa-0000-7000-8000-000000000002".to_string(),
        previous_window_id: previous_window_id.map(str::to_string),
        thread_hint: None,
    })
}

#[test]
fn snapshots() {
    let root = section("/root", None);
    let worker = section("/root/worker", Some("0199a0aa-0000-7000-8000-000000000001"));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &root),
        (Unknown, &root),
        (Known(&root), &root),
        (Known(&root), &worker),
        (Known(&worker), &root),
    ]));
}

#[test]
fn full_block_lists_agent_and_windows() {
    let mut inputs = section("/root", Some("0199a0aa-0000-7000-8000-000000000000")).inputs;
    inputs.thread_hint = Some("Notes: keep going.".to_string());
    assert_eq!(
        ContextWindowSection::new(inputs).full_fragment().render(),
        "<context_window>\nAgent name: /root\n\
         First context window id: 0199a0aa-0000-7000-8000-000000000001\n\
         Current context window id: 0199a0aa-0000-7000-8000-000000000002\n\
         Previous context window id: 0199a0aa-0000-7000-8000-000000000000\n\
         Notes: keep going.\n</context_window>"
    );
}

#[test]
fn full_render_leaves_the_block_to_initial_context() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section("/root", None))
        .expect("unique");
    assert!(world_state.render_full().is_empty());
}
