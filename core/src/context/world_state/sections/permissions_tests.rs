use codex_context_fragments::ContextualUserFragment;
use codex_prompts::TemplateSet;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::protocol::GranularApprovalConfig;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::context::world_state::PreviousSectionArg;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::render_transition_cases;
use crate::context::world_state::sections::approved_command_prefixes::ApprovedCommandPrefixesSection;
use crate::context::world_state::sections::approved_command_prefixes::ApprovedCommandPrefixesSectionInputs;
use crate::context::world_state::world_state_diff_cli;

/// Granular approvals with every category rejected: a short approval text that still lists
/// the approved prefixes.
const GRANULAR_REJECT_ALL: AskForApproval = AskForApproval::Granular(GranularApprovalConfig {
    sandbox_approval: false,
    rules: false,
    skill_approval: false,
    request_permissions: false,
    mcp_elicitations: false,
});

fn prefix(tokens: &[&str]) -> Vec<String> {
    tokens.iter().map(|token| token.to_string()).collect()
}

fn section(
    sandbox_mode: SandboxMode,
    approval: AskForApproval,
    prefixes: &[&[&str]],
) -> PermissionsSection {
    let writable_roots = match sandbox_mode {
        SandboxMode::WorkspaceWrite => vec![PathBuf::from("/repo")],
        SandboxMode::ReadOnly | SandboxMode::DangerFullAccess => Vec::new(),
    };
    PermissionsSection::new(
        PermissionsInstructions::builder(sandbox_mode, approval).writable_roots(writable_roots),
        prefixes.iter().map(|tokens| prefix(tokens)).collect(),
        &TemplateSet::embedded(),
    )
}

fn world_state(section: PermissionsSection) -> WorldState {
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    world_state
}

fn developer_message(texts: &[&str]) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: texts
            .iter()
            .map(|text| ContentItem::input_text(*text))
            .collect(),
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn snapshots() {
    let read_only = section(SandboxMode::ReadOnly, GRANULAR_REJECT_ALL, &[]);
    let git_pull = section(
        SandboxMode::ReadOnly,
        GRANULAR_REJECT_ALL,
        &[&["git", "pull"]],
    );
    let git_pull_and_cargo_test = section(
        SandboxMode::ReadOnly,
        GRANULAR_REJECT_ALL,
        &[&["git", "pull"], &["cargo", "test"]],
    );
    let cargo_test_only = section(
        SandboxMode::ReadOnly,
        GRANULAR_REJECT_ALL,
        &[&["cargo", "test"]],
    );
    let workspace_write = section(
        SandboxMode::WorkspaceWrite,
        GRANULAR_REJECT_ALL,
        &[&["git", "pull"]],
    );
    let never = section(
        SandboxMode::WorkspaceWrite,
        AskForApproval::Never,
        &[&["git", "pull"]],
    );
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &read_only),
        (Absent, &git_pull),
        (Unknown, &git_pull),
        (Known(&read_only), &read_only),
        (Known(&git_pull), &git_pull),
        (Known(&read_only), &git_pull),
        (Known(&git_pull), &git_pull_and_cargo_test),
        (Known(&git_pull_and_cargo_test), &cargo_test_only),
        (Known(&git_pull), &workspace_write),
        (Known(&workspace_write), &never),
    ]));
}

#[test]
fn approved_prefix_is_rendered_without_reinjecting_permissions() {
    let before = world_state(section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[],
    ));
    let full_text = renders(&before.render_full()).remove(0);
    let baseline = before.snapshot();
    let after = world_state(section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["git", "pull"]],
    ));

    let history = vec![developer_message(&[&full_text])];
    assert_eq!(
        renders(&after.render_history_diff(Some(&baseline), &history)),
        vec!["Approved command prefix saved:\n- [\"git\", \"pull\"]".to_string()]
    );
    // The fingerprint leaves the prefixes out, so only the prefix list changes.
    assert_eq!(
        after.snapshot().merge_patch_from(&baseline),
        Some(json!({"permissions": {"approved_command_prefixes": [["git", "pull"]]}}))
    );
    // The full block of the new state does list the prefix.
    assert!(renders(&after.render_full())[0].contains("- [\"git\", \"pull\"]"));
}

#[test]
fn renders_only_newly_approved_prefixes() {
    let before = section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["git", "pull"]],
    );
    let after = section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["git", "pull"], &["cargo", "test", "-p"], &["ls"]],
    );
    let rendered = after
        .render_diff(Known(&before.snapshot()))
        .expect("a notice");
    assert_eq!(
        rendered.render(),
        "Approved command prefix saved:\n- [\"ls\"]\n- [\"cargo\", \"test\", \"-p\"]"
    );
    assert_eq!(rendered.role(), "developer");
    assert_eq!(
        rendered.content_kind().as_str(),
        "permissions.approved_command_prefix_saved"
    );
}

