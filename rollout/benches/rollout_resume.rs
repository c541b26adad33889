//! Resuming a 100,000-line rollout against the floor of parsing the same lines into
//! `serde_json::Value`, plus the peak memory of one resume (Linux only).
//!
//! `cargo bench -p codex-rollout --bench rollout_resume`
//!
//! Besides criterion's wall-clock figures it prints the CPU time of each variant (all threads),
//! which stays meaningful on a machine that is busy with other work.

#![allow(clippy::expect_used)]

#[path = "../tests/rollout_support/synthetic.rs"]
mod synthetic;

use std::fs::File;
use std::hint::black_box;
use std::io::BufWriter;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use codex_rollout::read_rollout;
use codex_rollout::reconstruct;
use codex_rollout::resume_rollout;
use criterion::Criterion;
use criterion::Throughput;
use criterion::criterion_group;

const LINES: usize = 100_000;
const CPU_RUNS: u32 = 10;

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Set in a child process of this benchmark: measure the peak memory of one variant and exit.
const PEAK_VARIANT_ENV: &str = "ROLLOUT_RESUME_PEAK_VARIANT";
const PEAK_FILE_ENV: &str = "ROLLOUT_RESUME_PEAK_FILE";
const VARIANTS: [&str; 2] = ["resume_rollout", "read_rollout_and_reconstruct"];

fn run_variant(variant: &str, path: &Path) {
    if variant == VARIANTS[0] {
        black_box(resume_rollout(path, None).expect("resume"));
    } else {
        let loaded = read_rollout(path, None).expect("read");
        black_box(reconstruct(&loaded));
    }
}

/// Peak resident memory of one variant above the resident size before it. Measured in a fresh
/// child process, because memory freed by an earlier run stays with the process and would hide
/// part of a later run's peak.
fn report_peak_memory(path: &Path, file_bytes: u64) {
    for variant in VARIANTS {
        let output = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .env(PEAK_VARIANT_ENV, variant)
                .env(PEAK_FILE_ENV, path)
                .output()
        });
        let peak: Option<u64> = output
            .ok()
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .and_then(|stdout| stdout.trim().parse().ok());
        match peak {
            Some(peak) => println!(
                "rollout_resume/peak_memory/{variant}: {peak} bytes above the starting RSS for a \
                 {file_bytes}-byte file ({:.2}x)",
                peak as f64 / file_bytes as f64
            ),
            None => println!("rollout_resume/peak_memory/{variant}: not measurable here"),
        }
    }
}

/// The child side of [`report_peak_memory`]: prints the peak in bytes.
fn measure_peak_in_child(variant: &str, path: &Path) {
    let Some(before_kib) = status_kib("VmRSS:") else {
        return;
    };
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        return;
    }
    run_variant(variant, path);
    if let Some(peak_kib) = status_kib("VmHWM:") {
        println!("{}", peak_kib.saturating_sub(before_kib) * 1024);
    }
}

/// User + system CPU time of the whole process (all threads), in 10 ms clock ticks.
fn process_cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // utime and stime are the 12th and 13th fields after the parenthesised command name.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// Milliseconds of CPU per run of `work`.
fn cpu_ms(work: &dyn Fn()) -> Option<f64> {
    let start = process_cpu_ticks()?;
    for _ in 0..CPU_RUNS {
        work();
    }
    Some((process_cpu_ticks()? - start) as f64 * 10.0 / f64::from(CPU_RUNS))
}

fn report_cpu_time(path: &Path, text: &str) {
    let baseline = || {
        for line in text.lines() {
            black_box(serde_json::from_str::<serde_json::Value>(line).expect("json"));
        }
    };
    let Some(baseline_ms) = cpu_ms(&baseline) else {
        println!("rollout_resume/cpu_time: not measurable here");
        return;
    };
    println!("rollout_resume/cpu_time/serde_json_value_per_line: {baseline_ms:.0} ms");
    for variant in VARIANTS {
        if let Some(ms) = cpu_ms(&|| run_variant(variant, path)) {
            println!(
                "rollout_resume/cpu_time/{variant}: {ms:.0} ms (throughput {:.2}x the baseline)",
                baseline_ms / ms
            );
        }
    }
}

fn rollout_resume(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    let file_bytes = synthetic::write_synthetic_rollout(&mut out, LINES).expect("generate");
    out.flush().expect("flush");
    drop(out);
    let text = std::fs::read_to_string(&path).expect("read");
    report_peak_memory(&path, file_bytes);
    report_cpu_time(&path, &text);

    let mut group = c.benchmark_group("rollout_resume");
    group.throughput(Throughput::Bytes(file_bytes));
    group.bench_function("serde_json_value_per_line", |b| {
        b.iter(|| {
            for line in text.lines() {
                black_box(serde_json::from_str::<serde_json::Value>(line).expect("json"));
            }
        });
    });
    for variant in VARIANTS {
        group.bench_function(variant, |b| b.iter(|| run_variant(variant, &path)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    targets = rollout_resume
}

fn main() {
    if let (Some(variant), Some(path)) = (
        std::env::var_os(PEAK_VARIANT_ENV),
        std::env::var_os(PEAK_FILE_ENV),
    ) {
        measure_peak_in_child(&variant.to_string_lossy(), Path::new(&path));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
