//! `permissions`: the `<permissions instructions>` block (sandbox, approval policy, writable
//! roots, denied reads, approved command prefixes). Its fingerprint leaves the approved
//! prefixes out, so approving a command only adds an `Approved command prefix saved:` notice;
//! any other change, or a removed prefix, restates the whole block.

use std::path::PathBuf;

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::PERMISSIONS_INSTRUCTIONS;
use codex_fragments::sections::approved_prefix_saved_fragment;
use codex_prompts::CatalogApprovalMessages;
use codex_prompts::CatalogPermissionMessages;
use codex_prompts::DeniedRead;
use codex_prompts::ExecPermissionApprovals;
use codex_prompts::PermissionsInstructions;
use codex_prompts::PermissionsInstructionsBuilder;
use codex_prompts::RequestPermissionsTool;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::TemporaryDirectories;
use codex_protocol::config_types::ApprovalsReviewer;
use codex_protocol::config_types::SandboxMode;
use codex_protocol::openai_models::ApprovalMessages;
use codex_protocol::openai_models::PermissionMessages;
use codex_protocol::protocol::AskForApproval;
use codex_protocol::protocol::NetworkAccess;
use serde::Deserialize;
use serde::Serialize;

use super::approved_command_prefixes::ApprovedPrefixes;
use super::approved_command_prefixes::added_prefixes;
use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::TurnContext;
use codex_config::Feature;

/// Snapshot of the `permissions` section. Rollouts written before prefixes were tracked hold
/// a bare fingerprint of the full rendering; it still deserializes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PermissionsSnapshot {
    Current {
        /// Fingerprint of the instructions rendered without approved prefixes.
        instructions: FragmentFingerprint,
        #[serde(default)]
        approved_command_prefixes: ApprovedPrefixes,
    },
    Legacy(FragmentFingerprint),
}

/// A read the permission profile forbids, as JSON inputs spell it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeniedReadInputs {
    Path(PathBuf),
    Glob(String),
}

/// Inputs of the `permissions` section.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermissionsSectionInputs {
    pub sandbox_mode: SandboxMode,
    pub approval_policy: AskForApproval,
    #[serde(default)]
    pub network_access: NetworkAccess,
    #[serde(default)]
    pub approvals_reviewer: ApprovalsReviewer,
    #[serde(default)]
    pub writable_roots: Vec<PathBuf>,
    #[serde(default)]
    pub denied_reads: Vec<DeniedReadInputs>,
    /// Prefixes the exec policy allows, as token lists (duplicates collapse).
    #[serde(default)]
    pub approved_command_prefixes: Vec<Vec<String>>,
    /// Whether commands may ask for extra sandboxed permissions.
    #[serde(default)]
    pub exec_permission_approvals: bool,
    /// Whether the `request_permissions` tool is offered.
    #[serde(default)]
    pub request_permissions_tool: bool,
    /// The model catalog's `model_messages.permissions`.
    #[serde(default)]
    pub catalog_permission_messages: Option<PermissionMessages>,
    /// The model catalog's `model_messages.approvals`.
    #[serde(default)]
    pub catalog_approval_messages: Option<ApprovalMessages>,
}

impl PermissionsSectionInputs {
    /// The instructions builder these inputs describe, without approved prefixes.
    pub fn builder(&self) -> PermissionsInstructionsBuilder {
        let exec_permission_approvals = if self.exec_permission_approvals {
            ExecPermissionApprovals::Enabled
        } else {
            ExecPermissionApprovals::Disabled
        };
        let request_permissions_tool = if self.request_permissions_tool {
            RequestPermissionsTool::Available
        } else {
            RequestPermissionsTool::Unavailable
        };
        PermissionsInstructions::builder(self.sandbox_mode, self.approval_policy)
            .network_access(self.network_access)
            .approvals_reviewer(self.approvals_reviewer)
            .writable_roots(self.writable_roots.clone())
            .denied_reads(
                self.denied_reads
                    .iter()
                    .map(|denied| match denied {
                        DeniedReadInputs::Path(path) => DeniedRead::Path(path.clone()),
                        DeniedReadInputs::Glob(glob) => DeniedRead::Glob(glob.clone()),
                    })
                    .collect(),
            )
            .exec_permission_approvals(exec_permission_approvals)
            .request_permissions_tool(request_permissions_tool)
            .catalog_permission_messages(
                self.catalog_permission_messages
                    .as_ref()
                    .map(CatalogPermissionMessages::from)
                    .unwrap_or_default(),
            )
            .catalog_approval_messages(
                self.catalog_approval_messages
                    .as_ref()
                    .map(CatalogApprovalMessages::from)
                    .unwrap_or_default(),
            )
    }
}