#[test]
fn legacy_snapshot_deserializes_and_only_suppresses_matching_full_permissions() {
    let current = world_state(section(
        SandboxMode::ReadOnly,
        AskForApproval::Never,
        &[&["git", "pull"]],
    ));
    let full = renders(&current.render_full()).remove(0);
    let matching = FragmentFingerprint::new("developer", &full);
    let other = FragmentFingerprint::new(
        "developer",
        "<permissions instructions>\nolder text\n</permissions instructions>",
    );

    let legacy = |fingerprint: &FragmentFingerprint| {
        WorldStateSnapshot::from_value(json!({"permissions": fingerprint.as_str()}))
            .expect("object")
    };
    assert_eq!(
        serde_json::from_value::<PermissionsSnapshot>(json!(matching.as_str())).expect("legacy"),
        PermissionsSnapshot::Legacy(matching.clone())
    );
    assert!(current.render_diff(&legacy(&matching)).is_empty());
    assert_eq!(renders(&current.render_diff(&legacy(&other))), vec![full]);
}

#[test]
fn removing_an_approved_prefix_renders_full_permissions() {
    let before = section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["git", "pull"], &["cargo", "test"]],
    );
    let after = section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["cargo", "test"]],
    );
    let rendered = after
        .render_diff(Known(&before.snapshot()))
        .expect("full block")
        .render();
    assert_eq!(
        rendered,
        section(
            SandboxMode::ReadOnly,
            AskForApproval::OnRequest,
            &[&["cargo", "test"]]
        )
        .render_diff(Absent)
        .expect("full block")
        .render()
    );
    assert!(rendered.contains("- [\"cargo\", \"test\"]"));
    assert!(!rendered.contains("- [\"git\", \"pull\"]"));
}

#[test]
fn persisted_permissions_are_detected_inside_bundled_developer_messages() {
    let current = world_state(section(SandboxMode::ReadOnly, AskForApproval::Never, &[]));
    let full = renders(&current.render_full()).remove(0);
    let baseline = current.snapshot();
    let bundled = vec![developer_message(&[
        "<collaboration_mode>Pair with the user.</collaboration_mode>",
        &full,
        "<apps_instructions>\nApps.\n</apps_instructions>",
    ])];

    assert!(
        current
            .render_history_diff(Some(&baseline), &bundled)
            .is_empty()
    );
    // Once the block is gone from history it is restated in full.
    let trimmed = vec![developer_message(&[
        "<collaboration_mode>x</collaboration_mode>",
    ])];
    assert_eq!(
        renders(&current.render_history_diff(Some(&baseline), &trimmed)),
        vec![full.clone()]
    );
    // Without a baseline, the block in history makes the previous state Unknown, which still
    // restates it (there is no snapshot to trust yet).
    assert_eq!(
        renders(&current.render_history_diff(None, &bundled)),
        vec![full]
    );
}

#[test]
fn snapshot_keeps_the_prefix_free_fingerprint_and_sorted_prefixes() {
    let with_prefixes = section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["npm", "test"], &["cargo", "test"], &["npm", "test"]],
    );
    let without = section(SandboxMode::ReadOnly, AskForApproval::OnRequest, &[]);
    let instructions = match without.snapshot() {
        PermissionsSnapshot::Current { instructions, .. } => instructions,
        PermissionsSnapshot::Legacy(fingerprint) => fingerprint,
    };
    assert_eq!(
        world_state(with_prefixes).snapshot().into_value(),
        json!({"permissions": {
            "approved_command_prefixes": [["cargo", "test"], ["npm", "test"]],
            "instructions": instructions.as_str(),
        }})
    );
}

