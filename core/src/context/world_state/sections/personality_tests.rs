use codex_prompts::TemplateSet;
use codex_protocol::config_types::Personality;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;

fn section(
    model: &str,
    personality: Option<Personality>,
    previous: Option<(&str, Option<Personality>)>,
    base_instructions: BaseInstructionsPersonality,
) -> PersonalitySection {
    PersonalitySection::new(
        PersonalitySectionInputs {
            model: model.to_string(),
            personality,
            previous: previous.map(|(model, personality)| PersonalitySnapshot {
                model: model.to_string(),
                personality,
            }),
            message: personality.map(|personality| format!("Be {personality:?}.")),
            base_instructions,
        },
        &TemplateSet::embedded(),
    )
}

fn renders(world_state: &WorldState, history: &[ResponseItem]) -> Vec<String> {
    world_state
        .render_history_diff(None, history)
        .iter()
        .map(|fragment| fragment.render())
        .collect()
}

#[test]
fn snapshots() {
    use BaseInstructionsPersonality::Included;
    use BaseInstructionsPersonality::NotIncluded;
    let friendly = section("gpt-5.5", Some(Personality::Friendly), None, NotIncluded);
    let pragmatic = section("gpt-5.5", Some(Personality::Pragmatic), None, NotIncluded);
    let baked = section("gpt-5.5", Some(Personality::Friendly), None, Included);
    let unset = section("gpt-5.5", None, None, NotIncluded);
    let other_model = section("gpt-5.4", Some(Personality::Pragmatic), None, NotIncluded);
    let from_pragmatic = section(
        "gpt-5.5",
        Some(Personality::Friendly),
        Some(("gpt-5.5", Some(Personality::Pragmatic))),
        NotIncluded,
    );
    let from_other_model = section(
        "gpt-5.5",
        Some(Personality::Friendly),
        Some(("gpt-5.4", Some(Personality::Pragmatic))),
        NotIncluded,
    );
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &friendly),
        (Absent, &baked),
        (Absent, &unset),
        (Absent, &from_other_model),
        (Unknown, &friendly),
        (Unknown, &from_pragmatic),
        (Unknown, &from_other_model),
        (Known(&friendly), &friendly),
        (Known(&pragmatic), &friendly),
        (Known(&other_model), &friendly),
        (Known(&friendly), &unset),
    ]));
}

#[test]
fn initial_personality_renders_only_when_missing_from_base_instructions() {
    let mut separate = WorldState::new();
    separate
        .add_section(section(
            "gpt-5.5",
            Some(Personality::Friendly),
            None,
            BaseInstructionsPersonality::NotIncluded,
        ))
        .expect("unique");
    assert_eq!(
        separate
            .render_full()
            .iter()
            .map(|fragment| fragment.render())
            .collect::<Vec<_>>(),
        vec![
            "<personality_spec> The user has asked for a different communication style. From \
             now on, write your replies in this personality: \nBe Friendly. </personality_spec>"
                .to_string()
        ]
    );

    let mut baked = WorldState::new();
    baked
        .add_section(section(
            "gpt-5.5",
            Some(Personality::Friendly),
            None,
            BaseInstructionsPersonality::Included,
        ))
        .expect("unique");
    assert!(baked.render_full().is_empty());
}

#[test]
fn personality_changes_render_without_repeating_model_changes() {
    let mut before = WorldState::new();
    before
        .add_section(section(
            "gpt-5.4",
            Some(Personality::Pragmatic),
            None,
            BaseInstructionsPersonality::Included,
        ))
        .expect("unique");
    let snapshot = before.snapshot();

    let mut new_model = WorldState::new();
    new_model
        .add_section(section(
            "gpt-5.5",
            Some(Personality::Friendly),
            None,
            BaseInstructionsPersonality::Included,
        ))
        .expect("unique");
    assert!(new_model.render_diff(&snapshot).is_empty());

    let mut same_model = WorldState::new();
    same_model
        .add_section(section(
            "gpt-5.4",
            Some(Personality::Friendly),
            None,
            BaseInstructionsPersonality::Included,
        ))
        .expect("unique");
    assert_eq!(same_model.render_diff(&snapshot).len(), 1);
}

#[test]
fn persisted_personality_does_not_require_a_retained_update() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(
            "gpt-5.5",
            Some(Personality::Friendly),
            None,
            BaseInstructionsPersonality::NotIncluded,
        ))
        .expect("unique");
    let snapshot = world_state.snapshot();
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), &[] as &[ResponseItem])
            .is_empty()
    );
    // Without a snapshot, an empty history means the spec was never shown.
    assert_eq!(renders(&world_state, &[]).len(), 1);
}

/// Before any turn, a thread whose instructions were written for another model is switching
/// models: the switch notice restates the instructions, so no personality update is added.
#[test]
fn a_first_turn_on_another_model_states_no_personality() {
    use codex_protocol::BaseInstructions;
    use codex_protocol::models::BaseInstructionsProvenance;
    use codex_protocol::openai_models::ModelInfo;

    use crate::turn_context::BaseInstructionsOverrides;

    let mut model = ModelInfo::with_defaults("served");
    model.model_messages = Some(
        serde_json::from_value(serde_json::json!({
            "instructions_template": "Served.\n{{ personality }}",
            "instructions_variables": {"personality_friendly": "Kind."}
        }))
        .expect("model messages"),
    );
    let mut turn = TurnContext::for_model("t", "u", model, "/w");
    turn.features.set(Feature::Personality, true);
    turn.personality = Some(Personality::Friendly);
    let first_turn = |turn: &TurnContext| {
        PersonalitySection::for_step(turn, &TemplateSet::embedded())
            .expect("section")
            .expect("personality on")
            .render_diff(Absent)
            .map(|fragment| fragment.render())
    };
    assert!(first_turn(&turn).is_some_and(|text| text.contains("Kind.")));

    let recorded = BaseInstructions {
        text: "instructions written for gpt-a".to_string(),
        provenance: Some(BaseInstructionsProvenance::Model {
            model: "gpt-a".to_string(),
        }),
    };
    turn.resolve_base_instructions(BaseInstructionsOverrides {
        configured: None,
        recorded: Some(&recorded),
    });
    assert_eq!(first_turn(&turn), None);
}
