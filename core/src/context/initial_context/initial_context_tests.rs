use std::borrow::Cow;

use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;
use serde_json::Value;

use super::*;
use crate::context::world_state::ErasedWorldStateSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state::sections::context_window::ContextWindowSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::build_world_state_for_step;
use crate::turn_context::SessionSource;
use codex_config::Feature;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// A section that always renders the same fragment on a full render.
struct FixedSection {
    id: &'static str,
    spec: FragmentSpec,
    body: &'static str,
}

impl ErasedWorldStateSection for FixedSection {
    fn section_id(&self) -> &str {
        self.id
    }

    fn persisted_snapshot(&self) -> Option<Value> {
        Some(Value::Bool(true))
    }

    fn recognises_legacy_fragment(&self, _role: &str, _text: &str) -> bool {
        false
    }

    fn fragment_matcher_key(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn requires_retained_fragment(&self) -> bool {
        false
    }

    fn recognises_retained_fragment(&self, _role: &str, _text: &str) -> bool {
        false
    }

    fn render_diff_from_json(
        &self,
        _previous: PreviousSectionState<'_, Value>,
    ) -> Option<SectionFragment> {
        Some(self.spec.fragment(self.body.to_string()))
    }
}

fn spec(
    role: &'static str,
    markers: (&'static str, &'static str),
    placement: MessagePlacement,
) -> FragmentSpec {
    FragmentSpec {
        role,
        content_kind: "test.fragment",
        start_marker: markers.0,
        end_marker: markers.1,
        placement,
    }
}

fn section(id: &'static str, spec: FragmentSpec, body: &'static str) -> Box<FixedSection> {
    Box::new(FixedSection { id, spec, body })
}

/// Every routing case of the initial context, registered in an order that differs from
/// the emitted order.
fn routing_world_state() -> WorldState {
    let mut world_state = WorldState::new();
    let sections = [
        section(
            "managed",
            MANAGED_DEVELOPER_INSTRUCTIONS,
            "\nmanaged policy\n",
        ),
        section(
            "first_dev",
            spec(DEVELOPER_ROLE, ("<a>", "</a>"), MessagePlacement::Mergeable),
            "A",
        ),
        section(
            "user_one",
            spec(USER_ROLE, ("<u1>", "</u1>"), MessagePlacement::Mergeable),
            "U1",
        ),
        section("switch", MODEL_SWITCH, "\nnew model\n"),
        section(
            "mode",
            spec(
                DEVELOPER_ROLE,
                MULTI_AGENT_MODE.markers(),
                MessagePlacement::Mergeable,
            ),
            "M",
        ),
        section(
            "role",
            spec(
                DEVELOPER_ROLE,
                MULTI_AGENT_ROLE.markers(),
                MessagePlacement::Separate,
            ),
            "R",
        ),
        section(
            "hint",
            spec(DEVELOPER_ROLE, ("", ""), MessagePlacement::Separate),
            "unmarked hint",
        ),
        section(
            "marked_separate",
            spec(DEVELOPER_ROLE, ("<p>", "</p>"), MessagePlacement::Separate),
            "P",
        ),
        section(
            "user_two",
            spec(USER_ROLE, ("<u2>", "</u2>"), MessagePlacement::Mergeable),
            "U2",
        ),
    ];
    for section in sections {
        world_state
            .add_boxed_section(section)
            .expect("unique section IDs");
    }
    world_state
}

fn turn() -> TurnContext {
    let mut turn =
        TurnContext::for_model("thread-1", "turn-1", ModelInfo::with_defaults("m"), "/w");
    turn.developer_instructions = Some("Prefer small commits.".to_string());
    turn
}

/// `role: [text | kind | source, ...]` per message.
fn layout(context: &InitialContext) -> Vec<String> {
    context
        .messages()
        .iter()
        .map(|message| {
            let ResponseItem::Message { role, content, .. } = &message.item else {
                panic!("initial context holds only messages");
            };
            let kinds = message.item.content_item_kinds().unwrap_or_default();
            let entries: Vec<String> = content
                .iter()
                .zip(kinds)
                .zip(&message.sources)
                .map(|((content, kind), source)| {
                    let ContentItem::InputText { text } = content else {
                        panic!("initial context holds only input_text");
                    };
                    format!("{} | {kind} | {source:?}", text.replace('\n', "\\n"))
                })
                .collect();
            format!("{role}: [{}]", entries.join(", "))
        })
        .collect()
}

#[test]
fn fragments_are_routed_into_upstream_buckets_and_order() {
    let context = build_initial_context_with_world_state(
        &turn(),
        &routing_world_state(),
        &TemplateSet::embedded(),
    );
    assert_eq!(
        layout(&context),
        vec![
            "developer: [<model_switch>\\nnew model\\n</model_switch> | model_switch.instructions | Section(\"switch\"), \
             Prefer small commits. | generic.developer_instructions | DeveloperInstructions, \
             <a>A</a> | test.fragment | Section(\"first_dev\"), \
             <p>P</p> | test.fragment | Section(\"marked_separate\")]",
            "developer: [<multi_agent_role>R</multi_agent_role> | test.fragment | Section(\"role\")]",
            "developer: [unmarked hint | test.fragment | Section(\"hint\")]",
            "developer: [<multi_agent_mode>M</multi_agent_mode> | test.fragment | Section(\"mode\")]",
            "user: [<u1>U1</u1> | test.fragment | Section(\"user_one\"), <u2>U2</u2> | test.fragment | Section(\"user_two\")]",
            "developer: [<managed_developer_instructions>\\nmanaged policy\\n</managed_developer_instructions> | managed_config.developer_instructions | Section(\"managed\")]",
        ]
    );
}

#[test]
fn every_item_is_stamped_with_the_turn_id_and_has_no_id() {
    let context = build_initial_context_with_world_state(
        &turn(),
        &routing_world_state(),
        &TemplateSet::embedded(),
    );
    for item in context.items() {
        assert_eq!(item.turn_id(), Some("turn-1"));
        assert_eq!(item.id(), None);
    }
}

#[test]
fn guardian_reviewer_instructions_become_a_policy_message_after_the_user_context() {
    let mut turn = turn();
    turn.session_source = SessionSource::GuardianReviewer;
    let mut world_state = WorldState::new();
    world_state
        .add_boxed_section(section(
            "user_one",
            spec(USER_ROLE, ("<u1>", "</u1>"), MessagePlacement::Mergeable),
            "U1",
        ))
        .expect("unique");
    world_state
        .add_boxed_section(section(
            "first_dev",
            spec(DEVELOPER_ROLE, ("<a>", "</a>"), MessagePlacement::Mergeable),
            "A",
        ))
        .expect("unique");
    let context =
        build_initial_context_with_world_state(&turn, &world_state, &TemplateSet::embedded());
    assert_eq!(
        layout(&context),
        vec![
            "developer: [<a>A</a> | test.fragment | Section(\"first_dev\")]",
            "user: [<u1>U1</u1> | test.fragment | Section(\"user_one\")]",
            "developer: [Prefer small commits. | guardian.policy | GuardianPolicy]",
        ]
    );
}

#[test]
fn token_budget_block_is_its_own_developer_message_before_other_separate_messages() {
    let mut turn = turn();
    turn.developer_instructions = None;
    turn.model.context_window = Some(1000);
    turn.features.set(Feature::TokenBudget, true);
    turn.token_budget.first_window_id = "w-1".to_string();
    turn.token_budget.window_id = "w-2".to_string();
    turn.token_budget.previous_window_id = Some("w-1".to_string());
    let templates = TemplateSet::embedded();
    // The step's own context-window section, registered where the section registry puts it:
    // before every other section that renders a separate message.
    let mut world_state = WorldState::new();
    let context_window = ContextWindowSection::for_step(&turn, &templates)
        .expect("section")
        .expect("token budget on, window known");
    world_state.add_section(context_window).expect("unique");
    world_state
        .add_boxed_section(section(
            "hint",
            spec(DEVELOPER_ROLE, ("", ""), MessagePlacement::Separate),
            "unmarked hint",
        ))
        .expect("unique");
    let context = build_initial_context_with_world_state(&turn, &world_state, &templates);
    assert_eq!(
        layout(&context),
        vec![
            "developer: [<context_window>\\nAgent name: /root\\nFirst context window id: w-1\\nCurrent context window id: w-2\\nPrevious context window id: w-1\\n</context_window> | token_budget.context_window | Section(\"context_window\")]",
            "developer: [unmarked hint | test.fragment | Section(\"hint\")]",
        ]
    );
}

#[test]
fn token_budget_needs_a_known_context_window() {
    let mut turn = turn();
    turn.developer_instructions = None;
    turn.model.context_window = None;
    turn.model.max_context_window = None;
    turn.features.set(Feature::TokenBudget, true);
    let templates = TemplateSet::embedded();
    let world_state = build_world_state_for_step(&turn, &templates).expect("world state");
    assert!(
        !world_state
            .section_ids()
            .any(|id| id == <ContextWindowSection as WorldStateSection>::ID)
    );
}

#[test]
fn empty_developer_instructions_add_nothing() {
    let mut turn = turn();
    turn.developer_instructions = Some(String::new());
    let context =
        build_initial_context_with_world_state(&turn, &WorldState::new(), &TemplateSet::embedded());
    assert_eq!(context.into_items(), Vec::<ResponseItem>::new());
}