#[derive(Clone, Debug)]
pub struct PermissionsSection {
    /// What is rendered: the instructions including the approved prefixes.
    instructions: PermissionsInstructions,
    /// Fingerprint of the instructions rendered without approved prefixes.
    instructions_hash: FragmentFingerprint,
    approved_prefixes: ApprovedPrefixes,
    templates: TemplateSet,
}

impl PermissionsSection {
    /// `builder` describes everything but the approved prefixes (any prefixes it carries are
    /// replaced); the instructions are built twice, with and without `approved_prefixes`.
    pub fn new(
        builder: PermissionsInstructionsBuilder,
        approved_prefixes: Vec<Vec<String>>,
        templates: &TemplateSet,
    ) -> Self {
        let approved_prefixes: ApprovedPrefixes = approved_prefixes.into_iter().collect();
        let without_prefixes = builder
            .clone()
            .approved_prefixes(Vec::new())
            .build(templates);
        // Without approved prefixes both renderings are the same text; build it once.
        let instructions = if approved_prefixes.is_empty() {
            without_prefixes.clone()
        } else {
            builder
                .approved_prefixes(approved_prefixes.iter().cloned().collect())
                .build(templates)
        };
        Self {
            instructions,
            instructions_hash: FragmentFingerprint::from_fragment(&without_prefixes),
            approved_prefixes,
            templates: templates.clone(),
        }
    }

    fn full_fragment(&self) -> SectionFragment {
        Box::new(self.instructions.clone())
    }
}

impl WorldStateSection for PermissionsSection {
    const ID: &'static str = "permissions";
    type Snapshot = PermissionsSnapshot;

    fn snapshot(&self) -> PermissionsSnapshot {
        PermissionsSnapshot::Current {
            instructions: self.instructions_hash.clone(),
            approved_command_prefixes: self.approved_prefixes.clone(),
        }
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        PERMISSIONS_INSTRUCTIONS.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        PERMISSIONS_INSTRUCTIONS.recognises(role, text)
    }

    /// The text is this project's own wording of the policies, so the recorded fingerprint is
    /// replaced by this section's (built from the recorded policies); the recorded approved
    /// prefixes stay, since a prefix is a setting, not prose.
    fn rederive_recorded(&self, recorded: &PermissionsSnapshot) -> Option<PermissionsSnapshot> {
        Some(match recorded {
            PermissionsSnapshot::Current {
                approved_command_prefixes,
                ..
            } => PermissionsSnapshot::Current {
                instructions: self.instructions_hash.clone(),
                approved_command_prefixes: approved_command_prefixes.clone(),
            },
            // An older snapshot fingerprints the whole rendering, approved prefixes included.
            PermissionsSnapshot::Legacy(_) => {
                PermissionsSnapshot::Legacy(FragmentFingerprint::from_fragment(&self.instructions))
            }
        })
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, PermissionsSnapshot>,
    ) -> Option<SectionFragment> {
        match previous {
            PreviousSectionState::Known(PermissionsSnapshot::Current {
                instructions,
                approved_command_prefixes,
            }) if instructions == &self.instructions_hash => {
                if approved_command_prefixes.is_subset(&self.approved_prefixes) {
                    approved_prefix_saved_fragment(
                        &added_prefixes(approved_command_prefixes, &self.approved_prefixes),
                        &self.templates,
                    )
                } else {
                    Some(self.full_fragment())
                }
            }
            PreviousSectionState::Known(PermissionsSnapshot::Legacy(fingerprint))
                if fingerprint == &FragmentFingerprint::from_fragment(&self.instructions) =>
            {
                None
            }
            PreviousSectionState::Known(
                PermissionsSnapshot::Current { .. } | PermissionsSnapshot::Legacy(_),
            )
            | PreviousSectionState::Absent
            | PreviousSectionState::Unknown => Some(self.full_fragment()),
        }
    }
}

