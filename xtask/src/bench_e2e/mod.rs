//! `cargo xtask bench-e2e`: whole processes timed on generated rollouts. It builds
//! `codex-context` and xtask in release, writes a long rollout and a rollout holding one
//! 50 MB line into a temporary folder ([`crate::gen_rollout`]), and runs each command
//! [`BenchOptions::repetitions`] times, keeping the median wall time and peak RSS (from
//! `wait4`). This project's commands run in rounds, each round running every one of them
//! once, so that a drift in the machine's speed moves them all alike and their ratios hold.
//! The commands: the floor (parsing every line into a JSON value), `session resume`,
//! `session fork`, `inspect`, `inspect` of the huge line, and — when the npm cache holds the
//! release — the released `codex exec resume` of the same file and a fresh `codex exec` turn
//! (its start-up), against the loopback mock of `cargo xtask real-codex`. The released CLI's
//! CODEX_HOME is emptied (but for `config.toml`) before each resume: 0.171.0 imports a
//! rollout's history into its own SQLite databases and later resumes read those instead of the
//! file, so a kept CODEX_HOME would time a job that reads no rollout (reported on its own row,
//! with no goal).
//! [`report::render_table`] compares the medians with the goals ([`report::GOALS`]).

mod report;
mod rusage;

#[cfg(test)]
mod tests;

use std::io::BufRead as _;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use codex_release::CodexRelease;
use codex_utils_progress::Display;
use codex_utils_progress::Progress;
use codex_utils_progress::Unit;

use crate::error::XtaskError;
use crate::real_codex::MockServer;
use crate::real_codex::Scenario;

pub use report::Case;
pub use report::GOALS;
pub use report::InputItems;
pub use report::Measurements;
pub use report::Medians;
pub use report::all_met;
pub use report::median;
pub use report::render_table;

/// The size of the huge line's command output.
pub const HUGE_OUTPUT_BYTES: u64 = 50_000_000;
/// The most one measured process may run.
const RUN_TIMEOUT: Duration = Duration::from_secs(600);
const CARGO_VARS_KEPT: [&str; 3] = ["CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_TERM_COLOR"];
/// The pins that keep this project's output the same on any date and in any zone.
const PINS: [&str; 4] = [
    "--set",
    "current_date=\"2026-03-02\"",
    "--set",
    "timezone=\"Etc/UTC\"",
];

/// How to run the benchmark.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Lines of the long rollout (at least; it ends at a turn boundary).
    pub lines: u64,
    pub repetitions: usize,
    pub release: CodexRelease,
    pub target_dir: PathBuf,
    /// The npm cache of the released CLI (`cargo xtask real-codex`'s).
    pub cache: PathBuf,
}

/// Reads `path` and parses every line into a `serde_json::Value`, dropping each; returns the
/// number of lines.
pub fn parse_floor(path: &Path) -> Result<u64, XtaskError> {
    let file = std::fs::File::open(path).map_err(|source| XtaskError::io(path, source))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut line = String::new();
    let mut count = 0;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|source| XtaskError::io(path, source))?;
        if read == 0 {
            return Ok(count);
        }
        count += 1;
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|source| XtaskError::Json {
                path: path.to_path_buf(),
                source,
            })?;
        drop(value);
    }
}

/// A generated rollout: its size, and what the released CLI's session file is named after.
#[derive(Debug, Clone, PartialEq, Eq)]
struct GeneratedFile {
    bytes: u64,
    thread_id: String,
    /// `session_meta.timestamp`.
    started_at: String,
}

/// Reads the size and the `session_meta` line of a generated rollout.
fn generated_file(path: &Path) -> Result<GeneratedFile, XtaskError> {
    let io_error = |source| XtaskError::io(path, source);
    let bytes = std::fs::metadata(path).map_err(io_error)?.len();
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path).map_err(io_error)?)
        .read_line(&mut first)
        .map_err(io_error)?;
    let meta: serde_json::Value =
        serde_json::from_str(&first).map_err(|source| XtaskError::Json {
            path: path.to_path_buf(),
            source,
        })?;
    let field = |name: &str| {
        meta["payload"][name]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    Ok(GeneratedFile {
        bytes,
        thread_id: field("id"),
        started_at: field("timestamp"),
    })
}

