//! The `<permissions instructions>` developer fragment: what the sandbox allows and how to ask
//! for more.

use crate::TemplateId;
use crate::TemplateSet;
use crate::format_allow_prefixes;
use codex_context_fragments::PERMISSIONS_INSTRUCTIONS;
use codex_protocol::config_types::ApprovalsReviewer;
use codex_protocol::config_types::SandboxMode;
use codex_protocol::openai_models::ApprovalMessages;
use codex_protocol::openai_models::PermissionMessages;
use codex_protocol::protocol::AskForApproval;
use codex_protocol::protocol::GranularApprovalConfig;
use codex_protocol::protocol::NetworkAccess;
use codex_protocol::protocol::SandboxPolicy;
use codex_protocol::protocol::TemporaryDirectories;
use std::path::Path;
use std::path::PathBuf;

/// The only placeholder a catalog sandbox message may use; matched literally, spaces included.
pub const CATALOG_NETWORK_ACCESS_PLACEHOLDER: &str = "{{ network_access }}";

/// Whether commands may ask for extra sandboxed permissions (`with_additional_permissions`)
/// instead of full escalation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExecPermissionApprovals {
    Enabled,
    #[default]
    Disabled,
}

/// Whether the built-in `request_permissions` tool is offered to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RequestPermissionsTool {
    Available,
    #[default]
    Unavailable,
}

/// A read the active permission profile forbids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeniedRead {
    Path(PathBuf),
    Glob(String),
}

/// Sandbox texts supplied by the model catalog (`model_messages.permissions`). A present text
/// replaces the template for that mode; an empty one removes the sandbox section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogPermissionMessages {
    pub read_only: Option<String>,
    pub workspace_write: Option<String>,
    pub danger_full_access: Option<String>,
}

/// Approval texts supplied by the model catalog (`model_messages.approvals`). A present text
/// is the whole approval section, used verbatim (an empty one leaves the section empty);
/// `granular` has no catalog text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogApprovalMessages {
    pub on_request: Option<String>,
    pub on_request_auto_review: Option<String>,
    pub never: Option<String>,
    pub unless_trusted: Option<String>,
}

impl From<&PermissionMessages> for CatalogPermissionMessages {
    fn from(messages: &PermissionMessages) -> Self {
        Self {
            read_only: messages.read_only.clone(),
            workspace_write: messages.workspace_write.clone(),
            danger_full_access: messages.danger_full_access.clone(),
        }
    }
}

impl From<&ApprovalMessages> for CatalogApprovalMessages {
    fn from(messages: &ApprovalMessages) -> Self {
        Self {
            on_request: messages.on_request.clone(),
            on_request_auto_review: messages.on_request_auto_review.clone(),
            never: messages.never.clone(),
            unless_trusted: messages.unless_trusted.clone(),
        }
    }
}

/// Developer instructions describing the active sandbox and approval policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionsInstructions {
    body: String,
}

impl PermissionsInstructions {
    /// Starts a builder for an explicit sandbox mode and approval policy; network access starts
    /// out `restricted` and every optional section empty.
    pub fn builder(
        sandbox_mode: SandboxMode,
        approval_policy: AskForApproval,
    ) -> PermissionsInstructionsBuilder {
        PermissionsInstructionsBuilder {
            sandbox_mode,
            network_access: NetworkAccess::Restricted,
            approval_policy,
            approvals_reviewer: ApprovalsReviewer::User,
            writable_roots: Vec::new(),
            denied_reads: Vec::new(),
            approved_prefixes: Vec::new(),
            exec_permission_approvals: ExecPermissionApprovals::Disabled,
            request_permissions_tool: RequestPermissionsTool::Unavailable,
            catalog_permissions: CatalogPermissionMessages::default(),
            catalog_approvals: CatalogApprovalMessages::default(),
        }
    }

