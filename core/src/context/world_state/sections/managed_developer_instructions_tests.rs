use codex_prompts::TemplateSet;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::render_transition_cases;

fn section(instructions: Option<&str>) -> ManagedDeveloperInstructionsSection {
    ManagedDeveloperInstructionsSection::new(
        ManagedDeveloperInstructionsSectionInputs {
            instructions: instructions.map(str::to_string),
        },
        &TemplateSet::embedded(),
    )
}

fn world_state(instructions: Option<&str>) -> WorldState {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(instructions))
        .expect("unique");
    world_state
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn snapshots() {
    let none = section(None);
    let empty = section(Some(""));
    let policy = section(Some("Never push to main."));
    let stricter = section(Some("Never push to any branch."));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &none),
        (Absent, &empty),
        (Absent, &policy),
        (Unknown, &none),
        (Unknown, &policy),
        (Known(&none), &none),
        (Known(&none), &policy),
        (Known(&policy), &policy),
        (Known(&policy), &stricter),
        (Known(&policy), &none),
    ]));
}

#[test]
fn managed_policy_updates_and_removal_are_emitted_once() {
    let mut history: Vec<ResponseItem> = Vec::new();
    let mut baseline: Option<WorldStateSnapshot> = None;
    let steps: [(Option<&str>, Option<&str>); 5] = [
        (None, None),
        (
            Some("Initial policy."),
            Some(
                "<managed_developer_instructions>\nInitial policy.\n</managed_developer_instructions>",
            ),
        ),
        (
            Some("Replacement policy."),
            Some(
                "<managed_developer_instructions>\nThe managed developer instructions below take \
                 the place of every managed developer instruction given earlier.\n\n\
                 Replacement policy.\n</managed_developer_instructions>",
            ),
        ),
        (
            None,
            Some(
                "<managed_developer_instructions>\nThe managed developer instructions given \
                 earlier are no longer in effect.\n</managed_developer_instructions>",
            ),
        ),
        (None, None),
    ];
    for (instructions, expected) in steps {
        let state = world_state(instructions);
        let fragments = state.render_history_diff(baseline.as_ref(), &history);
        assert_eq!(
            renders(&fragments),
            expected.map(str::to_string).into_iter().collect::<Vec<_>>()
        );
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

    // Legacy history without a snapshot: a policy in history counts as earlier instructions.
    let legacy = policy_fragment("Old policy.").into_boxed_response_item();
    let replaced =
        world_state(Some("New policy.")).render_history_diff(None, std::slice::from_ref(&legacy));
    assert!(replaced[0].render().contains("take the place of"));
    let removed = world_state(None).render_history_diff(None, std::slice::from_ref(&legacy));
    assert!(removed[0].render().contains("no longer in effect"));
    // A persisted policy whose fragment was compacted away is restated without a notice.
    let snapshot = world_state(Some("Kept policy.")).snapshot();
    assert_eq!(
        renders(
            &world_state(Some("Kept policy."))
                .render_history_diff(Some(&snapshot), &[] as &[ResponseItem])
        ),
        vec!["<managed_developer_instructions>\nKept policy.\n</managed_developer_instructions>"]
    );
}

#[test]
fn managed_policy_limit_includes_replacement_notice_and_markers() {
    let templates = TemplateSet::embedded();
    let overhead = policy_fragment(&replacement_text(&templates, ""))
        .render()
        .len();
    let limit_bytes = MANAGED_DEVELOPER_INSTRUCTIONS_TOKEN_LIMIT * BYTES_PER_TOKEN;
    let fitting = "x".repeat(limit_bytes - overhead);
    assert!(check_managed_developer_instructions_limit(&fitting, &templates).is_ok());

    let too_long = "x".repeat(limit_bytes - overhead + 1);
    let error = check_managed_developer_instructions_limit(&too_long, &templates)
        .expect_err("one byte over the limit");
    assert_eq!(
        error.to_string(),
        "managed developer instructions are too long: about 10001 tokens including context \
         markers, the limit is 10000"
    );
}

#[test]
fn snapshot_is_an_empty_object_without_a_policy() {
    assert_eq!(
        world_state(Some("")).snapshot().into_value(),
        serde_json::json!({"managed_developer_instructions": {}})
    );
}

#[test]
fn the_released_exec_surface_records_no_section() {
    let templates = TemplateSet::embedded();
    let mut turn = crate::turn_context::TurnContext::for_model(
        "thread-1",
        "turn-1",
        codex_models_manager::ModelInfo::with_defaults("m"),
        "/w",
    );
    turn.managed_developer_instructions = Some("Never push to main.".to_string());
    let core = ManagedDeveloperInstructionsSection::for_step(&turn, &templates).expect("fits");
    assert!(core.is_some());
    turn.client_surface = crate::request::ClientSurface::ExecCli;
    let exec = ManagedDeveloperInstructionsSection::for_step(&turn, &templates).expect("fits");
    assert!(exec.is_none());
}