/// Builds, generates, runs every case and returns what it measured.
pub fn run_bench(root: &Path, options: &BenchOptions) -> Result<Measurements, XtaskError> {
    build_release(root)?;
    let release_dir = options.target_dir.join("release");
    let ours = release_dir.join("codex-context");
    let xtask = release_dir.join("xtask");
    let temp = tempfile::Builder::new()
        .prefix("bench-e2e-")
        .tempdir()
        .map_err(|source| XtaskError::io(&std::env::temp_dir(), source))?;
    let dir = temp.path();
    let repo = dir.join("real/repo");
    for folder in [
        "home",
        "codex_home",
        "real/repo",
        "real/home",
        "real/codex_home",
    ] {
        let path = dir.join(folder);
        std::fs::create_dir_all(&path).map_err(|source| XtaskError::io(&path, source))?;
    }
    let long = dir.join("long.jsonl");
    let huge = dir.join("huge.jsonl");
    // Generated by a child process, so that this one stays small: a child's peak RSS counts
    // the parent's resident set it was forked from.
    let generate = |path: &Path, lines: u64, huge_output_bytes: Option<u64>| {
        let mut command = Command::new(&xtask);
        command
            .arg("gen-rollout")
            .args(["--lines", &lines.to_string()])
            .args(["--release", options.release.name()])
            .arg("--out")
            .arg(path)
            .arg("--cwd")
            .arg(&repo)
            .args(["--model-provider", "mock"]);
        if let Some(bytes) = huge_output_bytes {
            command.args(["--huge-output-bytes", &bytes.to_string()]);
        }
        let status =
            command
                .stdout(Stdio::null())
                .status()
                .map_err(|source| XtaskError::Spawn {
                    command: format!("{command:?}"),
                    source,
                })?;
        match status.success() {
            true => generated_file(path),
            false => Err(XtaskError::Invalid {
                path: path.to_path_buf(),
                message: "xtask gen-rollout failed".to_string(),
            }),
        }
    };
    let long_summary = generate(&long, options.lines, None)?;
    let huge_summary = generate(&huge, 1, Some(HUGE_OUTPUT_BYTES))?;
    let mut measured = Measurements {
        long_file_bytes: long_summary.bytes,
        huge_file_bytes: huge_summary.bytes,
        ..Measurements::default()
    };
    let real =
        crate::real_codex::installed_binary(&options.cache, options.release.observed_version());
    let real_runs = match &real {
        Some(_) => 3,
        None => 0,
    };
    let progress = Progress::new(
        Some(((6 + real_runs) * (options.repetitions + 1)) as u64),
        Unit::Items("runs"),
        "bench-e2e",
        Display::StderrIfTerminal,
    );
    let ours_command = |args: &[&str], file: &Path| {
        let mut command = Command::new(&ours);
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir.join("home"))
            .env("CODEX_HOME", dir.join("codex_home"))
            .env("TZ", "Etc/UTC")
            .env("LANG", "C.UTF-8")
            .args(args)
            .arg(file);
        command
    };
    let cases: [(Case, Command); 6] = [
        (Case::Floor, {
            let mut command = Command::new(&xtask);
            command.arg("parse-floor").arg(&long);
            command
        }),
        (Case::Resume, {
            let mut command = ours_command(&["session", "resume"], &long);
            command.args(["--user", "hi"]).args(PINS);
            command
        }),
        (Case::Fork, {
            let mut command = ours_command(&["session", "fork"], &long);
            command.args(["--user", "hi"]).args(PINS);
            command
        }),
        (Case::Inspect, ours_command(&["inspect"], &long)),
        (Case::HugeLineFloor, {
            let mut command = Command::new(&xtask);
            command.arg("parse-floor").arg(&huge);
            command
        }),
        (Case::HugeLineInspect, ours_command(&["inspect"], &huge)),
    ];
    // In rounds, each running every command once: the machine's speed drifts, and a ratio of
    // two commands' medians means something only when their runs are spread over the same time.
    let mut timed: Vec<(Case, Command, Result<Runs, String>)> = cases
        .into_iter()
        .map(|(case, command)| (case, command, Ok(Runs::default())))
        .collect();
    for run in 0..=options.repetitions {
        for (_, command, runs) in &mut timed {
            let Ok(kept) = runs else {
                continue;
            };
            match run_once(command, dir, &progress) {
                // The first round warms the page cache and is not counted.
                Ok(_) if run == 0 => {}
                Ok((wall, peak)) => {
                    kept.walls.push(wall);
                    kept.peaks.push(peak);
                }
                Err(reason) => *runs = Err(reason),
            }
        }
    }
    for (case, _, runs) in timed {
        match runs {
            Ok(runs) => {
                measured.cases.insert(case, runs.medians());
            }
            Err(reason) => {
                measured.skipped.insert(case, reason);
            }
        }
    }
    // What our resume sends, to check the released CLI's resumed request against.
    let ours_items = {
        let mut command = ours_command(&["session", "resume"], &long);
        command.args(["--user", "hi"]).args(PINS);
        command
            .stderr(Stdio::null())
            .output()
            .ok()
            .and_then(|output| serde_json::from_slice::<serde_json::Value>(&output.stdout).ok())
            .map(|body| input_items(&body))
    };
    measured.resumed_input_items = ours_items.map(|ours| InputItems { ours, real: None });
    match &real {
        Some(binary) => run_real(
            binary,
            dir,
            &long,
            &long_summary,
            options,
            &progress,
            &mut measured,
        )?,
        None => {
            let reason = format!(
                "no {} in {}",
                options.release.observed_version(),
                options.cache.display()
            );
            for case in [
                Case::RealStartup,
                Case::RealResume,
                Case::RealResumeImported,
            ] {
                measured.skipped.insert(case, reason.clone());
            }
        }
    }
    progress.finish();
    Ok(measured)
}

