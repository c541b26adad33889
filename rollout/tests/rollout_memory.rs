//! Peak memory of resuming a rollout stays within the file size: the streaming pass keeps only
//! the lines since the newest compaction. The only test in its binary, so nothing else
//! allocates while it measures (Linux only: it reads `/proc/self/status`).

#![allow(clippy::expect_used)]

mod rollout_support;

use std::fs::File;
use std::io::BufWriter;
use std::io::Write;

use codex_rollout::resume_rollout;
use rollout_support::synthetic::write_synthetic_rollout;

const LINES: usize = 20_000;

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs /proc/self/status (Linux)")]
fn resume_peak_memory_is_at_most_the_file_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    let file_bytes = write_synthetic_rollout(&mut out, LINES).expect("generate");
    out.flush().expect("flush");
    drop(out);

    let before_kib = status_kib("VmRSS:").expect("rss");
    // Resetting the high-water mark makes the measurement independent of earlier peaks.
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let session = resume_rollout(&path, None).expect("resume").session;
    let peak_kib = status_kib("VmHWM:").expect("hwm");
    assert!(!session.history.is_empty());
    drop(session);

    let peak_bytes = peak_kib.saturating_sub(before_kib) * 1024;
    eprintln!(
        "rollout of {LINES} lines, {file_bytes} bytes: resume peak {peak_bytes} bytes above \
         the starting RSS ({:.2}x the file; high-water mark reset: {reset})",
        peak_bytes as f64 / file_bytes as f64
    );
    assert!(
        peak_bytes <= file_bytes,
        "peak {peak_bytes} bytes > {file_bytes} bytes"
    );
}
