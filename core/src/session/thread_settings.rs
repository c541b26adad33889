//! The `thread_settings_applied` event: the thread's settings as one settings operation left
//! them, written for every operation applied once the thread's rollout exists.
//!
//! The payload is `{"type": "thread_settings_applied", "thread_settings": {…}}` with upstream's
//! keys in upstream's order; optional settings (reasoning effort and summary when not
//! configured, no personality) are left out rather than written as `null`.

use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use super::permission_profile::active_permission_profile;
use super::permission_profile::permission_profile;
use crate::turn_context::TurnContext;

const THREAD_SETTINGS_APPLIED: &str = "thread_settings_applied";

/// The event payload for the settings `turn` runs with.
pub(super) fn thread_settings_applied(turn: &TurnContext) -> Result<Value, serde_json::Error> {
    let mut settings = Map::new();
    settings.insert("model".to_string(), json!(turn.model.slug));
    settings.insert("model_provider_id".to_string(), json!(turn.provider_id));
    settings.insert(
        "approval_policy".to_string(),
        serde_json::to_value(turn.approval_policy)?,
    );
    settings.insert(
        "approvals_reviewer".to_string(),
        serde_json::to_value(turn.approvals_reviewer)?,
    );
    settings.insert(
        "permission_profile".to_string(),
        permission_profile(
            &turn.sandbox_policy,
            &turn.cwd,
            turn.profile().protected_workspace_folders,
        ),
    );
    if let Some(active) = active_permission_profile(&turn.sandbox_policy, turn.sandbox_mode_source)
    {
        settings.insert("active_permission_profile".to_string(), active);
    }
    settings.insert("cwd".to_string(), json!(turn.cwd));
    if let Some(effort) = &turn.reasoning_effort {
        settings.insert(
            "reasoning_effort".to_string(),
            serde_json::to_value(effort)?,
        );
    }
    if let Some(summary) = turn.reasoning_summary {
        settings.insert(
            "reasoning_summary".to_string(),
            serde_json::to_value(summary)?,
        );
    }
    if let Some(personality) = turn.personality {
        settings.insert(
            "personality".to_string(),
            serde_json::to_value(personality)?,
        );
    }
    settings.insert(
        "collaboration_mode".to_string(),
        serde_json::to_value(&turn.collaboration_mode)?,
    );
    Ok(json!({
        "type": THREAD_SETTINGS_APPLIED,
        "thread_settings": settings,
    }))
}

#[cfg(test)]
#[path = "thread_settings_tests.rs"]
mod tests;