    /// Starts a builder from a sandbox policy: full disk write access reads as
    /// `danger-full-access`; otherwise the policy's writable roots (resolved against `cwd`)
    /// decide between `workspace-write` (some roots, which are listed) and `read-only` (none).
    pub fn builder_from_policy(
        policy: &SandboxPolicy,
        cwd: &Path,
        temporary_directories: &TemporaryDirectories,
        approval_policy: AskForApproval,
    ) -> PermissionsInstructionsBuilder {
        let writable_roots = if policy.has_full_disk_write_access() {
            Vec::new()
        } else {
            policy.writable_roots(cwd, temporary_directories)
        };
        let sandbox_mode = if policy.has_full_disk_write_access() {
            SandboxMode::DangerFullAccess
        } else if writable_roots.is_empty() {
            SandboxMode::ReadOnly
        } else {
            SandboxMode::WorkspaceWrite
        };
        Self::builder(sandbox_mode, approval_policy)
            .network_access(policy.network_access())
            .writable_roots(writable_roots)
    }

    /// The text between the markers.
    pub fn text(&self) -> &str {
        &self.body
    }
}

// Role, content kind and markers come from the one spec the `permissions` section recognises
// the fragment by.
codex_context_fragments::spec_fragment!(PermissionsInstructions, PERMISSIONS_INSTRUCTIONS);

/// Collects everything the permissions instructions depend on; [`build`](Self::build) renders
/// them with a [`TemplateSet`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionsInstructionsBuilder {
    sandbox_mode: SandboxMode,
    network_access: NetworkAccess,
    approval_policy: AskForApproval,
    approvals_reviewer: ApprovalsReviewer,
    writable_roots: Vec<PathBuf>,
    denied_reads: Vec<DeniedRead>,
    approved_prefixes: Vec<Vec<String>>,
    exec_permission_approvals: ExecPermissionApprovals,
    request_permissions_tool: RequestPermissionsTool,
    catalog_permissions: CatalogPermissionMessages,
    catalog_approvals: CatalogApprovalMessages,
}

impl PermissionsInstructionsBuilder {
    pub fn network_access(mut self, network_access: NetworkAccess) -> Self {
        self.network_access = network_access;
        self
    }

    pub fn approvals_reviewer(mut self, approvals_reviewer: ApprovalsReviewer) -> Self {
        self.approvals_reviewer = approvals_reviewer;
        self
    }

    /// Roots listed in the writable-roots sentence (sorted and de-duplicated when rendered).
    pub fn writable_roots(mut self, writable_roots: Vec<PathBuf>) -> Self {
        self.writable_roots = writable_roots;
        self
    }

    /// Reads the permission profile forbids; paths are listed before globs, each group in the
    /// order given.
    pub fn denied_reads(mut self, denied_reads: Vec<DeniedRead>) -> Self {
        self.denied_reads = denied_reads;
        self
    }

    /// Command prefixes the exec policy already allows (listed for `on-request` and
    /// `granular`).
    pub fn approved_prefixes(mut self, approved_prefixes: Vec<Vec<String>>) -> Self {
        self.approved_prefixes = approved_prefixes;
        self
    }

    pub fn exec_permission_approvals(mut self, setting: ExecPermissionApprovals) -> Self {
        self.exec_permission_approvals = setting;
        self
    }

    pub fn request_permissions_tool(mut self, setting: RequestPermissionsTool) -> Self {
        self.request_permissions_tool = setting;
        self
    }

    pub fn catalog_permission_messages(mut self, messages: CatalogPermissionMessages) -> Self {
        self.catalog_permissions = messages;
        self
    }

    pub fn catalog_approval_messages(mut self, messages: CatalogApprovalMessages) -> Self {
        self.catalog_approvals = messages;
        self
    }