#[test]
fn catalog_builds_permissions_from_json_inputs() {
    let previous =
        PreviousSectionArg::parse(r#"{"sandbox_mode": "read-only", "approval_policy": "never"}"#)
            .expect("JSON inputs");
    let notice = world_state_diff_cli(
        "permissions",
        &previous,
        r#"{"sandbox_mode": "read-only", "approval_policy": "never", "approved_command_prefixes": [["make"]]}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        notice,
        "(role - developer)\nApproved command prefix saved:\n- [\"make\"]"
    );
    let full = world_state_diff_cli(
        "permissions",
        &previous,
        r#"{"sandbox_mode": "workspace-write", "approval_policy": {"granular": {"sandbox_approval": true, "rules": false, "mcp_elicitations": false}}, "writable_roots": ["/repo"], "denied_reads": [{"path": "/repo/.env"}, {"glob": "**/*.pem"}], "network_access": "enabled"}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    let expected = PermissionsSectionInputs {
        sandbox_mode: SandboxMode::WorkspaceWrite,
        approval_policy: AskForApproval::Granular(GranularApprovalConfig {
            sandbox_approval: true,
            rules: false,
            skill_approval: false,
            request_permissions: false,
            mcp_elicitations: false,
        }),
        network_access: NetworkAccess::Enabled,
        approvals_reviewer: ApprovalsReviewer::User,
        writable_roots: vec![PathBuf::from("/repo")],
        denied_reads: vec![
            DeniedReadInputs::Path(PathBuf::from("/repo/.env")),
            DeniedReadInputs::Glob("**/*.pem".to_string()),
        ],
        approved_command_prefixes: Vec::new(),
        exec_permission_approvals: false,
        request_permissions_tool: false,
        catalog_permission_messages: None,
        catalog_approval_messages: None,
    }
    .builder()
    .build(&TemplateSet::embedded())
    .render();
    assert_eq!(full, format!("(role - developer)\n{expected}"));
}

#[test]
fn switching_to_compact_prefix_notices_drops_the_permissions_key_silently() {
    let full = world_state(section(
        SandboxMode::ReadOnly,
        AskForApproval::OnRequest,
        &[&["git", "pull"]],
    ));
    let mut compact = WorldState::new();
    compact
        .add_section(ApprovedCommandPrefixesSection::new(
            ApprovedCommandPrefixesSectionInputs {
                approved_command_prefixes: vec![prefix(&["git", "pull"])],
            },
            &TemplateSet::embedded(),
        ))
        .expect("unique section");

    // The permissions section is no longer registered: nothing is said about it, its key is
    // deleted, and the compact section starts without restating existing prefixes.
    assert!(compact.render_diff(&full.snapshot()).is_empty());
    assert_eq!(
        compact.snapshot().merge_patch_from(&full.snapshot()),
        Some(json!({
            "permissions": null,
            "approved_command_prefixes": [["git", "pull"]],
        }))
    );
}

/// What the released CLI records: the fingerprint of its own permissions text.
const RELEASE_FINGERPRINT: &str = "fed2f53df24dd05a217b734cf7ad9abefa7cc6a2";

fn release_baseline(prefixes: Value) -> WorldStateSnapshot {
    WorldStateSnapshot::from_value(json!({
        "permissions": {"instructions": RELEASE_FINGERPRINT, "approved_command_prefixes": prefixes}
    }))
    .expect("snapshot")
}

#[test]
fn a_release_baseline_rederived_under_unchanged_policies_sends_nothing() {
    let recorded = world_state(section(SandboxMode::ReadOnly, AskForApproval::Never, &[]));
    let baseline = recorded.rederive_recorded_baseline(&release_baseline(json!([])));
    let current = world_state(section(SandboxMode::ReadOnly, AskForApproval::Never, &[]));
    assert!(current.render_diff(&baseline).is_empty());
    // Without the re-derivation the release's fingerprint never matches this project's text.
    assert_eq!(current.render_diff(&release_baseline(json!([]))).len(), 1);
}

#[test]
fn a_release_baseline_rederived_under_other_policies_restates_them() {
    let recorded = world_state(section(SandboxMode::ReadOnly, AskForApproval::Never, &[]));
    let baseline = recorded.rederive_recorded_baseline(&release_baseline(json!([])));
    let current = world_state(section(
        SandboxMode::WorkspaceWrite,
        AskForApproval::Never,
        &[],
    ));
    let rendered = current.render_diff(&baseline);
    assert_eq!(rendered.len(), 1);
    assert!(
        rendered[0]
            .render()
            .starts_with("<permissions instructions>")
    );
}

#[test]
fn rederiving_keeps_the_recorded_prefixes() {
    let recorded = world_state(section(SandboxMode::ReadOnly, AskForApproval::Never, &[]));
    let baseline =
        recorded.rederive_recorded_baseline(&release_baseline(json!([["git", "status"]])));
    assert_eq!(
        baseline.get("permissions"),
        Some(&json!({
            "approved_command_prefixes": [["git", "status"]],
            "instructions": section(SandboxMode::ReadOnly, AskForApproval::Never, &[])
                .instructions_hash
                .as_str(),
        }))
    );
    // A prefix approved since is announced as saved, not as a new permissions block.
    let current = world_state(section(
        SandboxMode::ReadOnly,
        AskForApproval::Never,
        &[&["git", "status"], &["cargo", "test"]],
    ));
    let rendered = current.render_diff(&baseline);
    assert_eq!(rendered.len(), 1);
    assert!(
        !rendered[0]
            .render()
            .starts_with("<permissions instructions>")
    );
}
