//! Where `session run --rollout OUT.jsonl` writes the rollouts of the threads a script's `fork`
//! steps start: beside OUT.jsonl, as `OUT.fork-1.jsonl`, `OUT.fork-2.jsonl`, … in fork order;
//! and those of the sub-agents its `spawn_agent` calls start, as `OUT.agent-1.jsonl`, … in
//! spawn order.

use std::path::Path;
use std::path::PathBuf;

use anyhow::Context;
use codex_protocol::RolloutLine;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutWriter;
use codex_utils_fs::Existing;

/// Which kind of extra thread a rollout beside the first one belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExtraThread {
    /// A thread a `fork` step started (`OUT.fork-N.jsonl`).
    Fork,
    /// A sub-agent a `spawn_agent` call started (`OUT.agent-N.jsonl`).
    Agent,
}

impl ExtraThread {
    fn label(self) -> &'static str {
        match self {
            ExtraThread::Fork => "fork",
            ExtraThread::Agent => "agent",
        }
    }
}

/// The path of the `number`-th (from 1) extra thread's rollout of `kind` beside `rollout`.
pub(crate) fn fork_rollout_path(rollout: &Path, kind: ExtraThread, number: usize) -> PathBuf {
    let stem = rollout
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    rollout.with_file_name(format!("{stem}.{}-{number}.jsonl", kind.label()))
}

/// Writes each extra thread's lines of `kind` beside `rollout` (see [`fork_rollout_path`]).
pub(crate) fn write_fork_rollouts(
    rollout: &Path,
    kind: ExtraThread,
    forks: &[Vec<RolloutLine>],
    existing: Existing,
) -> anyhow::Result<()> {
    for (index, lines) in forks.iter().enumerate() {
        let path = fork_rollout_path(rollout, kind, index + 1);
        let write = || -> Result<(), codex_rollout::RolloutError> {
            let mut writer = RolloutWriter::staged(&path, existing, LineOrdinals::Omitted)?;
            for line in lines {
                writer.append_line(line)?;
            }
            writer.finish()
        };
        write().with_context(|| format!("--rollout: {}", path.display()))?;
    }
    Ok(())
}
