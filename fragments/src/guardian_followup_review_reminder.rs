//! Reminder given to the guardian reviewer when it reviews again after earlier decisions: past
//! reviews inform, the Workspace Policy decides, informed user approval can lift a rejection.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const GUARDIAN_FOLLOWUP_REVIEW_REMINDER: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "guardian.followup_review_reminder",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 1_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianFollowupReviewReminder {
    body: String,
}

impl GuardianFollowupReviewReminder {
    pub fn new(templates: &TemplateSet) -> Self {
        let body = templates
            .text(TemplateId::FragmentGuardianFollowupReviewReminder)
            .to_string();
        Self {
            body: cap_rendered_body(
                &GUARDIAN_FOLLOWUP_REVIEW_REMINDER,
                body,
                MAX_TOKENS,
                templates,
            ),
        }
    }
}

spec_fragment!(
    GuardianFollowupReviewReminder,
    GUARDIAN_FOLLOWUP_REVIEW_REMINDER
);
