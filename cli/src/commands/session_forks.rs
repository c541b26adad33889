//! Where `session run --rollout OUT.jsonl` writes the rollouts of the threads a script's `fork`
//! steps start: beside OUT.jsonl, as `OUT.fork-1.jsonl`, `OUT.fork-2.jsonl`, … in fork order.

use std::path::Path;
use std::path::PathBuf;

use anyhow::Context;
use codex_protocol::RolloutLine;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutWriter;
use codex_utils_fs::Existing;

/// The path of the `number`-th (from 1) forked thread's rollout beside `rollout`.
pub(crate) fn fork_rollout_path(rollout: &Path, number: usize) -> PathBuf {
    let stem = rollout
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    rollout.with_file_name(format!("{stem}.fork-{number}.jsonl"))
}

/// Writes each forked thread's lines beside `rollout` (see [`fork_rollout_path`]).
pub(crate) fn write_fork_rollouts(
    rollout: &Path,
    forks: &[Vec<RolloutLine>],
    existing: Existing,
) -> anyhow::Result<()> {
    for (index, lines) in forks.iter().enumerate() {
        let path = fork_rollout_path(rollout, index + 1);
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