/// The released CLI: a fresh turn, then the resume of the long rollout copied into its
/// CODEX_HOME before each run (a resume appends to it).
fn run_real(
    binary: &Path,
    dir: &Path,
    long: &Path,
    summary: &GeneratedFile,
    options: &BenchOptions,
    progress: &Progress,
    measured: &mut Measurements,
) -> Result<(), XtaskError> {
    let run_dir = dir.join("real");
    let mock = MockServer::start(&[]).map_err(|source| XtaskError::io(&run_dir, source))?;
    // The model the rollout was recorded with: another one would make the released CLI warn
    // and compact the history first, a job ours does not do.
    let mut config = serde_json::Map::new();
    config.insert(
        "model".to_string(),
        serde_json::Value::from(crate::gen_rollout::MODEL),
    );
    let scenario = Scenario {
        name: "bench-e2e".to_string(),
        about: String::new(),
        files: Default::default(),
        cwd: "repo".to_string(),
        config,
        replies: Vec::new(),
        steps: Vec::new(),
    };
    let config = crate::real_codex::config_toml(&scenario, &mock.base_url()).map_err(|error| {
        XtaskError::Invalid {
            path: run_dir.join("codex_home/config.toml"),
            message: error.to_string(),
        }
    })?;
    let config_path = run_dir.join("codex_home/config.toml");
    std::fs::write(&config_path, config).map_err(|source| XtaskError::io(&config_path, source))?;
    let date = summary.started_at.get(..10).unwrap_or("2026-03-02");
    let sessions = run_dir
        .join("codex_home/sessions")
        .join(date.replace('-', "/"));
    std::fs::create_dir_all(&sessions).map_err(|source| XtaskError::io(&sessions, source))?;
    let stamp = summary
        .started_at
        .get(..19)
        .unwrap_or("2026-03-02T08:00:00")
        .replace(':', "-");
    let copy = sessions.join(format!("rollout-{stamp}-{}.jsonl", summary.thread_id));
    let codex_home = run_dir.join("codex_home");
    let real_command = |args: &[&str]| {
        let mut command = Command::new(binary);
        crate::real_codex::isolated_env(&mut command, &run_dir);
        command
            .current_dir(run_dir.join("repo"))
            .env("RUST_LOG", crate::real_codex::RUST_LOG)
            .arg("exec")
            .args(args)
            .args(["--skip-git-repo-check", "hi"]);
        command
    };
    let mut startup = real_command(&[]);
    match repeat(
        &mut startup,
        options.repetitions,
        dir,
        progress,
        &mut || Ok(()),
    ) {
        Ok(medians) => {
            measured.cases.insert(Case::RealStartup, medians);
        }
        Err(reason) => {
            measured.skipped.insert(Case::RealStartup, reason);
        }
    }
    let mut resume = real_command(&["resume", &summary.thread_id]);
    let restore_rollout = || {
        std::fs::copy(long, &copy)
            .map(drop)
            .map_err(|error| format!("cannot copy the rollout: {error}"))
    };
    let mut from_the_file = || {
        empty_but_config(&codex_home)?;
        std::fs::create_dir_all(&sessions)
            .map_err(|error| format!("cannot create {}: {error}", sessions.display()))?;
        restore_rollout()
    };
    mock.reset(&[]);
    let outcome = repeat(
        &mut resume,
        options.repetitions,
        dir,
        progress,
        &mut from_the_file,
    )
    .and_then(|medians| {
        let real = last_request_input_items(&mock)?;
        if let Some(items) = &mut measured.resumed_input_items {
            if real < items.ours / 2 {
                return Err(format!(
                    "the released CLI's resumed request carried {real} input items, ours {}: \
                     it did not read the rollout's history",
                    items.ours
                ));
            }
            items.real = Some(real);
        }
        Ok(medians)
    });
    match outcome {
        Ok(medians) => {
            measured.cases.insert(Case::RealResume, medians);
        }
        Err(reason) => {
            measured.skipped.insert(Case::RealResume, reason);
        }
    }
    // The warm-up run imports the thread; the timed runs resume it from the databases.
    let mut imported = || restore_rollout();
    match repeat(
        &mut resume,
        options.repetitions,
        dir,
        progress,
        &mut imported,
    ) {
        Ok(medians) => {
            measured.cases.insert(Case::RealResumeImported, medians);
        }
        Err(reason) => {
            measured.skipped.insert(Case::RealResumeImported, reason);
        }
    }
    drop(mock);
    Ok(())
}

