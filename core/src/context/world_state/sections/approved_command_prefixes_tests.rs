use codex_prompts::TemplateSet;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
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

fn section(prefixes: &[&[&str]]) -> ApprovedCommandPrefixesSection {
    ApprovedCommandPrefixesSection::new(
        ApprovedCommandPrefixesSectionInputs {
            approved_command_prefixes: prefixes
                .iter()
                .map(|tokens| tokens.iter().map(|token| token.to_string()).collect())
                .collect(),
        },
        &TemplateSet::embedded(),
    )
}

fn world_state(section: ApprovedCommandPrefixesSection) -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    world_state
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
    let none = section(&[]);
    let git_pull = section(&[&["git", "pull"]]);
    let both = section(&[&["git", "pull"], &["cargo", "test"]]);
    let cargo_only = section(&[&["cargo", "test"]]);
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &none),
        (Absent, &git_pull),
        (Unknown, &both),
        (Known(&none), &none),
        (Known(&none), &git_pull),
        (Known(&git_pull), &git_pull),
        (Known(&git_pull), &both),
        (Known(&both), &cargo_only),
        (Known(&git_pull), &cargo_only),
    ]));
}

#[test]
fn renders_only_newly_approved_prefixes() {
    let before = world_state(section(&[&["git", "pull"]]));
    let after = world_state(section(&[&["git", "pull"], &["cargo", "test"], &["make"]]));
    let rendered: Vec<String> = after
        .render_diff(&before.snapshot())
        .iter()
        .map(|fragment| fragment.render())
        .collect();
    assert_eq!(
        rendered,
        vec!["Approved command prefix saved:\n- [\"make\"]\n- [\"cargo\", \"test\"]".to_string()]
    );
    assert_eq!(
        after.snapshot().into_value(),
        json!({"approved_command_prefixes": [["cargo", "test"], ["git", "pull"], ["make"]]})
    );
}

#[test]
fn does_not_duplicate_a_retained_legacy_update() {
    let current = world_state(section(&[&["git", "pull"]]));
    let history = vec![developer_message(
        "Approved command prefix saved:\n- [\"git\", \"pull\"]",
    )];
    assert!(current.render_history_diff(None, &history).is_empty());
    assert!(ApprovedCommandPrefixesSection::matches_legacy_fragment(
        "developer",
        "\n Approved command prefix saved:\n- [\"ls\"]"
    ));
    assert!(!ApprovedCommandPrefixesSection::matches_legacy_fragment(
        "user",
        "Approved command prefix saved:\n- [\"ls\"]"
    ));
}

#[test]
fn does_not_render_existing_prefixes_without_a_previous_snapshot() {
    let current = world_state(section(&[&["git", "pull"], &["cargo", "test"]]));
    assert!(current.render_full().is_empty());
    assert!(current.render_history_diff(None, &[]).is_empty());
}

#[test]
fn long_prefix_lists_use_the_shared_formatter_and_its_truncation_note() {
    let many: Vec<Vec<String>> = (0..120)
        .map(|index| vec![format!("tool{index:03}")])
        .collect();
    let before = section(&[]);
    let after = ApprovedCommandPrefixesSection::new(
        ApprovedCommandPrefixesSectionInputs {
            approved_command_prefixes: many,
        },
        &TemplateSet::embedded(),
    );
    let notice = after
        .render_diff(Known(&before.snapshot()))
        .expect("a notice")
        .render();
    assert!(notice.starts_with("Approved command prefix saved:\n- [\"tool000\"]\n"));
    assert_eq!(notice.matches("\n- [").count(), 100);
    assert!(notice.ends_with(
        TemplateSet::embedded().text(codex_prompts::TemplateId::ApprovedCommandPrefixesTruncated)
    ));
}

#[test]
fn catalog_builds_the_section_from_json_inputs() {
    let previous = PreviousSectionArg::parse(r#"{"approved_command_prefixes": [["git", "pull"]]}"#)
        .expect("JSON inputs");
    let output = world_state_diff_cli(
        "approved_command_prefixes",
        &previous,
        r#"{"approved_command_prefixes": [["git", "pull"], ["npm", "run", "dev"]]}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        output,
        "(role - developer)\nApproved command prefix saved:\n- [\"npm\", \"run\", \"dev\"]"
    );
}
