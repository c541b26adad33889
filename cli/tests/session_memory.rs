//! `session run` keeps memory bounded by the current request: from a run of `SMALL` turns to one
//! of `LARGE` turns, its peak resident memory grows at most linearly (each request carries the
//! whole history, so linear is what the work at hand costs; keeping every request, or every
//! rollout line with a large constant, grows faster). The only test in its binary, so that the
//! peak of waited-for children (`getrusage(RUSAGE_CHILDREN)`) is that of its own runs, in the
//! order they ran: a smaller run never follows a larger one. Linux only.

#![cfg(target_os = "linux")]
#![allow(clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::process::Stdio;

use nix::sys::resource::Resource;
use nix::sys::resource::UsageWho;
use nix::sys::resource::getrusage;
use nix::sys::resource::setrlimit;

/// Turns of the small and the large run (the large four times the small).
const SMALL: usize = 150;
const LARGE: usize = 600;

/// Address space every process of this test may map (inherited by the runs): a run that grows
/// quadratically fails here instead of exhausting the machine.
const ADDRESS_SPACE_CAP: u64 = 4 << 30;

/// How far above a one-turn run the peak of a run of [`LARGE`] turns may rise: keeping every
/// request body of such a run alone would take over 100 MiB.
const GROWTH_CAP_KIB: i64 = 32 << 10;

/// A script of `turns` turns in `dir`: messages and replies, a compaction and a resume, so the
/// run spools its rollout lines to re-read them.
fn script(dir: &Path, turns: usize) -> std::path::PathBuf {
    let turns: Vec<String> = (0..turns)
        .map(|index| {
            let extra = match index {
                _ if index == turns / 2 => r#", "resume": true"#,
                _ if index == turns * 3 / 4 => r#", "compact": "What happened so far.""#,
                _ => "",
            };
            format!(
                r#"{{"user": "Question {index} about module {}.", "assistant": "Answer {index}: it parses line {index}."{extra}}}"#,
                index % 37
            )
        })
        .collect();
    let path = dir.join(format!("script_{}.json", turns.len()));
    std::fs::write(
        &path,
        format!(
            r#"{{"session": {{"current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 1}}, "turns": [{}]}}"#,
            turns.join(", ")
        ),
    )
    .expect("write the script");
    path
}

/// Runs `session run SCRIPT --format delta --stats` to completion and returns the largest peak
/// resident memory (KiB) of any child waited for so far.
fn peak_after_run(dir: &Path, script: &Path) -> i64 {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let status = Command::new(env!("CARGO_BIN_EXE_codex-context"))
        .args(["session", "run", "--format", "delta", "--stats"])
        .arg(script)
        .current_dir(dir)
        .env("HOME", &home)
        .env_remove("CODEX_HOME")
        .env_remove("RUST_LOG")
        .env("TZ", "Etc/UTC")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("the binary runs");
    assert!(status.success(), "{} failed: {status}", script.display());
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage")
        .max_rss()
}

#[test]
fn peak_memory_grows_at_most_linearly_with_the_turns() {
    setrlimit(Resource::RLIMIT_AS, ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP).expect("setrlimit");
    let dir = tempfile::tempdir().expect("tempdir");
    let baseline = peak_after_run(dir.path(), &script(dir.path(), 1));
    let small = peak_after_run(dir.path(), &script(dir.path(), SMALL));
    let large = peak_after_run(dir.path(), &script(dir.path(), LARGE));
    eprintln!(
        "peak resident memory (KiB): 1 turn {baseline}, {SMALL} turns {small}, {LARGE} turns {large}"
    );
    let ratio = (LARGE / SMALL) as i64;
    // Linear growth makes the large run's growth `ratio` times the small run's; the margin
    // absorbs allocator rounding, far below what quadratic growth (16 times) would add.
    assert!(
        large - baseline <= ratio * (small - baseline) * 3 / 2 + 8 * 1024,
        "peak grew from {small} KiB ({SMALL} turns) to {large} KiB ({LARGE} turns), baseline \
         {baseline} KiB: more than linear"
    );
    assert!(
        large - baseline <= GROWTH_CAP_KIB,
        "peak {large} KiB is more than {GROWTH_CAP_KIB} KiB above the {baseline} KiB of one turn"
    );
}
