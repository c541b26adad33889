//! Developer tasks for this workspace. Run with `cargo xtask <task>`.

use std::io::Write as _;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

use xtask::CompareScope;
use xtask::ParityMode;
use xtask::ParityOutcome;
use xtask::SnapshotRunner;
use xtask::SnapshotVerdict;

const USAGE: &str = "\
usage: cargo xtask [--root DIR] <task>

--root DIR runs a task on another copy of the workspace (default: this one).

tasks:
  architecture            check the crate graph: every crate has a layer and depends only on
                          lower ones, codex-core declares no new `pub mod` and holds at most
                          its line limit of non-test code (exit 1 on a problem)
  prompts                 regenerate models-manager/models.json from prompts/templates/
                          (via prompts/models.toml) and report unused or missing templates
  prompts --check         fail with a diff when a generated file is out of date, a template
                          is unused, or include_str! names a missing file
  prompts --list          each template: kind or catalog field, variables, users
  snapshots [ARGS...]     run the test suites, all of them even after one fails (cargo insta
                          when installed, else cargo test with INSTA_UPDATE=new), write
                          each changed snapshot as .snap.new
                          and list the pending ones (exit 1 when any is pending or a test
                          failed); ARGS replace --workspace (e.g. -p codex-prompts, or
                          --workspace -- --include-ignored to add the ignored suites, such
                          as the upstream-fixture snapshots)
  upstream-compare CATALOG_OR_DIR [--messages]
                          compare the bundled catalog's facts with another models.json
                          (exit 1 on differences); --messages also compares the shape of
                          model_messages
  parity [--check] [--fixtures DIR]
                          replay upstream's captured scenarios (examples/upstream/) and
                          rewrite docs/upstream-parity.md; --check fails when it is out of date
                          or a script differs beyond the known gaps. Fixtures: DIR, else
                          $CODEX_UPSTREAM_FIXTURES; without them nothing runs (exit 0)
  real-codex [--check] [--only SCENARIO]...
                          install the pinned Codex CLI releases from npm (cache:
                          $CODEX_REAL_CACHE, else target/real-codex/npm), run each scenario of
                          examples/real-codex/ with them against a loopback mock, compare with
                          this project and rewrite docs/real-codex-parity.md; --check fails when
                          it is out of date, a run fails or a difference belongs to no gap.
                          Without npm or the registry: \"skipped\" (exit 0; exit 1 when
                          CODEX_REAL_REQUIRED=1)
  gen-rollout --lines N --release 0.149|0.171 --out FILE [--seed S] [--force]
              [--huge-output-bytes BYTES] [--cwd DIR] [--model-provider ID]
                          write a deterministic rollout in the release's line shapes: whole
                          turns until it holds at least N lines (the same arguments give the
                          same bytes); an existing FILE is replaced only with --force;
                          --huge-output-bytes makes the first command output that long
  bench-e2e [--lines N] [--repetitions R] [--release 0.149|0.171] [--check]
                          build codex-context in release, generate rollouts into a temporary
                          folder and time whole processes (median wall time, peak RSS):
                          a parse-only floor, session resume/fork, inspect, inspect of a file
                          with one 50 MB line, and the released codex exec resume when its
                          npm cache has it; prints a table of goals (--check: exit 1 when
                          one is unmet)
  help                    print this message";

/// Exit status for bad input or a task that could not run.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let root = match args.as_slice() {
        [flag, dir, ..] if flag == "--root" => {
            let root = PathBuf::from(dir);
            args.drain(..2);
            root
        }
        _ => workspace_root(),
    };
    let result = match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            out(&format!("{USAGE}\n"));
            Ok(ExitCode::SUCCESS)
        }
        Some("architecture") => architecture(&root, &args[1..]),
        Some("prompts") => prompts(&root, &args[1..]),
        Some("snapshots") => snapshots(&root, &args[1..]),
        Some("upstream-compare") => compare(&root, &args[1..]),
        Some("parity") => parity(&root, &args[1..]),
        Some("real-codex") => real_codex(&root, &args[1..]),
        Some("gen-rollout") => gen_rollout(&args[1..]),
        Some("bench-e2e") => bench_e2e(&root, &args[1..]),
        // Hidden: the floor bench-e2e measures.
        Some("parse-floor") => parse_floor(&args[1..]),
        Some(other) => {
            eprintln!("xtask: unknown task `{other}`; run `cargo xtask help`");
            Ok(ExitCode::from(EXIT_USAGE))
        }
    };
    result.unwrap_or_else(|error| {
        eprintln!("xtask: {error}");
        ExitCode::from(EXIT_USAGE)
    })
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

