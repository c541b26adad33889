use super::*;
use codex_context_fragments::ContextualUserFragment;
use codex_protocol::models::ContentItemKind;
use pretty_assertions::assert_eq;

pub(super) fn embedded() -> TemplateSet {
    TemplateSet::embedded()
}

pub(super) fn template_text(id: TemplateId) -> String {
    embedded().text(id).to_string()
}

pub(super) fn rendered(builder: PermissionsInstructionsBuilder) -> String {
    builder.build(&embedded()).render()
}

pub(super) fn approval_only(builder: PermissionsInstructionsBuilder) -> String {
    builder.build(&embedded()).approval_section_for_tests()
}

impl PermissionsInstructions {
    /// The approval section alone, for tests that compare it whole: the body minus the
    /// leading sandbox section line and the final newline.
    fn approval_section_for_tests(&self) -> String {
        let without_newlines = self.body.strip_prefix('\n').unwrap_or(&self.body);
        let after_sandbox = without_newlines
            .split_once('\n')
            .map(|(_, rest)| rest)
            .unwrap_or("");
        after_sandbox
            .strip_suffix('\n')
            .unwrap_or(after_sandbox)
            .to_string()
    }
}

pub(super) fn granular(
    sandbox_approval: bool,
    rules: bool,
    skill_approval: bool,
    request_permissions: bool,
    mcp_elicitations: bool,
) -> AskForApproval {
    AskForApproval::Granular(GranularApprovalConfig {
        sandbox_approval,
        rules,
        skill_approval,
        request_permissions,
        mcp_elicitations,
    })
}

const SANDBOX_MODES: [SandboxMode; 3] = [
    SandboxMode::ReadOnly,
    SandboxMode::WorkspaceWrite,
    SandboxMode::DangerFullAccess,
];

#[test]
fn every_sandbox_and_network_combination_for_each_approval_policy() {
    let policies = [
        ("never", AskForApproval::Never),
        ("unless_trusted", AskForApproval::UnlessTrusted),
        ("on_request", AskForApproval::OnRequest),
        (
            "granular_all_allowed",
            granular(true, true, true, true, true),
        ),
        ("granular_mixed", granular(false, true, false, true, false)),
    ];
    for (name, policy) in policies {
        let mut snapshot = String::new();
        for mode in SANDBOX_MODES {
            for network in NetworkAccess::ALL {
                let roots = match mode {
                    SandboxMode::WorkspaceWrite => {
                        vec![PathBuf::from("/work/b"), PathBuf::from("/work/a")]
                    }
                    SandboxMode::ReadOnly | SandboxMode::DangerFullAccess => Vec::new(),
                };
                let text = rendered(
                    PermissionsInstructions::builder(mode, policy)
                        .network_access(*network)
                        .writable_roots(roots),
                );
                snapshot.push_str(&format!("===== {mode} / network {network} =====\n{text}\n"));
            }
        }
        insta::assert_snapshot!(format!("matrix_{name}"), snapshot);
    }
}

#[test]
fn sections_are_joined_by_single_newlines_inside_the_markers() {
    let instructions =
        PermissionsInstructions::builder(SandboxMode::DangerFullAccess, AskForApproval::Never)
            .network_access(NetworkAccess::Enabled)
            .build(&embedded());
    let sandbox = embedded().render(
        TemplateId::SandboxDangerFullAccess,
        &[("network_access", "enabled")],
    );
    assert_eq!(
        instructions.render(),
        format!(
            "<permissions instructions>\n{sandbox}\n{}\n</permissions instructions>",
            template_text(TemplateId::ApprovalNever)
        )
    );
    assert!(sandbox.ends_with("Network access is enabled."), "{sandbox}");
}

#[test]
fn is_a_developer_fragment_recognised_by_its_markers() {
    let instructions =
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::OnRequest)
            .build(&embedded());
    assert_eq!(instructions.role(), "developer");
    assert_eq!(
        instructions.content_kind(),
        ContentItemKind::new("permissions.instructions")
    );
    assert_eq!(
        PermissionsInstructions::type_markers(),
        ("<permissions instructions>", "</permissions instructions>")
    );
    assert_eq!(
        instructions.markers(),
        PermissionsInstructions::type_markers()
    );
    assert!(PermissionsInstructions::matches_text(
        &instructions.render()
    ));
    assert_eq!(instructions.body(), instructions.text());
}

#[test]
fn one_writable_root_and_several_sorted_unique_roots() {
    let one = PermissionsInstructions::builder(SandboxMode::WorkspaceWrite, AskForApproval::Never)
        .writable_roots(vec![PathBuf::from("/repo")])
        .build(&embedded());
    assert!(
        one.text().ends_with(&format!(
            "{}\n{}\n",
            template_text(TemplateId::ApprovalNever),
            embedded().render(TemplateId::WritableRoot, &[("root", "`/repo`")])
        )),
        "{}",
        one.text()
    );
    let several =
        PermissionsInstructions::builder(SandboxMode::WorkspaceWrite, AskForApproval::Never)
            .writable_roots(vec![
                PathBuf::from("/z"),
                PathBuf::from("/a/b"),
                PathBuf::from("/z"),
                PathBuf::from("/a"),
            ])
            .build(&embedded());
    assert!(
        several.text().ends_with(&format!(
            "\n{}\n",
            embedded().render(
                TemplateId::WritableRoots,
                &[("roots", "`/a`, `/a/b`, `/z`")]
            )
        )),
        "{}",
        several.text()
    );
}

