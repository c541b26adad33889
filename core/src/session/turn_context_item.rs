//! The `turn_context` rollout record of a turn.

use codex_protocol::TurnContextItem;
use serde_json::json;

use super::permission_profile::active_permission_profile;
use super::permission_profile::permission_profile;
use crate::turn_context::TurnContext;

/// The settings `turn` runs with, as persisted in its `turn_context` line and kept as the
/// session's reference. Includes the turn id, so every new turn differs from the reference.
pub fn turn_context_item(turn: &TurnContext) -> TurnContextItem {
    TurnContextItem {
        turn_id: Some(turn.turn_id.clone()),
        root_turn_id: None,
        cwd: turn.cwd.clone(),
        workspace_roots: Some(vec![turn.cwd.clone()]),
        current_date: Some(turn.current_date.clone()),
        timezone: Some(turn.timezone.clone()),
        approval_policy: turn.approval_policy,
        approvals_reviewer: Some(turn.approvals_reviewer),
        sandbox_policy: turn.sandbox_policy.clone(),
        permission_profile: Some(permission_profile(&turn.sandbox_policy, &turn.cwd)),
        active_permission_profile: active_permission_profile(&turn.sandbox_policy),
        network: turn.network.as_ref().map(|network| {
            json!({
                "allowed_domains": network.allowed,
                "denied_domains": network.denied,
            })
        }),
        file_system_sandbox_policy: None,
        model: turn.model.slug.clone(),
        comp_hash: turn.model.comp_hash.clone(),
        personality: turn.personality,
        collaboration_mode: Some(turn.collaboration_mode.clone()),
        multi_agent_version: None,
        multi_agent_mode: None,
        realtime_active: Some(turn.realtime.active),
        cyber_access_program: None,
        effort: turn.reasoning_effort.clone(),
        summary: turn.reasoning_summary,
        user_instructions: None,
        developer_instructions: None,
        final_output_json_schema: None,
        truncation_policy: None,
        extra: serde_json::Map::new(),
    }
}

#[cfg(test)]
#[path = "turn_context_item_tests.rs"]
mod tests;