fn architecture(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    if !args.is_empty() {
        eprintln!("usage: cargo xtask architecture");
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let report = xtask::check_architecture(root)?;
    for problem in &report.problems {
        eprintln!("error: {problem}");
    }
    if report.problems.is_empty() {
        out(&format!(
            "architecture: dependencies point down; codex-core holds {} of at most {} \
             non-test lines\n",
            report.core_lines,
            xtask::CORE_LINE_LIMIT
        ));
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("architecture: {} problem(s)", report.problems.len());
        Ok(ExitCode::FAILURE)
    }
}

fn prompts(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    match args {
        [] => {
            let regeneration = xtask::regenerate_prompts(root)?;
            for file in &regeneration.written {
                out(&format!("updated {}\n", file.display()));
            }
            if regeneration.written.is_empty() {
                out("generated files are up to date\n");
            }
            Ok(report_problems(&regeneration.problems))
        }
        [flag] if flag == "--check" => {
            let problems = xtask::check_prompts(root)?;
            if problems.is_empty() {
                out("prompts: generated files are up to date and every template is used\n");
            }
            Ok(report_problems(&problems))
        }
        [flag] if flag == "--list" => {
            out(&xtask::list_prompts(root)?);
            Ok(ExitCode::SUCCESS)
        }
        _ => {
            eprintln!("usage: cargo xtask prompts [--check | --list]");
            Ok(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// Writes to stdout; a closed pipe (`cargo xtask prompts --list | head`) is not an error.
fn out(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn report_problems(problems: &[xtask::Problem]) -> ExitCode {
    for problem in problems {
        eprintln!("error: {problem}");
    }
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("prompts: {} problem(s)", problems.len());
        ExitCode::FAILURE
    }
}

fn snapshots(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    let runner = SnapshotRunner::detect(root);
    if runner == SnapshotRunner::CargoTest {
        out(
            "cargo-insta is not installed: running cargo test with INSTA_UPDATE=new, which writes \
             each changed snapshot next to its .snap as .snap.new (`cargo install cargo-insta` \
             adds `cargo insta review`)\n",
        );
    }
    let run = xtask::run_snapshots(root, runner, args)?;
    Ok(match run.verdict() {
        SnapshotVerdict::Clean => {
            out("no pending snapshots\n");
            ExitCode::SUCCESS
        }
        SnapshotVerdict::Pending => {
            let mut listing = String::from("pending snapshots (review, then accept or delete):\n");
            for file in &run.pending {
                listing.push_str(&format!("  {}\n", file.display()));
            }
            listing.push_str(match run.runner {
                SnapshotRunner::CargoInsta => "review them with `cargo insta review`\n",
                SnapshotRunner::CargoTest => {
                    "accept one by renaming it over its .snap, reject it by deleting it\n"
                }
            });
            out(&listing);
            ExitCode::FAILURE
        }
        SnapshotVerdict::FailedWithoutPending => {
            out(
                "no snapshot is pending, but tests failed (see their output above); fix them and \
                 run `cargo xtask snapshots` again\n",
            );
            ExitCode::FAILURE
        }
    })
}

fn compare(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    let (catalog, scope) = match args {
        [catalog] => (catalog, CompareScope::Facts),
        [catalog, flag] if flag == "--messages" => (catalog, CompareScope::FactsAndMessageShapes),
        _ => {
            eprintln!("usage: cargo xtask upstream-compare CATALOG_OR_DIR [--messages]");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let comparison = xtask::upstream_compare(root, Path::new(catalog), scope)?;
    out(&comparison.render());
    Ok(if comparison.agrees() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn real_codex(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    use xtask::RealCodexOutcome;
    let mut mode = ParityMode::Regenerate;
    let mut only = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match (arg.as_str(), rest.clone().next()) {
            ("--check", _) => mode = ParityMode::Check,
            ("--only", Some(name)) => {
                only.push(name.clone());
                rest.next();
            }
            _ => {
                eprintln!("usage: cargo xtask real-codex [--check] [--only SCENARIO]...");
                return Ok(ExitCode::from(EXIT_USAGE));
            }
        }
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .without_time()
        .with_writer(std::io::stderr)
        .init();
    let target_dir = target_dir(root);
    let cache = xtask::real_codex::default_cache(
        std::env::var_os(xtask::real_codex::CACHE_ENV).as_deref(),
        &target_dir,
    );
    let options = xtask::RealCodexOptions {
        mode,
        only,
        target_dir,
        cache,
    };
    let outcome = xtask::run_real_codex(root, &options)?;
    Ok(match outcome {
        RealCodexOutcome::Skipped { reason } => {
            let required = std::env::var(xtask::real_codex::REQUIRED_ENV).is_ok_and(|v| v == "1");
            out(&format!("real-codex: skipped: {reason}\n"));
            if required {
                eprintln!(
                    "real-codex: {}=1, so a skip is a failure",
                    xtask::real_codex::REQUIRED_ENV
                );
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        RealCodexOutcome::Ran {
            runs,
            problems,
            doc_stale,
            elapsed,
        } => {
            for problem in &problems {
                eprintln!("error: {problem}");
            }
            let doc = xtask::real_codex::REAL_CODEX_DOC_PATH;
            match (mode, doc_stale) {
                (ParityMode::Regenerate, true) => out(&format!("updated {doc}\n")),
                (ParityMode::Regenerate, false) => out(&format!("{doc} is up to date\n")),
                (ParityMode::Check, true) => {
                    eprintln!("error: {doc} is out of date; run `cargo xtask real-codex`");
                }
                (ParityMode::Check, false) => {}
            }
            out(&format!(
                "real-codex: {runs} runs in {:.0} s, {} problem(s)\n",
                elapsed.as_secs_f64(),
                problems.len()
            ));
            let stale_fails = mode == ParityMode::Check && doc_stale;
            if problems.is_empty() && !stale_fails {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
    })
}

fn parity(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    let mut mode = ParityMode::Regenerate;
    let mut fixtures_flag = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match (arg.as_str(), rest.clone().next()) {
            ("--check", _) => mode = ParityMode::Check,
            ("--fixtures", Some(dir)) => {
                fixtures_flag = Some(PathBuf::from(dir));
                rest.next();
            }
            _ => {
                eprintln!("usage: cargo xtask parity [--check] [--fixtures DIR]");
                return Ok(ExitCode::from(EXIT_USAGE));
            }
        }
    }
    let env_value = std::env::var_os(xtask::FIXTURES_ENV);
    let fixtures = xtask::locate_fixtures(fixtures_flag.as_deref(), env_value.as_deref())?;
    let outcome = xtask::run_parity(root, fixtures.as_deref(), mode)?;
    Ok(match outcome {
        ParityOutcome::FixturesMissing => {
            out(&format!(
                "parity: no upstream fixtures (--fixtures DIR or ${}); nothing to compare\n",
                xtask::FIXTURES_ENV
            ));
            ExitCode::SUCCESS
        }
        ParityOutcome::Ran {
            tests_passed,
            doc_changed,
        } => {
            match (mode, doc_changed) {
                (ParityMode::Regenerate, true) => {
                    out(&format!("updated {}\n", xtask::PARITY_DOC_PATH));
                }
                (ParityMode::Regenerate, false) => {
                    out(&format!("{} is up to date\n", xtask::PARITY_DOC_PATH));
                }
                (ParityMode::Check, _) => {}
            }
            if tests_passed {
                ExitCode::SUCCESS
            } else {
                eprintln!("parity: the upstream_parity test failed (see its output above)");
                ExitCode::FAILURE
            }
        }
    })
}

const GEN_ROLLOUT_USAGE: &str = "usage: cargo xtask gen-rollout --lines N --release 0.149|0.171 \
                                 --out FILE [--seed S] [--force] [--huge-output-bytes BYTES] \
                                 [--cwd DIR] [--model-provider ID]";

fn gen_rollout(args: &[String]) -> anyhow::Result<ExitCode> {
    let usage = |problem: &str| {
        eprintln!("xtask gen-rollout: {problem}\n{GEN_ROLLOUT_USAGE}");
        Ok(ExitCode::from(EXIT_USAGE))
    };
    let mut lines = None;
    let mut release = None;
    let mut out_path = None;
    let mut seed = xtask::gen_rollout::DEFAULT_SEED;
    let mut existing = codex_utils_fs::Existing::Refuse;
    let mut huge_output_bytes = None;
    let mut cwd = xtask::gen_rollout::DEFAULT_CWD.to_string();
    let mut model_provider = xtask::gen_rollout::DEFAULT_MODEL_PROVIDER.to_string();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--force" {
            existing = codex_utils_fs::Existing::Replace;
            continue;
        }
        let Some(value) = rest.next() else {
            return usage(&format!("{flag} needs a value"));
        };
        let number = || value.parse::<u64>();
        match flag.as_str() {
            "--lines" => match number() {
                Ok(count) if count > 0 => lines = Some(count),
                _ => return usage(&format!("--lines takes a positive number, not `{value}`")),
            },
            "--seed" => match number() {
                Ok(parsed) => seed = parsed,
                Err(_) => return usage(&format!("--seed takes a number, not `{value}`")),
            },
            "--huge-output-bytes" => match number() {
                Ok(parsed) => huge_output_bytes = Some(parsed),
                Err(_) => {
                    return usage(&format!(
                        "--huge-output-bytes takes a number, not `{value}`"
                    ));
                }
            },
            "--release" => match value.parse::<codex_release::CodexRelease>() {
                Ok(parsed) => release = Some(parsed),
                Err(error) => return usage(&error.to_string()),
            },
            "--out" => out_path = Some(PathBuf::from(value)),
            "--cwd" => cwd = value.clone(),
            "--model-provider" => model_provider = value.clone(),
            other => return usage(&format!("unknown option `{other}`")),
        }
    }
    let (Some(lines), Some(release), Some(out_path)) = (lines, release, out_path) else {
        return usage("--lines, --release and --out are required");
    };
    let options = xtask::gen_rollout::GenOptions {
        lines,
        release,
        seed,
        huge_output_bytes,
        cwd,
        model_provider,
    };
    let summary = xtask::gen_rollout::write_rollout(&options, &out_path, existing)?;
    out(&format!(
        "wrote {}: {} lines, {} bytes, {} turns, {} compactions (thread {})\n",
        out_path.display(),
        summary.lines,
        summary.bytes,
        summary.turns,
        summary.compactions,
        summary.thread_id
    ));
    Ok(ExitCode::SUCCESS)
}

/// Reads FILE and parses every line into a `serde_json::Value`, dropping each: the least any
/// reader of a rollout does.
fn parse_floor(args: &[String]) -> anyhow::Result<ExitCode> {
    let [path] = args else {
        eprintln!("usage: cargo xtask parse-floor FILE");
        return Ok(ExitCode::from(EXIT_USAGE));
    };
    let lines = xtask::bench_e2e::parse_floor(Path::new(path))?;
    out(&format!("{lines} lines\n"));
    Ok(ExitCode::SUCCESS)
}

fn bench_e2e(root: &Path, args: &[String]) -> anyhow::Result<ExitCode> {
    const USAGE_LINE: &str = "usage: cargo xtask bench-e2e [--lines N] [--repetitions R] \
                              [--release 0.149|0.171] [--check]";
    let mut lines = 100_000;
    let mut repetitions = 5;
    let mut release = codex_release::CodexRelease::LATEST;
    let mut check = false;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--check" {
            check = true;
            continue;
        }
        let value = rest.next();
        match (flag.as_str(), value) {
            ("--lines", Some(value)) if value.parse::<u64>().is_ok_and(|n| n > 0) => {
                lines = value.parse()?;
            }
            ("--repetitions", Some(value)) if value.parse::<usize>().is_ok_and(|n| n > 0) => {
                repetitions = value.parse()?;
            }
            ("--release", Some(value)) => match value.parse() {
                Ok(parsed) => release = parsed,
                Err(error) => {
                    eprintln!("xtask bench-e2e: {error}\n{USAGE_LINE}");
                    return Ok(ExitCode::from(EXIT_USAGE));
                }
            },
            _ => {
                eprintln!("xtask bench-e2e: bad option `{flag}`\n{USAGE_LINE}");
                return Ok(ExitCode::from(EXIT_USAGE));
            }
        }
    }
    let target_dir = target_dir(root);
    let cache = xtask::real_codex::default_cache(
        std::env::var_os(xtask::real_codex::CACHE_ENV).as_deref(),
        &target_dir,
    );
    let options = xtask::bench_e2e::BenchOptions {
        lines,
        repetitions,
        release,
        target_dir,
        cache,
    };
    let measured = xtask::bench_e2e::run_bench(root, &options)?;
    out(&format!(
        "bench-e2e: {lines} lines, release {}, median of {repetitions} runs\n\n{}",
        release.observed_version(),
        xtask::bench_e2e::render_table(&measured)
    ));
    Ok(match (check, xtask::bench_e2e::all_met(&measured)) {
        (true, false) => {
            eprintln!("bench-e2e: a goal is not met");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to `root` unless absolute), else
/// `root/target`.
fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| match dir.is_absolute() {
            true => dir,
            false => root.join(dir),
        })
        .unwrap_or_else(|| root.join("target"))
}
