//! `codex-context world-state diff`: the library function behind it, driven through the
//! section catalogue with JSON inputs.

#![allow(clippy::expect_used)]

use codex_core::PreviousSectionArg;
use codex_core::WorldState;
use codex_core::build_catalog_section;
use codex_core::catalog_section_ids;
use codex_core::world_state_diff_cli;
use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;
use serde_json::json;

fn diff(section: &str, previous: &str, current: &str) -> String {
    world_state_diff_cli(
        section,
        &PreviousSectionArg::parse(previous).expect("previous"),
        current,
        &TemplateSet::embedded(),
    )
    .expect("diff")
}

#[test]
fn prints_none_or_the_role_and_rendered_fragment() {
    assert_eq!(
        diff(
            "collaboration_mode",
            "absent",
            r#"{"mode": "plan", "model": "gpt-5.5", "developer_instructions": "plan first"}"#
        ),
        "(role - developer)\n<collaboration_mode>plan first</collaboration_mode>"
    );
    assert_eq!(
        diff(
            "agents_md",
            r#"{"directory": "/repo", "text": "Run the tests."}"#,
            r#"{"directory": "/repo", "text": "Run the tests."}"#
        ),
        "None"
    );
    assert_eq!(
        diff("apps_instructions", "unknown", r#"{"available": true}"#),
        "None"
    );
    assert_eq!(
        diff("agents_md", "unknown", r#"{}"#),
        "(role - user)\n# AGENTS.md instructions\n\n<INSTRUCTIONS>\nThe AGENTS.md instructions \
         given earlier are no longer in effect.\n</INSTRUCTIONS>"
    );
}

#[test]
fn previous_inputs_are_compared_through_their_snapshot() {
    assert_eq!(
        diff(
            "realtime",
            r#"{"active": true}"#,
            r#"{"active": true, "start_instructions": "New."}"#
        ),
        "None"
    );
    assert_eq!(
        diff(
            "context_window_guidance",
            r#"{"message": "old"}"#,
            r#"{"message": "new"}"#
        ),
        "(role - developer)\n<context_window_guidance>\nnew\n</context_window_guidance>"
    );
}

#[test]
fn prompts_dir_overrides_reach_rendered_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("realtime")).expect("mkdir");
    std::fs::write(dir.path().join("realtime/end.md"), "Voice session over.\n").expect("write");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");

    let printed = world_state_diff_cli(
        "realtime",
        &PreviousSectionArg::parse(r#"{"active": true}"#).expect("previous"),
        r#"{"active": false}"#,
        &templates,
    )
    .expect("diff");

    assert_eq!(
        printed,
        "(role - developer)\n<realtime_conversation>\nVoice session over.\n</realtime_conversation>"
    );
}

#[test]
fn bad_arguments_are_reported_not_panicked_on() {
    let templates = TemplateSet::embedded();
    let unknown = world_state_diff_cli("nope", &PreviousSectionArg::Absent, "{}", &templates)
        .expect_err("unknown section");
    assert_eq!(
        unknown.to_string(),
        format!(
            "unknown world-state section ID `nope` (expected one of: {})",
            catalog_section_ids().collect::<Vec<_>>().join(", ")
        )
    );
    assert!(unknown.to_string().contains("model, personality, "));

    let invalid = world_state_diff_cli("realtime", &PreviousSectionArg::Absent, "{}", &templates)
        .expect_err("missing field");
    assert_eq!(
        invalid.to_string(),
        "JSON for world-state section realtime is neither its inputs (missing field `active`) \
         nor a recorded snapshot of it (missing field `active`)"
    );

    let not_json = PreviousSectionArg::parse("maybe").expect_err("not json");
    assert!(
        not_json
            .to_string()
            .starts_with("previous section state must be `absent`, `unknown`, JSON inputs or a")
    );
}

/// Upstream's registry order (`build_world_state_for_step`), built-in sections only: the
/// reference commit's, with 0.171.0's `persistent_mode` and `model_catalog` where this project
/// registers them (they send nothing, so their place decides no order the model sees).
const UPSTREAM_REGISTRY_ORDER: &[&str] = &[
    "model",
    "personality",
    "context_window",
    "context_window_guidance",
    "realtime",
    "agents_md",
    "permissions",
    "approved_command_prefixes",
    "collaboration_mode",
    "persistent_mode",
    "environments",
    "environments_instructions",
    "apps_instructions",
    "plugins_instructions",
    "tools",
    "multi_agent_usage_hint",
    "multi_agent_mode",
    "model_catalog",
    "managed_developer_instructions",
];

#[test]
fn catalogue_follows_upstream_registry_order() {
    let mut upstream = UPSTREAM_REGISTRY_ORDER.iter();
    for id in catalog_section_ids() {
        assert!(
            upstream.any(|upstream_id| *upstream_id == id),
            "{id} is not a built-in upstream section or is out of registry order"
        );
    }
}

#[test]
fn catalogue_builds_sections_from_json_inputs() {
    let templates = TemplateSet::embedded();
    let sections = [
        ("model", json!({"model": "gpt-5.5"})),
        ("personality", json!({"model": "gpt-5.5"})),
        (
            "context_window",
            json!({"agent_path": "/root", "first_window_id": "a", "window_id": "b"}),
        ),
        ("context_window_guidance", json!({"message": "m"})),
        ("realtime", json!({"active": false})),
        ("agents_md", json!({})),
        (
            "collaboration_mode",
            json!({"mode": "default", "model": "gpt-5.5"}),
        ),
        ("environments_instructions", json!({"available": false})),
        ("apps_instructions", json!({"available": false})),
        ("plugins_instructions", json!({"available": false})),
        ("managed_developer_instructions", json!({})),
    ];
    let mut world_state = WorldState::new();
    for (id, inputs) in &sections {
        let section = build_catalog_section(id, inputs, &templates).expect("inputs");
        assert_eq!(section.section_id(), *id);
        world_state.add_boxed_section(section).expect("unique");
    }
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        sections.iter().map(|(id, _)| *id).collect::<Vec<_>>()
    );
    let unknown_field =
        build_catalog_section("model", &json!({"model": "m", "extra": 1}), &templates);
    assert!(unknown_field.is_err());
}