/// Removes everything in `codex_home` but `config.toml`: the released CLI's databases, logs and
/// session files.
fn empty_but_config(codex_home: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(codex_home)
        .map_err(|error| format!("cannot list {}: {error}", codex_home.display()))?;
    for entry in entries {
        let entry =
            entry.map_err(|error| format!("cannot list {}: {error}", codex_home.display()))?;
        let path = entry.path();
        if entry.file_name() == "config.toml" {
            continue;
        }
        let removed = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) | Err(_) => std::fs::remove_file(&path),
        };
        removed.map_err(|error| format!("cannot remove {}: {error}", path.display()))?;
    }
    Ok(())
}

/// The `input` items of the newest `/responses` request the mock received; a resume that did
/// not read the rollout's history sends next to none.
fn last_request_input_items(mock: &MockServer) -> Result<usize, String> {
    mock.recorded()
        .iter()
        .rev()
        .find(|request| request.is_responses())
        .map(|request| input_items(&request.body))
        .ok_or_else(|| "the released CLI sent no request to the mock".to_string())
}

/// How many items a request body's `input` holds.
fn input_items(body: &serde_json::Value) -> usize {
    body.get("input")
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len)
}

/// The counted runs of one command.
#[derive(Debug, Default)]
struct Runs {
    walls: Vec<u128>,
    peaks: Vec<u64>,
}

