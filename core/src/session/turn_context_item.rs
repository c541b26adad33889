//! The `turn_context` rollout record of a turn.

use codex_protocol::TurnContextItem;
use serde_json::json;

use codex_config::Feature;
use codex_protocol::config_types::ReasoningSummary;
use codex_protocol::openai_models::MultiAgentVersion;
use codex_release::TurnContextRecord;

use super::permission_profile::active_permission_profile;
use super::permission_profile::file_system_sandbox_policy;
use super::permission_profile::permission_profile;
use crate::turn_context::TurnContext;

/// The settings `turn` runs with, as persisted in its `turn_context` line and kept as the
/// session's reference. Includes the turn id, so every new turn differs from the reference.
pub fn turn_context_item(turn: &TurnContext) -> TurnContextItem {
    let mut item = TurnContextItem {
        turn_id: Some(turn.turn_id.clone()),
        root_turn_id: None,
        disabled_plugin_ids: None,
        cwd: turn.cwd.clone(),
        workspace_roots: recorded_workspace_roots(turn),
        current_date: Some(turn.current_date.clone()),
        timezone: Some(turn.timezone.clone()),
        approval_policy: turn.approval_policy,
        approvals_reviewer: Some(turn.approvals_reviewer),
        sandbox_policy: turn.sandbox_policy.clone(),
        permission_profile: Some(permission_profile(turn)),
        active_permission_profile: active_permission_profile(turn),
        network: turn.network.as_ref().map(|network| {
            json!({
                "allowed_domains": network.allowed,
                "denied_domains": network.denied,
            })
        }),
        file_system_sandbox_policy: file_system_sandbox_policy(turn),
        model: turn.model.slug.clone(),
        comp_hash: turn.model.comp_hash.clone(),
        personality: turn.personality,
        collaboration_mode: Some(turn.collaboration_mode.clone()),
        multi_agent_version: Some(multi_agent_version(turn).to_string()),
        multi_agent_mode: None,
        realtime_active: Some(turn.realtime.active),
        cyber_access_program: None,
        effort: turn.reasoning_effort.clone(),
        // Upstream records `auto` whatever summary the requests ask for
        // (codex-rs/core/src/session/turn_context.rs).
        summary: Some(ReasoningSummary::Auto),
        user_instructions: None,
        developer_instructions: None,
        final_output_json_schema: None,
        truncation_policy: None,
        extra: serde_json::Map::new(),
    };
    match turn.profile().turn_context {
        TurnContextRecord::DateAndPersonality => {}
        TurnContextRecord::RootTurnAndPlugins => {
            // A turn of the main thread is its own root; no plugin is turned off.
            item.root_turn_id = Some(turn.turn_id.clone());
            item.disabled_plugin_ids = Some(Vec::new());
            item.workspace_roots = None;
            item.current_date = None;
            item.timezone = None;
            item.personality = None;
            item.summary = Some(ReasoningSummary::None);
        }
    }
    item
}

/// The primary environment's workspace roots that are paths of this host, as upstream records
/// them; `None` when there are none (no environment, or only foreign roots).
fn recorded_workspace_roots(turn: &TurnContext) -> Option<Vec<std::path::PathBuf>> {
    let roots: Vec<_> = turn
        .environments
        .first()?
        .host_workspace_roots()
        .map(std::path::Path::to_path_buf)
        .collect();
    (!roots.is_empty()).then_some(roots)
}

/// The multi-agent version the thread runs: v2 when the `multi_agent_v2` feature forces it,
/// otherwise the one the model's catalog entry names (v1 when it names none).
fn multi_agent_version(turn: &TurnContext) -> MultiAgentVersion {
    match turn.features.enabled(Feature::MultiAgentV2) {
        true => MultiAgentVersion::V2,
        false => turn
            .model
            .multi_agent_version
            .unwrap_or(MultiAgentVersion::V1),
    }
}

#[cfg(test)]
#[path = "turn_context_item_tests.rs"]
mod tests;
