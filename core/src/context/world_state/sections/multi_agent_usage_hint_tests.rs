use codex_prompts::TemplateSet;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionArg;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;
use crate::context::world_state::world_state_diff_cli;

fn section(text: &str, source: UsageHintSource) -> MultiAgentUsageHintSection {
    MultiAgentUsageHintSection::new(MultiAgentUsageHintSectionInputs {
        text: text.to_string(),
        source,
    })
    .expect("non-empty hint")
}

fn developer_message(text: &str) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: vec![ContentItem::input_text(text)],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

#[test]
fn snapshots() {
    let catalog = section(
        "Delegate file searches to explorers.",
        UsageHintSource::Catalog,
    );
    let catalog_changed = section("Delegate only long searches.", UsageHintSource::Catalog);
    let configured = section("Use workers for tests.", UsageHintSource::Configured);
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &catalog),
        (Absent, &configured),
        (Unknown, &catalog),
        (Known(&catalog), &catalog),
        (Known(&catalog), &catalog_changed),
        (Known(&catalog), &configured),
    ]));
}

#[test]
fn hints_are_standalone_developer_messages() {
    for source in [UsageHintSource::Catalog, UsageHintSource::Configured] {
        let fragment = section("Hint.", source)
            .render_diff(Absent)
            .expect("a fragment");
        assert_eq!(fragment.role(), "developer");
        assert!(fragment.requires_separate_message());
    }
}

#[test]
fn legacy_matcher_needs_the_exact_current_text() {
    let configured = world_state(section(
        "Use workers for tests.",
        UsageHintSource::Configured,
    ));
    assert!(
        configured
            .render_history_diff(None, &[developer_message("Use workers for tests.")])
            .is_empty()
    );
    assert_eq!(
        configured
            .render_history_diff(None, &[developer_message("Use workers for builds.")])
            .len(),
        1
    );
    let hint = section("Use workers for tests.", UsageHintSource::Configured);
    assert!(!hint.matches_current_legacy_fragment("user", "Use workers for tests."));
    assert!(!hint.matches_current_legacy_fragment("developer", " Use workers for tests."));
}

fn world_state(section: MultiAgentUsageHintSection) -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    world_state
}

#[test]
fn blank_hints_are_rejected() {
    let error = MultiAgentUsageHintSection::new(MultiAgentUsageHintSectionInputs {
        text: " \n".to_string(),
        source: UsageHintSource::Configured,
    })
    .expect_err("blank");
    assert_eq!(
        error.to_string(),
        "world-state section multi_agent_usage_hint rejected its inputs: the usage hint text is empty"
    );
}

#[test]
fn catalog_builds_the_hint_from_json_inputs() {
    let output = world_state_diff_cli(
        "multi_agent_usage_hint",
        &PreviousSectionArg::Absent,
        r#"{"text": "Spawn explorers for wide searches.", "source": "catalog"}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        output,
        "(role - developer)\n<multi_agent_role>\nSpawn explorers for wide searches.\n</multi_agent_role>"
    );
}

#[test]
fn only_a_catalog_hint_rederives_its_recorded_fingerprint() {
    let recorded = section("the release's role text", UsageHintSource::Catalog).snapshot();
    let catalog = section("our role text", UsageHintSource::Catalog);
    assert_eq!(
        catalog.rederive_recorded(&recorded),
        Some(catalog.snapshot())
    );
    // Configured text is sent verbatim: its fingerprint is comparable as recorded.
    let configured = section("configured hint", UsageHintSource::Configured);
    assert_eq!(configured.rederive_recorded(&recorded), None);
}
