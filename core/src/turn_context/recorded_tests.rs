use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::ApprovalsReviewer;
use codex_protocol::AskForApproval;
use codex_protocol::ModeKind;
use codex_protocol::SandboxPolicy;
use codex_protocol::TurnContextItem;
use codex_protocol::openai_models::ReasoningEffort;
use pretty_assertions::assert_eq;
use serde_json::json;

use crate::turn_context::TurnContext;
use codex_protocol::openai_models::ModelInfo;

/// A `turn_context` line as 0.149.1 writes it (Plan mode with the release's own Plan text).
fn recorded_item() -> TurnContextItem {
    serde_json::from_value(json!({
        "turn_id": "turn-1",
        "cwd": "/recorded",
        "approval_policy": "never",
        "approvals_reviewer": "auto_review",
        "sandbox_policy": {"type": "danger-full-access"},
        "model": "gpt-recorded",
        "personality": "friendly",
        "collaboration_mode": {"mode": "plan", "settings": {
            "model": "gpt-recorded", "reasoning_effort": "high",
            "developer_instructions": "the release's own Plan text"}},
        "realtime_active": true,
        "effort": "high",
        "summary": "auto"
    }))
    .expect("turn_context")
}

#[test]
fn the_recorded_turn_takes_the_recorded_settings_and_keeps_the_rest() {
    let templates = TemplateSet::embedded();
    let mut current = TurnContext::for_model(
        "thread",
        "turn-2",
        ModelInfo::with_defaults("gpt-now"),
        "/now",
    );
    current.developer_instructions = Some("configured".to_string());
    let recorded = current.under_recorded_settings(
        &recorded_item(),
        ModelInfo::with_defaults("gpt-recorded"),
        &templates,
    );

    assert_eq!(recorded.model.slug, "gpt-recorded");
    assert_eq!(recorded.cwd, std::path::PathBuf::from("/recorded"));
    assert_eq!(recorded.sandbox_policy, SandboxPolicy::DangerFullAccess);
    assert_eq!(recorded.approval_policy, AskForApproval::Never);
    assert_eq!(recorded.approvals_reviewer, ApprovalsReviewer::AutoReview);
    assert_eq!(
        recorded.personality,
        Some(codex_protocol::Personality::Friendly)
    );
    assert_eq!(recorded.collaboration_mode.mode, ModeKind::Plan);
    // The mode's instructions are this project's, not the text the release recorded.
    assert_eq!(
        recorded
            .collaboration_mode
            .settings
            .developer_instructions
            .as_deref(),
        Some(templates.text(TemplateId::CollaborationModePlan))
    );
    assert!(recorded.realtime.active);
    assert_eq!(recorded.reasoning_effort, Some(ReasoningEffort::High));
    // What a `turn_context` line does not record stays as the current turn has it.
    assert_eq!(
        recorded.developer_instructions.as_deref(),
        Some("configured")
    );
    assert_eq!(recorded.turn_id, "turn-2");
}
