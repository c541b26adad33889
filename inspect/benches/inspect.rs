//! `inspect` of a 100,000-line rollout against the resume reconstruction of the same file
//! (`resume_rollout`; the budget: under 3× its time). Both read the file from disk.
//!
//! `cargo bench -p codex-inspect --bench inspect`

#![allow(clippy::expect_used)]

#[path = "../../rollout/tests/rollout_support/synthetic.rs"]
mod synthetic;

use std::fs::File;
use std::hint::black_box;
use std::io::BufWriter;
use std::io::Write;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

use codex_inspect::InspectOptions;
use codex_inspect::TokenCounter;
use codex_inspect::inspect_file;
use codex_models_manager::ModelCatalog;
use codex_rollout::resume_rollout;
use criterion::Criterion;
use criterion::Throughput;
use criterion::criterion_group;
use criterion::criterion_main;

const LINES: usize = 100_000;

/// Median over alternating runs of inspect time / resume time, so that load changes on the
/// machine affect both sides of each ratio alike.
fn report_ratio(path: &Path, options: &InspectOptions<'_>) {
    let mut ratios = Vec::new();
    let mut timings = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        black_box(resume_rollout(path, None).expect("resume"));
        let resume = start.elapsed();
        let start = Instant::now();
        black_box(inspect_file(path, options).expect("inspect"));
        let inspect = start.elapsed();
        ratios.push(inspect.as_secs_f64() / resume.as_secs_f64());
        timings.push((inspect, resume));
    }
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let (inspect, resume) = timings[ratios
        .iter()
        .position(|ratio| *ratio == median)
        .unwrap_or(0)];
    println!(
        "inspect/ratio: median of 7 alternating runs {median:.2}x (inspect {inspect:?} / resume \
         {resume:?}); budget 3x"
    );
}

fn inspect(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    let file_bytes = synthetic::write_synthetic_rollout(&mut out, LINES).expect("generate");
    out.flush().expect("flush");
    drop(out);
    let catalog = ModelCatalog::bundled().expect("catalog");
    let options = InspectOptions::new(&catalog);
    // The tokenizer's vocabulary loads once per process; keep that out of the timings.
    black_box(TokenCounter::new().count("warm up"));
    let inspection = inspect_file(&path, &options).expect("inspect");
    println!(
        "inspect/report: {} requests, {} timeline turns from a {file_bytes}-byte file",
        inspection.requests.len(),
        inspection.timeline.len()
    );
    report_ratio(&path, &options);

    let mut group = c.benchmark_group("inspect");
    group.throughput(Throughput::Bytes(file_bytes));
    group.bench_function("resume_rollout", |b| {
        b.iter(|| black_box(resume_rollout(&path, None).expect("resume")));
    });
    group.bench_function("inspect_read_file", |b| {
        b.iter(|| black_box(inspect_file(&path, &options).expect("inspect")));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    targets = inspect
}
criterion_main!(benches);