    /// Joins the sandbox section, the approval section, the writable-roots sentence and the
    /// denied-reads section. Each is preceded by a newline unless the text already ends with
    /// one (so the body starts with a newline), an empty catalog sandbox text drops its
    /// section, and the body always ends with a newline.
    pub fn build(&self, templates: &TemplateSet) -> PermissionsInstructions {
        let mut body = String::new();
        if let Some(sandbox) = self.sandbox_section(templates) {
            append_section(&mut body, &sandbox);
        }
        append_section(&mut body, &self.approval_section(templates));
        if let Some(roots) = self.writable_roots_sentence(templates) {
            append_section(&mut body, &roots);
        }
        if let Some(denied) = self.denied_reads_section(templates) {
            append_section(&mut body, &denied);
        }
        if !body.ends_with('\n') {
            body.push('\n');
        }
        PermissionsInstructions { body }
    }

    fn sandbox_section(&self, templates: &TemplateSet) -> Option<String> {
        let network_access = self.network_access.as_str();
        let (catalog, template) = match self.sandbox_mode {
            SandboxMode::ReadOnly => (
                &self.catalog_permissions.read_only,
                TemplateId::SandboxReadOnly,
            ),
            SandboxMode::WorkspaceWrite => (
                &self.catalog_permissions.workspace_write,
                TemplateId::SandboxWorkspaceWrite,
            ),
            SandboxMode::DangerFullAccess => (
                &self.catalog_permissions.danger_full_access,
                TemplateId::SandboxDangerFullAccess,
            ),
        };
        match catalog.as_deref() {
            Some("") => None,
            // Catalog text is not ours to reinterpret: only the one documented placeholder is
            // filled, everything else (other placeholders, stray braces) stays as written.
            Some(text) => Some(text.replace(CATALOG_NETWORK_ACCESS_PLACEHOLDER, network_access)),
            None => Some(templates.render(template, &[("network_access", network_access)])),
        }
    }

    fn catalog_approval_text(&self) -> Option<&String> {
        let messages = &self.catalog_approvals;
        match self.approval_policy {
            AskForApproval::OnRequest => match self.approvals_reviewer {
                ApprovalsReviewer::User => messages.on_request.as_ref(),
                ApprovalsReviewer::AutoReview => messages.on_request_auto_review.as_ref(),
            },
            AskForApproval::Never => messages.never.as_ref(),
            AskForApproval::UnlessTrusted => messages.unless_trusted.as_ref(),
            AskForApproval::Granular(_) => None,
        }
    }

    fn approval_section(&self, templates: &TemplateSet) -> String {
        if let Some(catalog) = self.catalog_approval_text() {
            return catalog.clone();
        }
        let tool_available = self.request_permissions_tool == RequestPermissionsTool::Available;
        let exec_approvals = self.exec_permission_approvals == ExecPermissionApprovals::Enabled;
        let mut parts: Vec<String> = Vec::new();
        match self.approval_policy {
            AskForApproval::Never => {
                parts.push(templates.text(TemplateId::ApprovalNever).to_string());
            }
            AskForApproval::UnlessTrusted => {
                parts.push(
                    templates
                        .text(TemplateId::ApprovalUnlessTrusted)
                        .to_string(),
                );
                if tool_available {
                    parts.push(
                        templates
                            .text(TemplateId::RequestPermissionsTool)
                            .to_string(),
                    );
                }
            }
            AskForApproval::OnRequest => {
                let rules = if exec_approvals {
                    TemplateId::ApprovalOnRequestRuleRequestPermission
                } else {
                    TemplateId::ApprovalOnRequest
                };
                parts.push(templates.text(rules).to_string());
                if tool_available {
                    parts.push(
                        templates
                            .text(TemplateId::RequestPermissionsTool)
                            .to_string(),
                    );
                }
                parts.extend(self.approved_prefixes_section(templates));
            }
            AskForApproval::Granular(config) => {
                parts.extend(self.granular_sections(config, templates));
                parts.extend(self.approved_prefixes_section(templates));
            }
        }
        let auto_review = self.approvals_reviewer == ApprovalsReviewer::AutoReview
            && self.approval_policy != AskForApproval::Never;
        if auto_review {
            parts.push(
                templates
                    .text(TemplateId::ApprovalAutoReviewSuffix)
                    .to_string(),
            );
        }
        parts.join("\n\n")
    }

