//! The turn a rollout recorded, as this project would have assembled it: what a resumed thread's
//! recorded world state is re-derived from ([`TurnContext::under_recorded_settings`]).

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::CollaborationMode;
use codex_protocol::CollaborationModeSettings;
use codex_protocol::ModeKind;
use codex_protocol::TurnContextItem;
use codex_protocol::openai_models::ModelInfo;

use super::TurnContext;
use super::derived_multi_agent_settings;

/// The developer instructions a collaboration mode comes with: Plan mode its template, the
/// default mode none (as in upstream's default sessions).
pub(super) fn mode_developer_instructions(
    mode: ModeKind,
    templates: &TemplateSet,
) -> Option<String> {
    match mode {
        ModeKind::Plan => Some(
            templates
                .text(TemplateId::CollaborationModePlan)
                .to_string(),
        ),
        ModeKind::Default => None,
    }
}

impl TurnContext {
    /// This turn with the settings `recorded` (a resumed thread's reference `turn_context`)
    /// ran with: its model (`model`, the catalog entry of `recorded.model`), working
    /// directory, sandbox and approval policies, approvals reviewer, personality, collaboration
    /// mode, realtime state and reasoning effort. What a `turn_context` line does not record
    /// (features, configured and managed texts, skills, approved prefixes, templates) stays as
    /// this turn has it, so it counts as unchanged.
    ///
    /// A collaboration mode's instructions are prose, so they are this project's for the
    /// recorded mode, not the recorded text.
    pub fn under_recorded_settings(
        &self,
        recorded: &TurnContextItem,
        model: ModelInfo,
        templates: &TemplateSet,
    ) -> TurnContext {
        let mut turn = self.clone();
        let derived_here = derived_multi_agent_settings(
            &self.model,
            &self.features,
            self.reasoning_effort.as_ref(),
            self.session_source,
            self.profile().catalog_role,
            templates,
        );
        turn.model = model;
        turn.cwd = recorded.cwd.clone();
        turn.sandbox_policy = recorded.sandbox_policy.clone();
        turn.approval_policy = recorded.approval_policy;
        if let Some(reviewer) = recorded.approvals_reviewer {
            turn.approvals_reviewer = reviewer;
        }
        turn.personality = recorded.personality;
        if let Some(mode) = &recorded.collaboration_mode {
            turn.collaboration_mode = CollaborationMode {
                mode: mode.mode,
                settings: CollaborationModeSettings {
                    model: recorded.model.clone(),
                    reasoning_effort: mode.settings.reasoning_effort.clone(),
                    developer_instructions: mode_developer_instructions(mode.mode, templates),
                },
            };
        }
        if let Some(active) = recorded.realtime_active {
            turn.realtime.active = active;
        }
        turn.reasoning_effort = recorded.effort.clone();
        // Multi-agent settings this turn derived are derived again for the recorded model and
        // effort; settings given another way stay.
        if self.multi_agent == derived_here {
            turn.multi_agent = derived_multi_agent_settings(
                &turn.model,
                &turn.features,
                turn.reasoning_effort.as_ref(),
                turn.session_source,
                turn.profile().catalog_role,
                templates,
            );
        }
        turn
    }
}

#[cfg(test)]
#[path = "recorded_tests.rs"]
mod tests;
