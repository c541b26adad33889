//! Thread-level pieces of a scripted session: the reproducible id streams, the `session_meta`
//! a rollout opens with, and the settings a rollout last recorded.

use std::sync::Arc;

use codex_config::Config;
use codex_core::IdGenerator;
use codex_protocol::SessionMeta;
use codex_protocol::TurnContextItem;
use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::LoadedRollout;
use codex_rollout::ResumedRollout;
use codex_rollout::RolloutDigest;

use super::ScriptError;
use super::SettingsLayer;
use codex_core::seeded_clock_start;

/// Line types besides the typed ones that rollouts carry and resuming reads or may skip.
const KNOWN_UNTYPED_LINE_TYPES: [&str; 2] = [EVENT_MSG_LINE_TYPE, "token_usage_record"];

/// Which reproducible id stream to draw from next.
#[derive(Debug, Clone, Copy)]
pub(super) enum IdStream {
    Identity,
    Turn(usize),
    /// A thread forked off a thread that had started `turn` turns and descends from `depth`
    /// threads (its parent's `session_meta` lines).
    Fork {
        depth: usize,
        turn: usize,
    },
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
pub(super) fn last_turn_context(resumed: &ResumedRollout) -> Option<&TurnContextItem> {
    resumed
        .session
        .reference_context_item
        .as_ref()
        .or(resumed.digest.newest_turn_context.as_ref())
}

/// The settings a thread resumed from `resumed` (or forked where its lines end) continues with
/// by default, as a settings layer named `origin`; empty when no turn recorded any.
pub fn recorded_settings(
    resumed: &ResumedRollout,
    origin: &str,
) -> Result<SettingsLayer, ScriptError> {
    match last_turn_context(resumed) {
        Some(item) => SettingsLayer::recorded(origin, item),
        None => Ok(SettingsLayer::empty(origin)),
    }
}

/// The id generator of a thread a script starts, resumes or forks, on its identity stream.
pub(super) fn identity_stream(config: &Config) -> Result<Arc<IdGenerator>, ScriptError> {
    let ids = Arc::new(IdGenerator::live());
    seed_stream(&ids, config, IdStream::Identity)?;
    Ok(ids)
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
    let count = |value: usize| u64::try_from(value).unwrap_or(u64::MAX);
    // The stream number the seed mixes in, and the hour its clock starts at.
    let (number, hour): (u64, u64) = match stream {
        IdStream::Identity => (0, 0),
        IdStream::Turn(position) => {
            let number = count(position).saturating_add(1);
            (number, number)
        }
        // Above every turn's number; the clock is that of the turn it precedes.
        IdStream::Fork { depth, turn } => (
            (count(depth) << 32) | count(turn).saturating_add(1),
            count(turn).saturating_add(1),
        ),
    };
    let clock_error = || ScriptError::Clock {
        date: config.current_date.clone(),
    };
    let midnight = seeded_clock_start(&config.current_date).ok_or_else(clock_error)?;
    let hours = i64::try_from(hour).map_err(|_| clock_error())?;
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
pub(super) fn report_unread_line_types(digest: &RolloutDigest) {
    for seen in &digest.untyped_line_types {
        if KNOWN_UNTYPED_LINE_TYPES.contains(&seen.line_type.as_str()) {
            continue;
        }
        tracing::warn!(
            "rollout line {}: unknown line type `{}` kept but ignored ({} in all)",
            seen.first_line,
            seen.line_type,
            seen.count
        );
    }
}
