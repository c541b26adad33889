//! The `thread_settings_applied` event: the thread's settings as one settings operation left
//! them, written for every operation applied once the thread's rollout exists.
//!
//! The payload is `{"type": "thread_settings_applied", "thread_settings": {…}}` with upstream's
//! keys in upstream's order; optional settings (reasoning effort and summary when not
//! configured, no personality) are left out rather than written as `null`.

use codex_release::ThreadSettingsEvents;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use super::permission_profile::active_permission_profile;
use super::permission_profile::permission_profile;
use crate::turn_context::TurnContext;

const THREAD_SETTINGS_APPLIED: &str = "thread_settings_applied";

/// The event payload for the settings `turn` runs with on thread `thread_id`.
pub(super) fn thread_settings_applied(
    thread_id: &str,
    turn: &TurnContext,
) -> Result<Value, serde_json::Error> {
    let record = turn.profile().thread_settings_events;
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
    match record {
        ThreadSettingsEvents::ResumedStepsOnly => {}
        ThreadSettingsEvents::EveryFullContextWithThreadId => {
            settings.insert(
                "requested_approvals_reviewer".to_string(),
                serde_json::to_value(turn.approvals_reviewer)?,
            );
        }
    }
    settings.insert("permission_profile".to_string(), permission_profile(turn));
    if let Some(active) = active_permission_profile(turn) {
        settings.insert("active_permission_profile".to_string(), active);
    }
    settings.insert("cwd".to_string(), json!(turn.cwd));
    match record {
        ThreadSettingsEvents::ResumedStepsOnly => {}
        ThreadSettingsEvents::EveryFullContextWithThreadId => {
            settings.insert("runtime_workspace_roots".to_string(), json!([turn.cwd]));
        }
    }
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
    // Newer releases name a personality only when one is configured, which the turn no longer
    // tells apart from the default: none is named.
    let personality = match record {
        ThreadSettingsEvents::ResumedStepsOnly => turn.personality,
        ThreadSettingsEvents::EveryFullContextWithThreadId => None,
    };
    if let Some(personality) = personality {
        settings.insert(
            "personality".to_string(),
            serde_json::to_value(personality)?,
        );
    }
    settings.insert(
        "collaboration_mode".to_string(),
        serde_json::to_value(&turn.collaboration_mode)?,
    );
    Ok(match record {
        ThreadSettingsEvents::ResumedStepsOnly => json!({
            "type": THREAD_SETTINGS_APPLIED,
            "thread_settings": settings,
        }),
        ThreadSettingsEvents::EveryFullContextWithThreadId => {
            settings.insert("disabled_plugin_ids".to_string(), json!([]));
            json!({
                "type": THREAD_SETTINGS_APPLIED,
                "thread_id": thread_id,
                "thread_settings": settings,
            })
        }
    })
}

#[cfg(test)]
#[path = "thread_settings_tests.rs"]
mod tests;