    fn approved_prefixes_section(&self, templates: &TemplateSet) -> Option<String> {
        let prefixes = format_allow_prefixes(&self.approved_prefixes, templates)?;
        Some(templates.render(
            TemplateId::ApprovedCommandPrefixes,
            &[("prefixes", &prefixes)],
        ))
    }

    fn writable_roots_sentence(&self, templates: &TemplateSet) -> Option<String> {
        let mut roots: Vec<&PathBuf> = self.writable_roots.iter().collect();
        roots.sort();
        roots.dedup();
        let quoted: Vec<String> = roots
            .iter()
            .map(|root| format!("`{}`", root.to_string_lossy()))
            .collect();
        match quoted.as_slice() {
            [] => None,
            [root] => Some(templates.render(TemplateId::WritableRoot, &[("root", root)])),
            several => {
                Some(templates.render(TemplateId::WritableRoots, &[("roots", &several.join(", "))]))
            }
        }
    }

    fn denied_reads_section(&self, templates: &TemplateSet) -> Option<String> {
        if self.denied_reads.is_empty() {
            return None;
        }
        let paths = self.denied_reads.iter().filter_map(|denied| match denied {
            DeniedRead::Path(path) => Some(format!("- path `{}`", path.to_string_lossy())),
            DeniedRead::Glob(_) => None,
        });
        let globs = self.denied_reads.iter().filter_map(|denied| match denied {
            DeniedRead::Path(_) => None,
            DeniedRead::Glob(glob) => Some(format!("- glob `{glob}`")),
        });
        let entries = paths.chain(globs).collect::<Vec<_>>().join("\n");
        Some(templates.render(TemplateId::DeniedReads, &[("entries", &entries)]))
    }

    /// The `granular` approval section before the approved-prefix list: intro, the categories
    /// that may prompt, those rejected automatically, then the guidance that still applies.
    fn granular_sections(
        &self,
        config: GranularApprovalConfig,
        templates: &TemplateSet,
    ) -> Vec<String> {
        let tool_available = self.request_permissions_tool == RequestPermissionsTool::Available;
        let exec_approvals = self.exec_permission_approvals == ExecPermissionApprovals::Enabled;
        // `request_permissions` is only a category when the tool exists to raise it.
        let categories = [
            Some((config.sandbox_approval, "sandbox_approval")),
            Some((config.rules, "rules")),
            Some((config.skill_approval, "skill_approval")),
            tool_available.then_some((config.request_permissions, "request_permissions")),
            Some((config.mcp_elicitations, "mcp_elicitations")),
        ];
        let list = |allowed: bool| {
            categories
                .iter()
                .flatten()
                .filter(|(is_allowed, _)| *is_allowed == allowed)
                .map(|(_, name)| format!("- `{name}`"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut sections = vec![
            templates
                .text(TemplateId::ApprovalGranularIntro)
                .to_string(),
        ];
        for (allowed, template) in [
            (true, TemplateId::ApprovalGranularPrompted),
            (false, TemplateId::ApprovalGranularRejected),
        ] {
            let names = list(allowed);
            if !names.is_empty() {
                sections.push(templates.render(template, &[("categories", &names)]));
            }
        }
        if exec_approvals && config.sandbox_approval {
            sections.push(
                templates
                    .text(TemplateId::ApprovalOnRequestRuleRequestPermission)
                    .to_string(),
            );
        }
        if tool_available && config.request_permissions {
            sections.push(
                templates
                    .text(TemplateId::RequestPermissionsTool)
                    .to_string(),
            );
        }
        sections
    }
}

fn append_section(body: &mut String, section: &str) {
    if !body.ends_with('\n') {
        body.push('\n');
    }
    body.push_str(section);
}

#[cfg(test)]
#[path = "permissions_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "permissions_granular_catalog_tests.rs"]
mod granular_catalog_tests;
