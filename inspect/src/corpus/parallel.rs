//! Digesting many rollouts on the rayon pool, handing the outcomes back in list order.
//!
//! At most a few files per thread are in flight or finished-but-waiting at once, so memory is
//! bounded by that many per-file inspections, whatever the folder's size; a file that finishes
//! early waits for the ones before it, so the order of the outcomes never depends on the
//! threads.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

use super::CorpusError;
use super::CorpusFile;
use super::FileDigest;
use super::Rows;
use super::digest::digest_file;
use crate::inspect::InspectOptions;

/// Files in flight (or finished and waiting for an earlier one) per pool thread.
const IN_FLIGHT_PER_THREAD: usize = 4;

/// One file of the list and what its inspection gave.
#[derive(Debug)]
pub struct FileOutcome {
    pub file: CorpusFile,
    pub result: Result<FileDigest, CorpusError>,
}

/// Digests every one of `files` on the rayon pool and calls `on_outcome` with each outcome, on
/// the calling thread, in the order of `files`. `on_outcome` returning
/// [`ControlFlow::Break`] stops the run (files already started finish; nothing else starts).
///
/// A file that cannot be read or is not a rollout gives its error; so does a defect of this
/// program met while inspecting it, which ends that file only. The readers' per-line
/// diagnostics are not logged while a file is digested: they are in its summary's warnings.
pub fn inspect_files(
    files: &[CorpusFile],
    options: &InspectOptions<'_>,
    rows: Rows,
    mut on_outcome: impl FnMut(FileOutcome) -> ControlFlow<()>,
) {
    let in_flight = rayon::current_num_threads().max(1) * IN_FLIGHT_PER_THREAD;
    let (sender, receiver) = mpsc::channel();
    // The calling thread waits for outcomes here while the pool's threads all work.
    rayon::in_place_scope(|scope| {
        let mut started = 0;
        let mut next = 0;
        let mut finished = BTreeMap::new();
        while next < files.len() {
            while started < files.len() && started - next < in_flight {
                let sender = sender.clone();
                let index = started;
                let file = &files[index];
                scope.spawn(move |_| {
                    let digest = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        tracing::dispatcher::with_default(&tracing::Dispatch::none(), || {
                            digest_file(file, options, rows)
                        })
                    }));
                    let result = match digest {
                        Ok(result) => result.map_err(CorpusError::from),
                        Err(panic) => Err(CorpusError::Panicked(
                            panic
                                .downcast_ref::<&str>()
                                .map(|message| (*message).to_string())
                                .or_else(|| panic.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "a panic without a message".to_string()),
                        )),
                    };
                    // The receiver is gone only when the run has stopped.
                    let _ = sender.send((index, result));
                });
                started += 1;
            }
            // Every started task sends exactly once (panics included), so this never waits
            // for an outcome that cannot come.
            let Ok((index, result)) = receiver.recv() else {
                break;
            };
            finished.insert(index, result);
            while let Some(result) = finished.remove(&next) {
                let outcome = FileOutcome {
                    file: files[next].clone(),
                    result,
                };
                next += 1;
                if on_outcome(outcome).is_break() {
                    return;
                }
            }
        }
    });
}