impl Runs {
    fn medians(&self) -> Medians {
        let wall = median(&self.walls).unwrap_or_default();
        Medians {
            wall: Duration::from_nanos(u64::try_from(wall).unwrap_or(u64::MAX)),
            peak_rss_bytes: u64::try_from(median(&self.peaks).unwrap_or_default())
                .unwrap_or(u64::MAX),
        }
    }
}

/// Runs `command` once to warm up, then `repetitions` times (`before` runs ahead of each,
/// untimed), and returns the medians; the first failure ends it with a reason.
fn repeat(
    command: &mut Command,
    repetitions: usize,
    dir: &Path,
    progress: &Progress,
    before: &mut dyn FnMut() -> Result<(), String>,
) -> Result<Medians, String> {
    let mut runs = Runs::default();
    for run in 0..=repetitions {
        before()?;
        let (wall, peak) = run_once(command, dir, progress)?;
        // The first run warms the page cache and is not counted.
        if run > 0 {
            runs.walls.push(wall);
            runs.peaks.push(peak);
        }
    }
    Ok(runs.medians())
}

/// Runs `command` once and returns its wall time in nanoseconds and its peak RSS in bytes; a
/// failure, a timeout or a connection beyond the loopback is the reason it gives instead.
fn run_once(command: &mut Command, dir: &Path, progress: &Progress) -> Result<(u128, u64), String> {
    let stderr_path = dir.join("stderr.txt");
    let stderr = std::fs::File::create(&stderr_path)
        .map_err(|error| format!("cannot create {}: {error}", stderr_path.display()))?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    std::os::unix::process::CommandExt::process_group(command, 0);
    let started = Instant::now();
    let child = command
        .spawn()
        .map_err(|error| format!("cannot start {:?}: {error}", command.get_program()))?;
    let reaped = rusage::wait_for(child.id(), started + RUN_TIMEOUT)
        .map_err(|error| format!("cannot wait for the process: {error}"))?;
    let wall = started.elapsed();
    progress.inc(1);
    let stderr_text = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    if let Some(target) = crate::real_codex::outside_connection(&stderr_text) {
        return Err(format!("connected to {target}, not to 127.0.0.1"));
    }
    match (reaped.timed_out, reaped.exit_code) {
        (true, _) => Err(format!("ran past {} s", RUN_TIMEOUT.as_secs())),
        (false, Some(0)) => Ok((wall.as_nanos(), reaped.peak_rss_bytes)),
        (false, code) => {
            let last = stderr_text
                .lines()
                .rfind(|line| !line.trim().is_empty())
                .unwrap_or("no output")
                .trim()
                .to_string();
            let status = code.map_or("killed by a signal".to_string(), |code| {
                format!("exit {code}")
            });
            Err(format!("{status}: {last}"))
        }
    }
}

/// `cargo build --release --locked -p codex-cli -p xtask`.
fn build_release(root: &Path) -> Result<(), XtaskError> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.current_dir(root).args([
        "build",
        "--release",
        "--quiet",
        "--locked",
        "-p",
        "codex-cli",
        "-p",
        "xtask",
    ]);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_") && !CARGO_VARS_KEPT.contains(&name.as_ref()) {
            command.env_remove(name.as_ref());
        }
    }
    let status = command.status().map_err(|source| XtaskError::Spawn {
        command: format!("{command:?}"),
        source,
    })?;
    if !status.success() {
        return Err(XtaskError::Invalid {
            path: root.to_path_buf(),
            message: "cargo build --release -p codex-cli -p xtask failed".to_string(),
        });
    }
    Ok(())
}