impl CatalogSection for PermissionsSection {
    type Inputs = PermissionsSectionInputs;

    fn from_inputs(
        inputs: PermissionsSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        Ok(Self::new(
            inputs.builder(),
            inputs.approved_command_prefixes,
            templates,
        ))
    }

    fn from_snapshot(
        _snapshot: PermissionsSnapshot,
        _templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Err("a fingerprint of the permissions text, not the policies it is rendered from")
    }
}

impl StepSection for PermissionsSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        if !turn.inclusion.permissions_instructions.is_included() {
            return Ok(None);
        }
        let features = &turn.features;
        let messages = turn.model.model_messages.as_ref();
        // Temporary directories are not probed, so the text is reproducible.
        let builder = PermissionsInstructions::builder_from_policy(
            &turn.sandbox_policy,
            &turn.cwd,
            &TemporaryDirectories::default(),
            turn.approval_policy,
        )
        .approvals_reviewer(turn.approvals_reviewer)
        .denied_reads(
            turn.denied_reads
                .iter()
                .cloned()
                .map(DeniedRead::Path)
                .collect(),
        )
        .exec_permission_approvals(if features.enabled(Feature::ExecPermissionApprovals) {
            ExecPermissionApprovals::Enabled
        } else {
            ExecPermissionApprovals::Disabled
        })
        .request_permissions_tool(if features.enabled(Feature::RequestPermissionsTool) {
            RequestPermissionsTool::Available
        } else {
            RequestPermissionsTool::Unavailable
        })
        .catalog_permission_messages(
            messages
                .and_then(|messages| messages.permissions.as_ref())
                .map(CatalogPermissionMessages::from)
                .unwrap_or_default(),
        )
        .catalog_approval_messages(
            messages
                .and_then(|messages| messages.approvals.as_ref())
                .map(CatalogApprovalMessages::from)
                .unwrap_or_default(),
        );
        // The section adds the approved prefixes itself.
        Ok(Some(PermissionsSection::new(
            builder,
            turn.approved_command_prefixes.clone(),
            templates,
        )))
    }

    fn built_from(turn: &TurnContext) -> Vec<String> {
        let messages = turn.model.model_messages.as_ref();
        let sandbox_catalog = messages.and_then(|messages| messages.permissions.as_ref());
        let approvals_catalog = messages.and_then(|messages| messages.approvals.as_ref());
        let sandbox = match turn.sandbox_policy.mode() {
            SandboxMode::ReadOnly => TemplateId::SandboxReadOnly,
            SandboxMode::WorkspaceWrite => TemplateId::SandboxWorkspaceWrite,
            SandboxMode::DangerFullAccess => TemplateId::SandboxDangerFullAccess,
        };
        let approval = match turn.approval_policy {
            AskForApproval::UnlessTrusted => TemplateId::ApprovalUnlessTrusted,
            AskForApproval::OnRequest => TemplateId::ApprovalOnRequest,
            AskForApproval::Granular(_) => TemplateId::ApprovalGranularIntro,
            AskForApproval::Never => TemplateId::ApprovalNever,
        };
        let mut inputs = vec![
            match sandbox_catalog {
                Some(_) => "model catalog `model_messages.permissions`".to_string(),
                None => template_source(sandbox),
            },
            match approvals_catalog {
                Some(_) => "model catalog `model_messages.approvals`".to_string(),
                None => template_source(approval),
            },
        ];
        if !turn.denied_reads.is_empty() {
            inputs.push(template_source(TemplateId::DeniedReads));
        }
        if !turn.approved_command_prefixes.is_empty() {
            inputs.push(template_source(TemplateId::ApprovedCommandPrefixes));
        }
        inputs
    }
}

#[cfg(test)]
#[path = "permissions_tests.rs"]
mod tests;
