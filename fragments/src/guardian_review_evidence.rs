//! `<guardian_sync_review>`: one completed synchronous Guardian review, given to the
//! asynchronous Guardian classifier as evidence. Never part of the agent's own conversation.
//! Values are JSON-encoded with `</` escaped, so no value can close the wrapper.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use serde_json::Value;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const GUARDIAN_REVIEW_EVIDENCE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "guardian.review_evidence",
    start_marker: "<guardian_sync_review>",
    end_marker: "</guardian_sync_review>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens (upstream bounds each review to 800).
pub const MAX_TOKENS: usize = 800;
/// Cap of the reviewed action's text.
pub const MAX_ACTION_TOKENS: usize = 360;
/// Cap of the reviewer's rationale.
pub const MAX_RATIONALE_TOKENS: usize = 200;
/// Reviews kept per classifier sample; older ones are dropped by the caller.
pub const MAX_RETAINED_REVIEWS: usize = 8;

/// The recorded outcome of one review.
#[derive(Debug, Clone, PartialEq)]
pub struct GuardianReview {
    /// `{status, risk_level, user_authorization}`.
    pub decision: Value,
    /// `{review_id, turn_id, target_item_id, completed_at_ms}`.
    pub correlation: Value,
    pub action: String,
    pub rationale: Option<String>,
}

fn escaped_json(value: &Value) -> String {
    value.to_string().replace("</", "<\\/")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardianReviewEvidence {
    body: String,
}

impl GuardianReviewEvidence {
    pub fn new(review: &GuardianReview, templates: &TemplateSet) -> Self {
        let bounded = |text: &str, max_tokens| {
            Value::String(cap_tokens(text, max_tokens, Keep::Head, templates).into_owned())
        };
        let rationale = review
            .rationale
            .as_deref()
            .map_or(Value::Null, |rationale| {
                bounded(rationale, MAX_RATIONALE_TOKENS)
            });
        let body = templates.render(
            TemplateId::FragmentGuardianReviewEvidence,
            &[
                ("decision", &escaped_json(&review.decision)),
                ("correlation", &escaped_json(&review.correlation)),
                (
                    "action",
                    &escaped_json(&bounded(&review.action, MAX_ACTION_TOKENS)),
                ),
                ("rationale", &escaped_json(&rationale)),
            ],
        );
        let body = format!("\n{body}\n");
        Self {
            body: cap_rendered_body(&GUARDIAN_REVIEW_EVIDENCE, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(GuardianReviewEvidence, GUARDIAN_REVIEW_EVIDENCE);
