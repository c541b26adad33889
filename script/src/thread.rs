//! Thread-level pieces of a scripted session: its identity and the reproducible id streams,
//! its `session_meta` line, and the settings a rollout last recorded.

use std::path::PathBuf;

use codex_config::Config;
use codex_core::ids::IdGenerator;
use codex_protocol::BaseInstructions;
use codex_protocol::SessionMeta;
use codex_protocol::TurnContextItem;
use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::ForkPoint;
use codex_rollout::LoadedLine;
use codex_rollout::LoadedRollout;
use codex_rollout::ReconstructedSession;
use codex_rollout::fork;
use serde_json::json;

use super::ScriptError;
use super::SettingsLayer;

/// Line types besides the typed ones that rollouts carry and resuming reads or may skip.
const KNOWN_UNTYPED_LINE_TYPES: [&str; 2] = [EVENT_MSG_LINE_TYPE, "token_usage_record"];

/// `originator` of the `session_meta` lines scripted sessions write.
const ORIGINATOR: &str = "codex_context";

/// Ids that stay the same for the whole thread.
#[derive(Debug, Clone)]
pub(super) struct ThreadIdentity {
    pub thread_id: String,
    pub installation_id: String,
    pub window_id: String,
}

/// Which reproducible id stream to draw from next.
#[derive(Debug, Clone, Copy)]
pub(super) enum IdStream {
    Identity,
    Turn(usize),
}

/// What a `session_meta` line records about the thread.
pub(super) struct MetaInputs<'a> {
    pub identity: &'a ThreadIdentity,
    pub cwd: PathBuf,
    pub model_provider: Option<String>,
    pub base_instructions: Option<BaseInstructions>,
    pub timestamp: String,
    pub forked_from: Option<&'a str>,
}

pub(super) fn session_meta(inputs: MetaInputs<'_>) -> SessionMeta {
    SessionMeta {
        session_id: None,
        id: inputs.identity.thread_id.clone(),
        forked_from_id: inputs.forked_from.map(str::to_string),
        forked_from_ordinal_exclusive: None,
        parent_thread_id: None,
        timestamp: inputs.timestamp,
        cwd: inputs.cwd,
        runtime_workspace_roots: None,
        originator: Some(ORIGINATOR.to_string()),
        cli_version: Some(env!("CARGO_PKG_VERSION").to_string()),
        source: Some(json!("cli")),
        thread_source: None,
        agent_nickname: None,
        agent_role: None,
        agent_path: None,
        model_provider: inputs.model_provider,
        base_instructions: inputs.base_instructions,
        instructions: None,
        dynamic_tools: None,
        selected_capability_roots: None,
        memory_mode: None,
        history_mode: None,
        history_base: None,
        subagent_history_start_ordinal: None,
        multi_agent_version: None,
        context_window: Some(json!({ "window_id": inputs.identity.window_id })),
        git: None,
        extra: serde_json::Map::new(),
    }
}

pub(super) fn first_session_meta(rollout: &LoadedRollout) -> Option<&SessionMeta> {
    rollout.items().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(meta.as_ref()),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    })
}

/// The settings the thread last ran with: the reference turn context, else (after a
/// compaction cleared it) the newest `turn_context` line.
pub(super) fn last_turn_context<'a>(
    reconstructed: &'a ReconstructedSession,
    lines: &'a [LoadedLine],
) -> Option<&'a TurnContextItem> {
    reconstructed.reference_context_item.as_ref().or_else(|| {
        lines
            .iter()
            .rev()
            .find_map(|loaded| match &loaded.line.item {
                RolloutItem::TurnContext(item) => Some(item.as_ref()),
                RolloutItem::SessionMeta(_)
                | RolloutItem::ResponseItem(_)
                | RolloutItem::WorldState(_)
                | RolloutItem::Compacted(_)
                | RolloutItem::Other { .. } => None,
            })
    })
}

/// The settings a thread resumed (or forked at `point`) from `rollout` continues with by
/// default, as a settings layer named `origin`; empty when no turn recorded any.
pub fn recorded_settings(
    rollout: &LoadedRollout,
    point: ForkPoint,
    origin: &str,
) -> Result<SettingsLayer, ScriptError> {
    // Only the kept lines matter here; the child's own `session_meta` is a stand-in.
    let stand_in = ThreadIdentity {
        thread_id: String::new(),
        installation_id: String::new(),
        window_id: String::new(),
    };
    let meta = session_meta(MetaInputs {
        identity: &stand_in,
        cwd: PathBuf::new(),
        model_provider: None,
        base_instructions: None,
        timestamp: String::new(),
        forked_from: None,
    });
    // The session reports what it cannot use when it is resumed; this look-ahead stays quiet.
    let view =
        tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
            fork(rollout, meta, "", point)
        });
    match last_turn_context(&view.session, &view.rollout.lines) {
        Some(item) => SettingsLayer::recorded(origin, item),
        None => Ok(SettingsLayer::empty(origin)),
    }
}

/// Restarts `ids` on `stream` when `config` has a seed: the stream's seed mixes the configured
/// seed with the stream number, and its clock starts at midnight UTC of the configured date,
/// one hour later per turn so timestamps keep increasing.
pub(super) fn seed_stream(
    ids: &IdGenerator,
    config: &Config,
    stream: IdStream,
) -> Result<(), ScriptError> {
    let Some(seed) = config.seed else {
        return Ok(());
    };
    let number: u64 = match stream {
        IdStream::Identity => 0,
        IdStream::Turn(position) => u64::try_from(position)
            .unwrap_or(u64::MAX)
            .saturating_add(1),
    };
    let clock_error = || ScriptError::Clock {
        date: config.current_date.clone(),
    };
    let midnight: jiff::Timestamp = format!("{}T00:00:00Z", config.current_date)
        .parse()
        .map_err(|_| clock_error())?;
    let hours = i64::try_from(number).map_err(|_| clock_error())?;
    let start = midnight
        .checked_add(jiff::SignedDuration::from_hours(hours))
        .map_err(|_| clock_error())?;
    // A finalizer keeps streams of neighbouring seeds and turns from overlapping.
    let mut mixed = seed ^ number.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ids.reseed(mixed ^ (mixed >> 31), start);
    Ok(())
}

/// Warns once per line type the rollout holds that no reader here knows: such lines are kept in
/// the file but play no part in the resumed session.
pub(super) fn report_unread_line_types(lines: &[LoadedLine]) {
    let mut seen: Vec<(&str, usize, usize)> = Vec::new();
    for loaded in lines {
        let RolloutItem::Other { line_type, .. } = &loaded.line.item else {
            continue;
        };
        if KNOWN_UNTYPED_LINE_TYPES.contains(&line_type.as_str()) {
            continue;
        }
        match seen
            .iter_mut()
            .find(|(seen_type, _, _)| seen_type == line_type)
        {
            Some((_, _, count)) => *count += 1,
            None => seen.push((line_type, loaded.line_number, 1)),
        }
    }
    for (line_type, first_line, count) in seen {
        tracing::warn!(
            "rollout line {first_line}: unknown line type `{line_type}` kept but ignored ({count} in all)"
        );
    }
}
