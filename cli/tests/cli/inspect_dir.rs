//! `codex-context inspect DIR`: many rollouts at once, per session and in total; ndjson rows;
//! damaged files skipped with a warning; output independent of thread scheduling; and
//! (ignored unless the `duckdb` Python package is installed) the README's DuckDB query.

use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::binary;
use crate::support::output;
use crate::support::run;

/// The example rollouts the folders are built from, with the session id each records.
const EXAMPLES: [(&str, &str); 3] = [
    (
        "../inspect/tests/fixtures/inspect/legacy_upstream.jsonl",
        "5973b6c0-94b8-487b-a530-2aeb6098ae0e",
    ),
    (
        "tests/fixtures/real_codex/0.149.1_gpt_5_5_read_only.jsonl",
        "01a23399-b56b-7622-b7f7-0251c33072f2",
    ),
    (
        "tests/fixtures/real_codex/0.149.1_reasoning_effort_high.jsonl",
        "01a23399-af21-7692-8e74-60467ff81598",
    ),
];

/// What the damaged file holds: no JSON at all.
const DAMAGED: &str = "this is not a rollout\n";

/// The README's query (`README.md`, "Seeing what the model sees").
const README_QUERY: &str = "select model, count(*) as requests, sum(tokens_total) as tokens, \
    round(100.0 * sum(prefix_tokens) / sum(tokens_total), 1) as reuse_percent \
    from read_json_auto('rows.ndjson') group by model order by model";

/// Writes `count` rollouts under `dir` in upstream's `YYYY/MM/DD/rollout-*.jsonl` layout, each
/// a copy of one of [`EXAMPLES`] under a session id of its own; the one at `damaged` (if any)
/// holds [`DAMAGED`] instead. Returns the relative path of each file, in order.
fn write_sessions(dir: &Path, count: usize, damaged: Option<usize>) -> Vec<String> {
    let examples: Vec<(String, &str)> = EXAMPLES
        .iter()
        .map(|(path, id)| {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let text = std::fs::read_to_string(&path).expect("example rollout");
            assert!(text.contains(id), "{} records {id}", path.display());
            (text, *id)
        })
        .collect();
    (0..count)
        .map(|index| {
            let id = format!("{index:08x}-0000-4000-8000-{:012x}", index * 7919);
            let relative = format!(
                "2026/{:02}/{:02}/rollout-2026-01-01T00-00-00-{id}.jsonl",
                index % 12 + 1,
                index % 28 + 1
            );
            let (text, example_id) = &examples[index % examples.len()];
            let contents = match damaged {
                Some(position) if position == index => DAMAGED.to_string(),
                Some(_) | None => text.replace(example_id, &id),
            };
            crate::support::write(dir, &relative, &contents);
            relative
        })
        .collect()
}

fn inspect_dir(dir: &Path, format: &str, threads: &str) -> Run {
    let home = tempfile::tempdir().expect("tempdir");
    let mut command: Command = binary(home.path());
    command
        .args(["inspect", arg(dir), "--format", format])
        .env("RAYON_NUM_THREADS", threads);
    output(&mut command, b"")
}

fn skipped_warning(relative: &str) -> String {
    format!(
        "codex-context: warning: {relative} is skipped: not a rollout: no JSON line in its 1 lines\n"
    )
}

fn sum(sessions: &[Value], key: &str) -> u64 {
    sessions
        .iter()
        .map(|session| session[key].as_u64().expect("a count"))
        .sum()
}

#[test]
fn a_thousand_rollouts_with_one_damaged_file_are_summed_per_session_and_in_total() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = write_sessions(dir.path(), 1000, Some(500));

    let run = inspect_dir(dir.path(), "json", "4");
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), skipped_warning(&files[500]).as_str())
    );
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON report");
    let sessions = report["sessions"].as_array().expect("sessions");
    let mut expected_order = files.clone();
    expected_order.remove(500);
    expected_order.sort();
    let order: Vec<&str> = sessions
        .iter()
        .map(|session| session["rollout"].as_str().expect("rollout"))
        .collect();
    assert_eq!(order, expected_order);
    assert_eq!(
        report["skipped"],
        serde_json::json!([{
            "rollout": files[500],
            "reason": "not a rollout: no JSON line in its 1 lines",
        }])
    );

    // The totals are the sums of the per-session figures.
    let totals = &report["totals"];
    let mut tokens = serde_json::Map::new();
    for source in totals["tokens"].as_object().expect("tokens").keys() {
        let total: u64 = sessions
            .iter()
            .map(|session| session["tokens"][source].as_u64().expect("tokens"))
            .sum();
        tokens.insert(source.clone(), total.into());
    }
    let mut breaks = serde_json::Map::new();
    for reason in totals["breaks"].as_object().expect("breaks").keys() {
        let total: u64 = sessions
            .iter()
            .map(|session| session["breaks"][reason].as_u64().expect("breaks"))
            .sum();
        breaks.insert(reason.clone(), total.into());
    }
    let summed = serde_json::json!({
        "sessions": 999,
        "skipped": 1,
        "requests": sum(sessions, "requests"),
        "compaction_requests": sum(sessions, "compaction_requests"),
        "compactions": sum(sessions, "compactions"),
        "tokens": tokens,
        "total_tokens": sum(sessions, "total_tokens"),
        "prefix_tokens": sum(sessions, "prefix_tokens"),
        "breaks": breaks,
        "requests_over_window": sum(sessions, "requests_over_window"),
    });
    let reported: serde_json::Map<String, Value> = summed
        .as_object()
        .expect("an object")
        .keys()
        .map(|key| (key.clone(), totals[key].clone()))
        .collect();
    assert_eq!(Value::Object(reported), summed);
    // 334 copies of the legacy rollout (7 requests), 333 and 332 of the real ones (1 request;
    // the damaged file took the place of the last one's 333rd).
    assert_eq!(totals["requests"], 334 * 7 + 333 + 332);

    // The rows of the same folder add up to the same totals.
    let rows = inspect_dir(dir.path(), "ndjson", "4");
    assert_eq!(
        (rows.code, rows.stderr.as_str()),
        (Some(1), skipped_warning(&files[500]).as_str())
    );
    let rows: Vec<Value> = rows
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON row per line"))
        .collect();
    let row_tokens: u64 = rows
        .iter()
        .map(|row| row["tokens_total"].as_u64().expect("tokens_total"))
        .sum();
    assert_eq!(
        (rows.len() as u64, row_tokens),
        (sum(sessions, "requests"), sum(sessions, "total_tokens"))
    );
}

