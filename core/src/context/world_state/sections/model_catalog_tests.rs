use codex_context_fragments::DEVELOPER_ROLE;
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
    turn.model_catalog = Some(FragmentFingerprint::new(DEVELOPER_ROLE, "m\nn"));
    turn
}

#[test]
fn recorded_as_the_fingerprint_and_never_sent() {
    let templates = TemplateSet::embedded();
    let section = ModelCatalogSection::for_step(&turn(CodexRelease::V0_171), &templates)
        .expect("section")
        .expect("recorded");
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique");
    assert_eq!(
        serde_json::to_value(world_state.snapshot()).expect("json"),
        json!({"model_catalog": FragmentFingerprint::new(DEVELOPER_ROLE, "m\nn")})
    );
    assert_eq!(world_state.render_diff(&Default::default()).len(), 0);
}

#[test]
fn a_recorded_fingerprint_is_taken_for_this_section_s_own() {
    let section = ModelCatalogSection {
        catalog: FragmentFingerprint::new(DEVELOPER_ROLE, "m"),
    };
    let recorded = FragmentFingerprint::new(DEVELOPER_ROLE, "the release's listing");
    assert_eq!(
        section.rederive_recorded(&recorded),
        Some(FragmentFingerprint::new(DEVELOPER_ROLE, "m"))
    );
}

#[test]
fn absent_on_the_release_without_it_or_without_a_catalog() {
    let templates = TemplateSet::embedded();
    assert!(
        ModelCatalogSection::for_step(&turn(CodexRelease::V0_149), &templates)
            .expect("section")
            .is_none()
    );
    let mut without = turn(CodexRelease::V0_171);
    without.model_catalog = None;
    assert!(
        ModelCatalogSection::for_step(&without, &templates)
            .expect("section")
            .is_none()
    );
}