/// Inputs of every catalogue section, for tests that go through all of them.
fn every_section_inputs() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            "model",
            json!({"model": "gpt-5.5", "instructions": "Be useful."}),
        ),
        (
            "personality",
            json!({"model": "gpt-5.5", "personality": "friendly", "message": "Be warm."}),
        ),
        (
            "context_window",
            json!({"agent_path": "/root", "first_window_id": "a", "window_id": "b"}),
        ),
        ("context_window_guidance", json!({"message": "m"})),
        ("realtime", json!({"active": true})),
        (
            "agents_md",
            json!({"directory": "/repo", "text": "Run the tests."}),
        ),
        (
            "permissions",
            json!({"sandbox_mode": "workspace-write", "approval_policy": "on-request"}),
        ),
        (
            "approved_command_prefixes",
            json!({"approved_command_prefixes": [["cargo", "test"]]}),
        ),
        (
            "collaboration_mode",
            json!({"mode": "plan", "model": "gpt-5.5", "developer_instructions": "plan first"}),
        ),
        ("persistent_mode", json!({})),
        (
            "environments",
            json!({"environments": [{"id": "local", "cwd": "/repo", "shell": "bash"}], "current_date": "2026-11-30"}),
        ),
        ("environments_instructions", json!({"available": true})),
        ("apps_instructions", json!({"available": true})),
        ("plugins_instructions", json!({"available": true})),
        (
            "tools",
            json!({"namespaces": {"github": "GitHub tools.\nMore."}}),
        ),
        (
            "multi_agent_usage_hint",
            json!({"text": "Spawn agents sparingly.", "source": "configured"}),
        ),
        ("multi_agent_mode", json!({"mode": "proactive"})),
        (
            "model_catalog",
            json!({"catalog": "0123456789abcdef0123456789abcdef01234567"}),
        ),
        (
            "managed_developer_instructions",
            json!({"instructions": "Never upload code."}),
        ),
    ]
}

/// A recorded snapshot given as the current state stands for exactly the section that recorded
/// it, or is refused; it never renders something else.
#[test]
fn recorded_snapshots_rebuild_the_section_that_recorded_them_or_are_refused() {
    let templates = TemplateSet::embedded();
    let sections = every_section_inputs();
    assert_eq!(
        sections.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        catalog_section_ids().collect::<Vec<_>>(),
        "every catalogue section has inputs here"
    );
    let mut rebuilt = Vec::new();
    let mut read_as_inputs = Vec::new();
    for (id, inputs) in sections {
        let original = build_catalog_section(id, &inputs, &templates).expect("inputs");
        let snapshot = original.persisted_snapshot().expect("persists");
        let previous = PreviousSectionArg::Inputs(snapshot.clone());
        // A snapshot that also reads as inputs recording that very snapshot is taken as
        // those inputs (both readings agree on the state; the inputs may say less).
        if build_catalog_section(id, &snapshot, &templates)
            .is_ok_and(|section| section.persisted_snapshot().as_ref() == Some(&snapshot))
        {
            read_as_inputs.push(id);
            continue;
        }
        match world_state_diff_cli(id, &PreviousSectionArg::Absent, &snapshot.to_string(), &templates) {
            Ok(from_snapshot) => {
                assert_eq!(
                    from_snapshot,
                    world_state_diff_cli(id, &PreviousSectionArg::Absent, &inputs.to_string(), &templates)
                        .expect("diff"),
                    "{id}: rendered from its snapshot as from its inputs"
                );
                // Against its own recorded snapshot it has nothing to say.
                assert_eq!(
                    world_state_diff_cli(id, &previous, &snapshot.to_string(), &templates)
                        .expect("diff"),
                    "None",
                    "{id}"
                );
                rebuilt.push(id);
            }
            Err(error) => assert!(
                error.to_string().starts_with(&format!(
                    "a recorded snapshot of world-state section {id} cannot be its current state: it holds "
                )),
                "{id}: {error}"
            ),
        }
    }
    assert_eq!(
        read_as_inputs,
        [
            "personality",
            "realtime",
            "agents_md",
            "persistent_mode",
            "multi_agent_mode"
        ]
    );
    assert_eq!(
        rebuilt,
        [
            "context_window_guidance",
            "approved_command_prefixes",
            "environments",
            "environments_instructions",
            "apps_instructions",
            "plugins_instructions",
            "tools",
            "model_catalog",
        ]
    );
}
