use codex_prompts::PermissionsInstructions;
use codex_protocol::config_types::SandboxMode;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::protocol::AskForApproval;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::ErasedWorldStateSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::describe_rendered;
use crate::context::world_state::sections::environments::EnvironmentsSection;
use crate::context::world_state::sections::environments::EnvironmentsSectionInputs;
use crate::context::world_state::sections::permissions::PermissionsSection;

fn contribution(enabled: bool, attribution: Option<&str>) -> WorldStateSectionContribution {
    git_attribution_contribution(
        &GitAttributionInputs {
            enabled,
            attribution: attribution.map(str::to_string),
        },
        &TemplateSet::embedded(),
    )
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

fn world_state(contribution: WorldStateSectionContribution) -> WorldState {
    let mut world_state = WorldState::new();
    world_state
        .add_contribution(contribution)
        .expect("unique section");
    world_state
}

fn renders(
    world_state: &WorldState,
    baseline: Option<&WorldStateSnapshot>,
    history: &[ResponseItem],
) -> Vec<String> {
    world_state
        .render_history_diff(baseline, history)
        .iter()
        .map(|fragment| fragment.render())
        .collect()
}

#[test]
fn snapshots() {
    let enabled = contribution(true, None);
    let custom = contribution(true, Some("  Agent X <agent@example.com> "));
    let disabled = contribution(false, None);
    let blank = contribution(true, Some("   "));
    let cases: [(
        &str,
        PreviousWorldStateSection<'_>,
        &WorldStateSectionContribution,
    ); 9] = [
        ("Absent", PreviousSectionState::Absent, &enabled),
        ("Absent", PreviousSectionState::Absent, &custom),
        ("Absent", PreviousSectionState::Absent, &disabled),
        ("Unknown", PreviousSectionState::Unknown, &enabled),
        ("Unknown", PreviousSectionState::Unknown, &disabled),
        ("true", PreviousSectionState::Known(&json!(true)), &enabled),
        (
            "false",
            PreviousSectionState::Known(&json!(false)),
            &enabled,
        ),
        ("true", PreviousSectionState::Known(&json!(true)), &disabled),
        ("true", PreviousSectionState::Known(&json!(true)), &blank),
    ];
    let rendered = cases
        .into_iter()
        .map(|(label, previous, current)| {
            let snapshot = current
                .persisted_snapshot()
                .map_or_else(|| "Omitted".to_string(), |value| value.to_string());
            match current.render_diff_from_json(previous) {
                Some(fragment) => format!(
                    "{label} -> {snapshot} {}",
                    describe_rendered(Some(&fragment))
                ),
                None => format!("{label} -> {snapshot}\nNone"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    insta::assert_snapshot!(rendered);
}

#[test]
fn enabled_policy_is_trusted_only_while_retained() {
    let enabled = world_state(contribution(true, None));
    let baseline = enabled.snapshot();
    assert_eq!(baseline.into_value(), json!({"git_attribution": true}));
    let baseline = enabled.snapshot();
    let block = renders(&enabled, None, &[]);
    assert_eq!(block.len(), 1);
    assert!(block[0].contains("Co-authored-by: Codex <noreply@openai.com>"));

    assert_eq!(renders(&enabled, Some(&baseline), &[]), block);
    assert_eq!(
        renders(&enabled, Some(&baseline), &[developer_message(&block[0])]),
        Vec::<String>::new()
    );
    // A block naming another co-author does not count as this policy.
    let other = contribution(true, Some("Someone <someone@example.com>"));
    let other_block = renders(&world_state(other), None, &[]).remove(0);
    assert_eq!(
        renders(
            &enabled,
            Some(&baseline),
            &[developer_message(&other_block)]
        ),
        block
    );
}

#[test]
fn legacy_policy_in_history_counts_as_seen() {
    let enabled_block = renders(&world_state(contribution(true, None)), None, &[]).remove(0);
    let history = [developer_message(&format!("  {enabled_block}\n"))];

    assert_eq!(
        renders(&world_state(contribution(true, None)), None, &history),
        Vec::<String>::new()
    );
    let disabled = renders(&world_state(contribution(false, None)), None, &history);
    assert_eq!(
        disabled,
        vec![format!(
            "<git_attribution>\n{}\n</git_attribution>",
            TemplateSet::embedded().text(TemplateId::GitAttributionDisabled)
        )]
    );
    // Without the policy in history, turning attribution off says nothing.
    assert_eq!(
        renders(&world_state(contribution(false, None)), None, &[]),
        Vec::<String>::new()
    );
}

#[test]
fn extension_fragments_get_the_instructions_content_kind() {
    let fragment = contribution(true, None)
        .render_diff_from_json(PreviousSectionState::Absent)
        .expect("policy block");
    assert_eq!(
        fragment.content_kind().as_str(),
        "git_attribution.instructions"
    );
    assert_eq!(fragment.role(), "developer");
}

#[test]
fn host_skills_is_placed_before_permissions() {
    let templates = TemplateSet::embedded();
    let mut world_state = WorldState::new();
    world_state
        .add_section(PermissionsSection::new(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::Never),
            Vec::new(),
            &templates,
        ))
        .expect("unique section");
    world_state
        .add_section(
            EnvironmentsSection::new(EnvironmentsSectionInputs::default()).expect("valid inputs"),
        )
        .expect("unique section");
    world_state
        .add_contribution(contribution(true, None))
        .expect("unique section");
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            "host_skills",
            json!({"includeInstructions": true}),
            |_| None,
        ))
        .expect("unique section");

    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        vec![
            "host_skills",
            "permissions",
            "environments",
            "git_attribution"
        ]
    );
}
