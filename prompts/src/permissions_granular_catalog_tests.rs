use super::tests::approval_only;
use super::tests::embedded;
use super::tests::granular;
use super::tests::rendered;
use super::tests::template_text;
use super::*;
use pretty_assertions::assert_eq;

fn granular_expected(prompted: &[&str], rejected: &[&str], extra: &[TemplateId]) -> String {
    let templates = embedded();
    let mut sections = vec![template_text(TemplateId::ApprovalGranularIntro)];
    if !prompted.is_empty() {
        sections.push(templates.render(
            TemplateId::ApprovalGranularPrompted,
            &[("categories", &prompted.join("\n"))],
        ));
    }
    if !rejected.is_empty() {
        sections.push(templates.render(
            TemplateId::ApprovalGranularRejected,
            &[("categories", &rejected.join("\n"))],
        ));
    }
    sections.extend(extra.iter().map(|id| template_text(*id)));
    sections.join("\n\n")
}

#[test]
fn granular_lists_prompted_and_rejected_categories_separately() {
    assert_eq!(
        approval_only(
            PermissionsInstructions::builder(
                SandboxMode::ReadOnly,
                granular(false, true, false, true, false)
            )
            .exec_permission_approvals(ExecPermissionApprovals::Enabled)
        ),
        granular_expected(
            &["- `rules`"],
            &[
                "- `sandbox_approval`",
                "- `skill_approval`",
                "- `mcp_elicitations`"
            ],
            &[]
        )
    );
}

#[test]
fn granular_adds_permission_request_guidance_only_when_sandbox_approval_can_prompt() {
    let all = [
        "- `sandbox_approval`",
        "- `rules`",
        "- `skill_approval`",
        "- `mcp_elicitations`",
    ];
    let policy = granular(true, true, true, true, true);
    assert_eq!(
        approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, policy)
                .exec_permission_approvals(ExecPermissionApprovals::Enabled)
        ),
        granular_expected(
            &all,
            &[],
            &[TemplateId::ApprovalOnRequestRuleRequestPermission]
        )
    );
    assert_eq!(
        approval_only(PermissionsInstructions::builder(
            SandboxMode::ReadOnly,
            policy
        )),
        granular_expected(&all, &[], &[])
    );
}

#[test]
fn granular_request_permissions_category_and_tool_section_need_the_tool() {
    let with_tool = |policy| {
        approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, policy)
                .request_permissions_tool(RequestPermissionsTool::Available),
        )
    };
    assert_eq!(
        with_tool(granular(true, true, true, true, true)),
        granular_expected(
            &[
                "- `sandbox_approval`",
                "- `rules`",
                "- `skill_approval`",
                "- `request_permissions`",
                "- `mcp_elicitations`"
            ],
            &[],
            &[TemplateId::RequestPermissionsTool]
        )
    );
    assert_eq!(
        with_tool(granular(true, true, true, false, true)),
        granular_expected(
            &[
                "- `sandbox_approval`",
                "- `rules`",
                "- `skill_approval`",
                "- `mcp_elicitations`"
            ],
            &["- `request_permissions`"],
            &[]
        )
    );
}

#[test]
fn granular_with_prefixes_matches_snapshot() {
    insta::assert_snapshot!(rendered(
        PermissionsInstructions::builder(
            SandboxMode::WorkspaceWrite,
            granular(true, false, true, true, false)
        )
        .network_access(NetworkAccess::Enabled)
        .writable_roots(vec![PathBuf::from("/repo")])
        .exec_permission_approvals(ExecPermissionApprovals::Enabled)
        .request_permissions_tool(RequestPermissionsTool::Available)
        .approvals_reviewer(ApprovalsReviewer::AutoReview)
        .approved_prefixes(vec![vec!["npm".to_string(), "test".to_string()]])
    ));
}

