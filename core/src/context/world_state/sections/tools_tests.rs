use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::PreviousSectionArg;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::render_transition_cases;
use crate::context::world_state::world_state_diff_cli;

fn section(namespaces: &[(&str, &str)]) -> ToolsSection {
    ToolsSection::new(
        ToolsSectionInputs {
            namespaces: namespaces
                .iter()
                .map(|(name, description)| (name.to_string(), description.to_string()))
                .collect(),
        },
        &TemplateSet::embedded(),
    )
}

fn rendered(section: &ToolsSection, previous: PreviousSectionState<'_, ToolsSnapshot>) -> String {
    section.render_diff(previous).expect("a fragment").render()
}

#[test]
fn snapshots() {
    let empty = section(&[]);
    let initial = section(&[
        ("calendar", "Read and edit calendar events."),
        ("github", "Pull requests and issues."),
    ]);
    let changed = section(&[
        ("calendar", "Read calendar events only."),
        ("drive", "Search shared documents."),
    ]);
    let bare = section(&[("notes", ""), ("a<b", "Uses & and \"quotes\".")]);
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &empty),
        (Absent, &initial),
        (Absent, &bare),
        (Unknown, &empty),
        (Unknown, &initial),
        (Known(&initial), &initial),
        (Known(&initial), &changed),
        (Known(&changed), &empty),
    ]));
}

#[test]
fn renders_first_line_of_namespace_descriptions() {
    let tools = section(&[(
        "web",
        "  Search the web for current information.  \nCall search_web with a query.\nMore.",
    )]);
    assert_eq!(
        rendered(&tools, Absent),
        "<tools>\nDeferred tool namespaces:\n- web: Search the web for current information.\n</tools>"
    );
    assert_eq!(
        tools.snapshot(),
        ToolsSnapshot::from([(
            "web".to_string(),
            "Search the web for current information.".to_string()
        )])
    );
}

#[test]
fn renders_added_removed_and_updated_namespace_descriptions() {
    let before = section(&[
        ("calendar", "Calendar events."),
        ("github", "Pull requests."),
        ("slack", "Team chat."),
    ]);
    let after = section(&[
        ("calendar", "Calendar events and reminders."),
        ("github", "Pull requests."),
        ("linear", "Issue tracking."),
    ]);
    assert_eq!(
        rendered(&after, Known(&before.snapshot())),
        "<tools>\nAdded deferred tool namespaces:\n- calendar: Calendar events and reminders.\n- linear: Issue tracking.\nRemoved deferred tool namespaces:\n- slack: Team chat.\n</tools>"
    );
    assert_eq!(
        rendered(&section(&[]), Known(&after.snapshot())),
        "<tools>\nRemoved deferred tool namespaces:\n- calendar: Calendar events and reminders.\n- github: Pull requests.\n- linear: Issue tracking.\nNo deferred tool namespaces remain.\n</tools>"
    );
    assert!(after.render_diff(Known(&after.snapshot())).is_none());
}

#[test]
fn caps_namespace_descriptions_by_character_count() {
    let long = "é".repeat(MAX_NAMESPACE_DESCRIPTION_CHARS + 50);
    let tools = section(&[("docs", &long)]);
    let kept = tools.snapshot().remove("docs").expect("docs namespace");
    assert_eq!(kept, "é".repeat(MAX_NAMESPACE_DESCRIPTION_CHARS));
    assert_eq!(kept.len(), 2 * MAX_NAMESPACE_DESCRIPTION_CHARS);
}

#[test]
fn caps_rendered_tools_fragment_after_xml_escaping() {
    // Each description is 200 `&`, which escapes to 1000 bytes: only three entries fit.
    let names: Vec<String> = (0..10).map(|index| format!("ns{index:02}")).collect();
    let description = "&".repeat(200);
    let namespaces: Vec<(&str, &str)> = names
        .iter()
        .map(|name| (name.as_str(), description.as_str()))
        .collect();
    let tools = section(&namespaces);

    let initial = rendered(&tools, Absent);
    let line = format!("- ns00: {}\n", "&amp;".repeat(200));
    assert_eq!(line.len(), 1009);
    assert_eq!(
        initial,
        format!(
            "<tools>\nDeferred tool namespaces:\n{}{}{}... 7 additional namespaces omitted.\n</tools>",
            line,
            line.replace("ns00", "ns01"),
            line.replace("ns00", "ns02"),
        )
    );
    assert!(initial.len() <= MAX_TOOLS_FRAGMENT_BYTES);

    // Additions and removals share one budget; each group reports its own omissions.
    let removed_only = section(&[]);
    let diff = rendered(&removed_only, Known(&tools.snapshot()));
    assert!(diff.len() <= MAX_TOOLS_FRAGMENT_BYTES, "{}", diff.len());
    assert!(diff.ends_with(
        "... 7 additional namespaces omitted.\nNo deferred tool namespaces remain.\n</tools>"
    ));
    let renamed: Vec<(String, &str)> = names
        .iter()
        .map(|name| (format!("new_{name}"), description.as_str()))
        .collect();
    let renamed_refs: Vec<(&str, &str)> = renamed
        .iter()
        .map(|(name, description)| (name.as_str(), *description))
        .collect();
    let both = rendered(&section(&renamed_refs), Known(&tools.snapshot()));
    assert!(both.len() <= MAX_TOOLS_FRAGMENT_BYTES, "{}", both.len());
    assert_eq!(both.matches("additional namespaces omitted.").count(), 2);
}

#[test]
fn empty_namespace_sets_are_not_persisted() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(&[]))
        .expect("unique section");
    assert_eq!(world_state.snapshot().into_value(), json!({}));
    assert!(world_state.render_full().is_empty());

    let mut world_state = WorldState::new();
    world_state
        .add_section(section(&[("github", "Pull requests.")]))
        .expect("unique section");
    assert_eq!(
        world_state.snapshot().into_value(),
        json!({"tools": {"github": "Pull requests."}})
    );
}

#[test]
fn catalog_builds_tools_from_json_inputs() {
    let previous = PreviousSectionArg::parse(r#"{"namespaces": {"github": "Pull requests."}}"#)
        .expect("JSON inputs");
    let output = world_state_diff_cli(
        "tools",
        &previous,
        r#"{"namespaces": {"github": "Pull requests.", "drive": "Shared documents.\nDetails."}}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        output,
        "(role - developer)\n<tools>\nAdded deferred tool namespaces:\n- drive: Shared documents.\n</tools>"
    );
}

#[test]
fn recorded_descriptions_are_rederived_and_names_stay() {
    let own = section(&[("multi_agent", "Our words.")]);
    let recorded: ToolsSnapshot = [
        (
            "multi_agent".to_string(),
            "The release's words.".to_string(),
        ),
        ("gone".to_string(), "Removed since.".to_string()),
    ]
    .into_iter()
    .collect();
    let rederived = own.rederive_recorded(&recorded).expect("rederived");
    assert_eq!(
        rederived,
        [
            ("gone".to_string(), "Removed since.".to_string()),
            ("multi_agent".to_string(), "Our words.".to_string()),
        ]
        .into_iter()
        .collect::<ToolsSnapshot>()
    );
    // Only the removed namespace is news.
    let update = rendered(&own, Known(&rederived));
    assert!(update.contains("gone"), "{update}");
    assert!(!update.contains("Our words."), "{update}");
}