/// Three sessions and a damaged file.
fn small_folder() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = write_sessions(dir.path(), 4, Some(3));
    (dir, files)
}

#[test]
fn the_text_report_of_a_small_folder() {
    let (dir, files) = small_folder();
    let run = inspect_dir(dir.path(), "text", "2");
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), skipped_warning(&files[3]).as_str())
    );
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn the_ndjson_rows_of_a_small_folder() {
    let (dir, files) = small_folder();
    let run = inspect_dir(dir.path(), "ndjson", "2");
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), skipped_warning(&files[3]).as_str())
    );
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn output_does_not_depend_on_the_threads() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_sessions(dir.path(), 24, Some(5));
    for format in ["text", "json", "ndjson"] {
        let one = inspect_dir(dir.path(), format, "1");
        let many = inspect_dir(dir.path(), format, "8");
        let again = inspect_dir(dir.path(), format, "8");
        assert_eq!(one.code, Some(1));
        assert!(one.stdout.len() > 1000, "{format}: {}", one.stdout);
        assert_eq!(
            (&many.stdout, &many.stderr),
            (&one.stdout, &one.stderr),
            "{format}"
        );
        assert_eq!(
            (&again.stdout, &again.stderr),
            (&one.stdout, &one.stderr),
            "{format}"
        );
    }
}

#[test]
fn ndjson_of_one_rollout_gives_the_rows_the_folder_gives() {
    let (dir, files) = small_folder();
    let folder = inspect_dir(dir.path(), "ndjson", "2");
    let file = dir.path().join(&files[0]);
    let single = run(&["inspect", arg(&file), "--format", "ndjson"]);
    assert_eq!((single.code, single.stderr.as_str()), (Some(0), ""));
    let expected: String = folder
        .stdout
        .lines()
        .filter(|line| line.contains(&files[0]))
        .map(|line| line.replace(&files[0], arg(&file)) + "\n")
        .collect();
    assert_eq!(single.stdout, expected);
}

#[test]
fn a_folder_without_rollouts_or_as_html_is_a_user_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::support::write(dir.path(), "notes/history.jsonl", "{}\n");
    assert_user_error(
        &run(&["inspect", arg(dir.path())]),
        &format!(
            "{}: no rollout-*.jsonl file in this folder or below it",
            dir.path().display()
        ),
    );
    write_sessions(dir.path(), 1, None);
    assert_user_error(
        &run(&["inspect", arg(dir.path()), "--format", "html"]),
        &format!(
            "--format html shows one rollout and {} is a folder: use text, json or ndjson",
            dir.path().display()
        ),
    );
}

#[test]
fn a_clean_folder_exits_0() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_sessions(dir.path(), 3, None);
    let run = inspect_dir(dir.path(), "text", "2");
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    assert!(
        run.stdout
            .contains("totals: 3 sessions, 0 skipped, 0 with warnings\n")
    );
}

#[test]
#[ignore = "needs the duckdb Python package"]
fn the_readme_duckdb_query_loads_the_rows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    assert!(
        readme.contains(README_QUERY),
        "README.md shows the query {README_QUERY}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let sessions = dir.path().join("sessions");
    write_sessions(&sessions, 30, Some(7));
    let rows = inspect_dir(&sessions, "ndjson", "2");
    assert_eq!(rows.code, Some(1));
    std::fs::write(dir.path().join("rows.ndjson"), &rows.stdout).expect("write rows");
    let script = format!(
        "import duckdb\nfor row in duckdb.sql(\"{README_QUERY}\").fetchall():\n    print(*row, sep='\\t')\n"
    );
    let python = Command::new("python3")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    assert_eq!(
        (
            python.status.code(),
            String::from_utf8_lossy(&python.stderr).as_ref()
        ),
        (Some(0), "")
    );
    // Ten copies of the legacy rollout (7 requests of gpt-5.2 each) and nineteen of the real
    // ones (1 request of gpt-5.5 each; the damaged file took the place of the twentieth).
    let expected = concat!("gpt-5.2\t70\t142880\t64.1\n", "gpt-5.5\t19\t44897\t0.0\n",);
    assert_eq!(String::from_utf8_lossy(&python.stdout), expected);
}