#[test]
fn catalog_sandbox_message_selects_the_mode_and_fills_only_the_spaced_placeholder() {
    let catalog = CatalogPermissionMessages {
        read_only: Some("RO net={{ network_access }}".to_string()),
        workspace_write: Some(
            "WW {{ network_access }} {{network_access}} {{ unsupported }} {{ unterminated"
                .to_string(),
        ),
        danger_full_access: None,
    };
    let sandbox_line = |mode| {
        let body = PermissionsInstructions::builder(mode, AskForApproval::Never)
            .network_access(NetworkAccess::Enabled)
            .catalog_permission_messages(catalog.clone())
            .build(&embedded())
            .text()
            .to_string();
        body.lines().nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(sandbox_line(SandboxMode::ReadOnly), "RO net=enabled");
    assert_eq!(
        sandbox_line(SandboxMode::WorkspaceWrite),
        "WW enabled {{network_access}} {{ unsupported }} {{ unterminated"
    );
    assert_eq!(
        sandbox_line(SandboxMode::DangerFullAccess),
        embedded().render(
            TemplateId::SandboxDangerFullAccess,
            &[("network_access", "enabled")]
        )
    );
}

#[test]
fn empty_catalog_sandbox_message_drops_only_the_sandbox_section() {
    let instructions =
        PermissionsInstructions::builder(SandboxMode::WorkspaceWrite, AskForApproval::Never)
            .writable_roots(vec![PathBuf::from("/repo")])
            .catalog_permission_messages(CatalogPermissionMessages {
                workspace_write: Some(String::new()),
                ..CatalogPermissionMessages::default()
            })
            .build(&embedded());
    assert_eq!(
        instructions.text(),
        format!(
            "\n{}\n{}\n",
            template_text(TemplateId::ApprovalNever),
            embedded().render(TemplateId::WritableRoot, &[("root", "`/repo`")])
        )
    );
}

#[test]
fn catalog_approval_message_is_used_verbatim_and_selected_by_policy_and_reviewer() {
    let catalog = CatalogApprovalMessages {
        on_request: Some("ASK {{ network_access }}".to_string()),
        on_request_auto_review: Some("REVIEWED".to_string()),
        never: None,
        unless_trusted: Some(String::new()),
    };
    let approval = |policy, reviewer| {
        approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, policy)
                .approvals_reviewer(reviewer)
                .request_permissions_tool(RequestPermissionsTool::Available)
                .approved_prefixes(vec![vec!["ls".to_string()]])
                .catalog_approval_messages(catalog.clone()),
        )
    };
    assert_eq!(
        approval(AskForApproval::OnRequest, ApprovalsReviewer::User),
        "ASK {{ network_access }}"
    );
    // No auto-review suffix after catalog text: the catalog variant already speaks for it.
    assert_eq!(
        approval(AskForApproval::OnRequest, ApprovalsReviewer::AutoReview),
        "REVIEWED"
    );
    assert_eq!(
        approval(AskForApproval::Never, ApprovalsReviewer::User),
        template_text(TemplateId::ApprovalNever)
    );
    assert_eq!(
        approval(AskForApproval::UnlessTrusted, ApprovalsReviewer::User),
        ""
    );
    let granular_policy = granular(true, true, true, true, true);
    assert_eq!(
        approval(granular_policy, ApprovalsReviewer::User),
        approval_only(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, granular_policy)
                .request_permissions_tool(RequestPermissionsTool::Available)
                .approved_prefixes(vec![vec!["ls".to_string()]])
        )
    );
}

#[test]
fn empty_catalog_approval_message_leaves_the_other_sections() {
    let instructions =
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::UnlessTrusted)
            .catalog_approval_messages(CatalogApprovalMessages {
                unless_trusted: Some(String::new()),
                ..CatalogApprovalMessages::default()
            })
            .denied_reads(vec![DeniedRead::Path(PathBuf::from("/secret"))])
            .build(&embedded());
    let sandbox = embedded().render(
        TemplateId::SandboxReadOnly,
        &[("network_access", "restricted")],
    );
    let denied = embedded().render(TemplateId::DeniedReads, &[("entries", "- path `/secret`")]);
    assert_eq!(instructions.text(), format!("\n{sandbox}\n{denied}\n"));
}

#[test]
fn builder_from_policy_infers_mode_network_and_roots() {
    let cwd = Path::new("/repo");
    let temporary = TemporaryDirectories {
        slash_tmp: Some(PathBuf::from("/tmp")),
        tmpdir: None,
    };
    let cases = [
        (
            SandboxPolicy::DangerFullAccess,
            SandboxMode::DangerFullAccess,
            NetworkAccess::Enabled,
            Vec::new(),
        ),
        (
            SandboxPolicy::ExternalSandbox {
                network_access: NetworkAccess::Restricted,
            },
            SandboxMode::DangerFullAccess,
            NetworkAccess::Restricted,
            Vec::new(),
        ),
        (
            SandboxPolicy::ReadOnly {
                access: Default::default(),
                network_access: true,
            },
            SandboxMode::ReadOnly,
            NetworkAccess::Enabled,
            Vec::new(),
        ),
        (
            SandboxPolicy::new_workspace_write_policy(),
            SandboxMode::WorkspaceWrite,
            NetworkAccess::Restricted,
            vec![PathBuf::from("/repo"), PathBuf::from("/tmp")],
        ),
    ];
    for (policy, mode, network, roots) in cases {
        assert_eq!(
            PermissionsInstructions::builder_from_policy(
                &policy,
                cwd,
                &temporary,
                AskForApproval::Never
            ),
            PermissionsInstructions::builder(mode, AskForApproval::Never)
                .network_access(network)
                .writable_roots(roots),
            "{policy}"
        );
    }
}

#[test]
fn overlay_templates_change_the_rendering() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("permissions/approval_policy/never.md");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, "No approvals here.\n").expect("write");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    let instructions =
        PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::Never)
            .build(&templates);
    assert!(
        instructions
            .text()
            .ends_with("restricted.\nNo approvals here.\n"),
        "{}",
        instructions.text()
    );
}

#[test]
fn catalog_messages_convert_from_the_model_catalog_types() {
    let permissions = PermissionMessages {
        danger_full_access: Some(String::new()),
        workspace_write: None,
        read_only: Some("ro".to_string()),
    };
    let approvals = ApprovalMessages {
        on_request: Some("ask".to_string()),
        on_request_auto_review: None,
        never: Some(String::new()),
        unless_trusted: Some("trusted".to_string()),
    };
    assert_eq!(
        CatalogPermissionMessages::from(&permissions),
        CatalogPermissionMessages {
            read_only: Some("ro".to_string()),
            workspace_write: None,
            danger_full_access: Some(String::new()),
        }
    );
    assert_eq!(
        CatalogApprovalMessages::from(&approvals),
        CatalogApprovalMessages {
            on_request: Some("ask".to_string()),
            on_request_auto_review: None,
            never: Some(String::new()),
            unless_trusted: Some("trusted".to_string()),
        }
    );
}
