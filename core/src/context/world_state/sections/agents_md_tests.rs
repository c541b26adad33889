use codex_prompts::TemplateSet;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section(directory: Option<&str>, text: Option<&str>) -> AgentsMdSection {
    AgentsMdSection::new(
        AgentsMdSnapshot {
            directory: directory.map(str::to_string),
            text: text.map(str::to_string),
        },
        &TemplateSet::embedded(),
    )
}

#[test]
fn snapshots() {
    let empty = section(Some("/repo"), None);
    let plain = section(Some("/repo"), Some("Run the tests."));
    let changed = section(Some("/repo"), Some("Run the linters."));
    let moved = section(Some("/other"), Some("Run the tests."));
    let undirected = section(None, Some("Global rules."));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &empty),
        (Absent, &plain),
        (Absent, &undirected),
        (Unknown, &empty),
        (Unknown, &plain),
        (Known(&empty), &empty),
        (Known(&plain), &plain),
        (Known(&empty), &plain),
        (Known(&plain), &changed),
        (Known(&plain), &moved),
        (Known(&plain), &empty),
    ]));
}

#[test]
fn renders_directory_header_only_when_a_directory_is_known() {
    assert_eq!(
        agents_md_fragment(Some("/tmp"), "body").render(),
        "# AGENTS.md instructions for /tmp\n\n<INSTRUCTIONS>\nbody\n</INSTRUCTIONS>"
    );
    assert_eq!(
        agents_md_fragment(None, "body").render(),
        "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nbody\n</INSTRUCTIONS>"
    );
}

#[test]
fn empty_instructions_persist_as_an_empty_object() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(Some("/repo"), Some("")))
        .expect("unique");
    assert_eq!(
        world_state.snapshot().into_value(),
        serde_json::json!({"agents_md": {}})
    );
}

#[test]
fn legacy_instructions_in_history_are_replaced_once() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(Some("/repo"), Some("New rules.")))
        .expect("unique");
    let legacy: ResponseItem =
        agents_md_fragment(Some("/repo"), "Old rules.").into_boxed_response_item();

    let fragments = world_state.render_history_diff(None, std::slice::from_ref(&legacy));
    assert_eq!(fragments.len(), 1);
    assert!(
        fragments[0]
            .render()
            .contains("take the place of every AGENTS.md instruction given earlier")
    );
    let snapshot = world_state.snapshot();
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), &[legacy])
            .is_empty()
    );
}