#[test]
fn denied_reads_list_paths_then_globs_after_the_writable_roots() {
    insta::assert_snapshot!(rendered(
        PermissionsInstructions::builder(SandboxMode::WorkspaceWrite, AskForApproval::Never)
            .writable_roots(vec![PathBuf::from("/repo")])
            .denied_reads(vec![
                DeniedRead::Glob("/repo/**/*.pem".to_string()),
                DeniedRead::Path(PathBuf::from("/repo/.env")),
                DeniedRead::Path(PathBuf::from("/home/me/.ssh")),
            ])
    ));
}

#[test]
fn on_request_lists_approved_prefixes_after_the_rules() {
    let text = rendered(
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::OnRequest)
            .approved_prefixes(vec![
                vec!["git".to_string(), "pull".to_string()],
                vec!["cargo".to_string()],
            ]),
    );
    let expected_tail = format!(
        "{}\n\n{}\n</permissions instructions>",
        template_text(TemplateId::ApprovalOnRequest),
        embedded().render(
            TemplateId::ApprovedCommandPrefixes,
            &[("prefixes", "- [\"cargo\"]\n- [\"git\", \"pull\"]")]
        )
    );
    assert!(text.ends_with(&expected_tail), "{text}");
}

#[test]
fn approved_prefixes_are_not_listed_for_never_or_unless_trusted() {
    for policy in [AskForApproval::Never, AskForApproval::UnlessTrusted] {
        let with_prefixes = rendered(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, policy)
                .approved_prefixes(vec![vec!["ls".to_string()]]),
        );
        let without = rendered(PermissionsInstructions::builder(
            SandboxMode::ReadOnly,
            policy,
        ));
        assert_eq!(with_prefixes, without);
    }
}

#[test]
fn approved_prefixes_are_truncated_at_one_hundred() {
    let prefixes = (0..150)
        .map(|i| vec!["tool".to_string(), format!("{i:03}")])
        .collect::<Vec<_>>();
    let text = rendered(
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::OnRequest)
            .approved_prefixes(prefixes),
    );
    let list_start = text
        .find("- [\"tool\", \"000\"]")
        .expect("list is rendered");
    let list = &text[list_start..];
    assert_eq!(list.matches("- [\"tool\"").count(), 100);
    assert!(list.contains("- [\"tool\", \"099\"]"));
    assert!(!list.contains("\"100\""));
    assert!(
        list.ends_with(&format!(
            "- [\"tool\", \"099\"]{}\n</permissions instructions>",
            template_text(TemplateId::ApprovedCommandPrefixesTruncated)
        )),
        "{list}"
    );
}

#[test]
fn approved_prefixes_are_truncated_at_five_thousand_characters() {
    let prefixes = (0..80)
        .map(|i| vec![format!("tool-{i:02}"), "x".repeat(100)])
        .collect::<Vec<_>>();
    let templates = embedded();
    let instructions =
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::OnRequest)
            .approved_prefixes(prefixes.clone())
            .build(&templates);
    let list = format_allow_prefixes(&prefixes, &templates).expect("list");
    assert!(list.ends_with(templates.text(TemplateId::ApprovedCommandPrefixesTruncated)));
    assert!(
        instructions.text().ends_with(&format!(
            "{}\n",
            templates.render(TemplateId::ApprovedCommandPrefixes, &[("prefixes", &list)])
        )),
        "{}",
        instructions.text()
    );
}

#[test]
fn on_request_guidance_follows_exec_approvals_and_the_request_permissions_tool() {
    let base =
        || PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::OnRequest);
    assert_eq!(
        approval_only(base()),
        template_text(TemplateId::ApprovalOnRequest)
    );
    assert_eq!(
        approval_only(base().exec_permission_approvals(ExecPermissionApprovals::Enabled)),
        template_text(TemplateId::ApprovalOnRequestRuleRequestPermission)
    );
    assert_eq!(
        approval_only(base().request_permissions_tool(RequestPermissionsTool::Available)),
        format!(
            "{}\n\n{}",
            template_text(TemplateId::ApprovalOnRequest),
            template_text(TemplateId::RequestPermissionsTool)
        )
    );
    assert_eq!(
        approval_only(
            base()
                .exec_permission_approvals(ExecPermissionApprovals::Enabled)
                .request_permissions_tool(RequestPermissionsTool::Available)
        ),
        format!(
            "{}\n\n{}",
            template_text(TemplateId::ApprovalOnRequestRuleRequestPermission),
            template_text(TemplateId::RequestPermissionsTool)
        )
    );
}

#[test]
fn unless_trusted_adds_the_tool_section_only_when_the_tool_exists() {
    let base =
        || PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::UnlessTrusted);
    assert_eq!(
        approval_only(base()),
        template_text(TemplateId::ApprovalUnlessTrusted)
    );
    assert_eq!(
        approval_only(base().request_permissions_tool(RequestPermissionsTool::Available)),
        format!(
            "{}\n\n{}",
            template_text(TemplateId::ApprovalUnlessTrusted),
            template_text(TemplateId::RequestPermissionsTool)
        )
    );
}

#[test]
fn auto_review_appends_its_suffix_except_for_never() {
    for policy in [
        AskForApproval::OnRequest,
        AskForApproval::UnlessTrusted,
        granular(true, true, true, true, true),
    ] {
        let user = approval_only(PermissionsInstructions::builder(
            SandboxMode::ReadOnly,
            policy,
        ));
        let reviewed = approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, policy)
                .approvals_reviewer(ApprovalsReviewer::AutoReview),
        );
        assert_eq!(
            reviewed,
            format!(
                "{user}\n\n{}",
                template_text(TemplateId::ApprovalAutoReviewSuffix)
            ),
            "{policy}"
        );
    }
    assert_eq!(
        approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::Never)
                .approvals_reviewer(ApprovalsReviewer::AutoReview)
        ),
        template_text(TemplateId::ApprovalNever)
    );
}
