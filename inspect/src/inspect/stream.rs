//! Inspecting a rollout file while it is read: a reading thread parses the lines (in parallel,
//! batch by batch) and the walk takes each one as soon as it is parsed, so reading and walking
//! overlap and the file's lines are never all held at once.
//!
//! The walk can start once the thread's facts are known, which the first `session_meta` line
//! tells when it names a known release (or `--codex-version` does). A rollout whose release only
//! its later lines tell is read whole first; one that needs a legacy compaction rebuilt from the
//! lines before it is read again, whole, since the walk has moved those lines on.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_rollout::LoadedLine;
use codex_rollout::LoadedRollout;
use codex_rollout::release_of_lines;
use codex_rollout::stream_rollout_for_replay;

use super::InspectError;
use super::InspectOptions;
use super::Inspection;
use super::asked_release;
use super::finish_inspection;
use super::start_inspection;
use super::thread_facts_of;
use super::walk::LegacyHistories;
use super::walk::Walked;
use super::walk::reads_payload;
use super::walk::walk;

/// Lines are handed from the reading thread to the walk in batches of this many.
const BATCH_LINES: usize = 256;

/// Batches the reading thread may be ahead of the walk: a bound on the memory between them.
const BATCHES_AHEAD: usize = 16;

/// What inspecting a file while reading it came to.
pub(super) enum Streamed {
    Inspected(Inspection),
    /// The release is told by lines after the first `session_meta` only: every line, read
    /// whole, to be inspected as a loaded rollout.
    Whole(LoadedRollout),
    /// A legacy compaction needs the lines before it: the file must be read again, whole.
    ReadAgain,
}

/// What the walk on this thread came to, before the reading thread's outcome is known.
enum Received<'c> {
    Walked {
        facts: super::ThreadFacts,
        inspector: Box<super::Inspector<'c>>,
        lines: usize,
    },
    Whole(Vec<LoadedLine>),
    ReadAgain,
}

/// Inspects the rollout at `path` while a thread of its own reads it.
pub(super) fn inspect_streamed(
    path: &Path,
    options: &InspectOptions<'_>,
) -> Result<Streamed, InspectError> {
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::sync_channel::<Vec<LoadedLine>>(BATCHES_AHEAD);
        let reader = std::thread::Builder::new()
            .name("rollout-read".to_string())
            .spawn_scoped(scope, move || {
                let mut batch = Vec::with_capacity(BATCH_LINES);
                let read = stream_rollout_for_replay(path, options.progress, |mut line| {
                    // What the walk does not read is dropped here, where it was allocated:
                    // freeing it on the walk's thread would cost that thread more.
                    if !reads_payload(&line.line.item)
                        && let RolloutItem::Other { payload, .. } = &mut line.line.item
                    {
                        *payload = serde_json::Value::Null;
                    }
                    batch.push(line);
                    if batch.len() < BATCH_LINES {
                        return ControlFlow::Continue(());
                    }
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_LINES));
                    match sender.send(full) {
                        Ok(()) => ControlFlow::Continue(()),
                        // The walk stopped: the rest of the file is not needed.
                        Err(_) => ControlFlow::Break(()),
                    }
                });
                if !batch.is_empty() {
                    // Nobody listens any more only when the walk stopped early.
                    let _ = sender.send(batch);
                }
                read
            })
            .map_err(|source| InspectError::Thread { source })?;
        // The receiver goes with the walk, so a walk that stops early lets the reader stop.
        let received = walk_received(receiver.into_iter().flatten(), options);
        let warnings = match reader.join() {
            Ok(read) => read?,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        Ok(match received? {
            Received::Walked {
                mut facts,
                inspector,
                lines,
            } => {
                // Damaged lines come first among the warnings, as when the file is loaded.
                let mut all: Vec<String> = warnings
                    .into_iter()
                    .map(|warning| warning.message)
                    .collect();
                all.append(&mut facts.warnings);
                facts.warnings = all;
                Streamed::Inspected(finish_inspection(facts, *inspector, lines))
            }
            Received::Whole(lines) => Streamed::Whole(LoadedRollout { lines, warnings }),
            Received::ReadAgain => Streamed::ReadAgain,
        })
    })
}

/// Walks `lines` as they arrive, once the first `session_meta` (or `--codex-version`) has told
/// the release; keeps every line when nothing so early tells.
fn walk_received<'c>(
    mut lines: impl Iterator<Item = LoadedLine>,
    options: &InspectOptions<'c>,
) -> Result<Received<'c>, InspectError> {
    let mut head = Vec::new();
    for line in lines.by_ref() {
        let is_meta = matches!(line.line.item, RolloutItem::SessionMeta(_));
        head.push(line);
        if is_meta {
            break;
        }
    }
    let meta_line = head
        .last()
        .filter(|line| matches!(line.line.item, RolloutItem::SessionMeta(_)));
    // Later lines matter only when the first session_meta names no known release.
    let release = asked_release(options.release)
        .or_else(|| meta_line.and_then(|line| release_of_lines(std::iter::once(&line.line))));
    let Some(release) = release else {
        head.extend(lines);
        return Ok(Received::Whole(head));
    };
    let meta: Option<SessionMeta> = meta_line.and_then(|line| match &line.line.item {
        RolloutItem::SessionMeta(meta) => Some((**meta).clone()),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    });
    let facts = thread_facts_of(meta.as_ref(), release, &[], options);
    let mut inspector = start_inspection(&facts, options);
    let mut count = 0;
    let walked = walk(
        head.into_iter().chain(lines).map(|line| {
            count += 1;
            (line.line_number, Cow::Owned(line.line.item))
        }),
        LegacyHistories::Unavailable,
        &mut inspector,
    )?;
    Ok(match walked {
        Walked::Complete => Received::Walked {
            facts,
            inspector: Box::new(inspector),
            lines: count,
        },
        Walked::NeedsWholeRollout => Received::ReadAgain,
    })
}
