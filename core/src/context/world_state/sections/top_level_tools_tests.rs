use codex_protocol::ModelInfo;
use codex_release::CodexRelease;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::WorldState;
use codex_tools::NamespaceTool;

fn lite_turn(release: CodexRelease) -> TurnContext {
    let mut model = ModelInfo::with_defaults("m");
    model.use_responses_lite = true;
    let mut turn = TurnContext::for_model("thread-1", "turn-1", model, "/w");
    turn.release = release;
    turn
}

#[test]
fn an_empty_functions_namespace_hashes_as_the_release_records_it() {
    // The `functions` entry of every 0.171.0 Lite rollout.
    let tools = [ToolSpec::Namespace(NamespaceTool {
        name: "functions".to_string(),
        description: String::new(),
        tools: Vec::new(),
    })];
    assert_eq!(
        Value::Object(tool_fingerprints(&tools).expect("json")),
        json!({"functions": "1280f4a8681f8bc4035e99ba9c8e3ba2e657c6af"})
    );
}

#[test]
fn a_lite_model_records_every_namespace_and_tool_and_sends_nothing() {
    let templates = TemplateSet::embedded();
    let turn = lite_turn(CodexRelease::V0_171);
    let contribution = top_level_tools_contribution(&turn, &templates)
        .expect("tools")
        .expect("recorded");
    let mut world_state = WorldState::new();
    world_state.add_contribution(contribution).expect("unique");
    let snapshot = serde_json::to_value(world_state.snapshot()).expect("json");
    let names: Vec<&str> = snapshot[TOP_LEVEL_TOOLS_SECTION_ID]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let expected: Vec<String> =
        lite_catalog_tools(
            &turn.builtin_tools(&templates).expect("tools"),
            LiteToolCatalog::Namespaced,
        )
        .iter()
        .flat_map(|tool| match tool {
            ToolSpec::Namespace(namespace) => std::iter::once(namespace.name.clone())
                .chain(namespace.tools.iter().filter_map(|tool| {
                    tool.name().map(|name| format!("{}.{name}", namespace.name))
                }))
                .collect::<Vec<_>>(),
            other => other.name().map(str::to_string).into_iter().collect(),
        })
        .collect();
    let mut expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(names, expected);
    assert_eq!(world_state.render_diff(&Default::default()).len(), 0);
}

#[test]
fn only_lite_models_of_the_recording_release_have_it() {
    let templates = TemplateSet::embedded();
    assert!(
        top_level_tools_contribution(&lite_turn(CodexRelease::V0_149), &templates)
            .expect("tools")
            .is_none()
    );
    let mut not_lite = lite_turn(CodexRelease::V0_171);
    not_lite.model.use_responses_lite = false;
    assert!(
        top_level_tools_contribution(&not_lite, &templates)
            .expect("tools")
            .is_none()
    );
}

#[test]
fn recorded_fingerprints_of_listed_tools_take_this_section_s_own() {
    let own = json!({"functions": "a", "functions.exec": "b"});
    let recorded = json!({"functions": "x", "clock": "y"});
    assert_eq!(
        rederive(&own, &recorded),
        Some(json!({"functions": "a", "clock": "y"}))
    );
}
