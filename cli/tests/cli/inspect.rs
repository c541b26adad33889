//! `codex-context inspect`: the three formats on the legacy upstream-style fixture, `--out`,
//! errors, and (ignored unless run with `-- --ignored`) the HTML page rendered by headless
//! Chromium.

use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::arg;
use crate::support::assert_success;
use crate::support::assert_user_error;
use crate::support::headless_chromium;
use crate::support::run;

/// How long Chromium may take for one page.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);

/// A 1200×900 screenshot of the report is far larger than one of an empty page (a few KiB).
const MIN_SCREENSHOT_BYTES: u64 = 20 * 1024;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../inspect/tests/fixtures/inspect/legacy_upstream.jsonl")
}

fn json_report() -> Value {
    let fixture = fixture();
    let run = run(&["inspect", arg(&fixture), "--format", "json"]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    serde_json::from_str(&run.stdout).expect("JSON report")
}

#[test]
fn text_report_lists_every_request_and_the_timeline() {
    let fixture = fixture();
    let run = run(&["inspect", arg(&fixture)]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let headers: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.starts_with("request ") && line.contains(": turn "))
        .map(|line| line.split(',').next().unwrap_or_default())
        .collect();
    assert_eq!(
        headers,
        vec![
            "request 1: turn 1 step 1",
            "request 2: turn 1 step 2",
            "request 3: turn 2 step 1",
            "request 4 (compaction): turn 3 step 1",
            "request 5: turn 4 step 1",
            "request 6: turn 4 step 2",
            "request 7: turn 5 step 1",
        ]
    );
    assert!(run.stdout.contains("\nworld-state timeline\n"));
}

#[test]
fn json_report_has_one_entry_per_request() {
    let report = json_report();
    let requests = report["requests"].as_array().expect("requests");
    let kinds: Vec<&str> = requests
        .iter()
        .map(|request| request["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(
        kinds,
        vec!["turn", "turn", "turn", "compaction", "turn", "turn", "turn"]
    );
}

#[test]
fn out_writes_the_report_to_a_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("report.json");
    let fixture = fixture();
    assert_success(
        &run(&[
            "inspect",
            arg(&fixture),
            "--format",
            "json",
            "--out",
            arg(&out),
        ]),
        "",
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("report file")).expect("JSON");
    assert_eq!(written, json_report());
}

#[test]
fn a_missing_rollout_is_one_error_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.jsonl");
    let missing = arg(&missing);
    assert_user_error(
        &run(&["inspect", missing]),
        &format!(
            "cannot inspect {missing}: cannot read rollout {missing}: No such file or directory \
             (os error 2)"
        ),
    );
}

/// Runs Chromium with `flags` on `page`, killing it after [`BROWSER_TIMEOUT`]; returns stdout.
fn chromium(profile: &Path, page: &Path, flags: &[String]) -> String {
    let mut child = headless_chromium()
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(flags)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("chromium status").is_some() {
            break;
        }
        if started.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            panic!("chromium did not finish within {BROWSER_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = child.wait_with_output().expect("chromium output");
    assert!(
        output.status.success(),
        "chromium failed: {:?}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
#[ignore = "needs headless Chromium (chromium on PATH, or CODEX_CHROMIUM)"]
fn html_report_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("report.html");
    let fixture = fixture();
    assert_success(
        &run(&[
            "inspect",
            arg(&fixture),
            "--format",
            "html",
            "--out",
            arg(&page),
        ]),
        "",
    );

    let screenshot = dir.path().join("report.png");
    chromium(
        &dir.path().join("profile-screenshot"),
        &page,
        &[
            format!("--screenshot={}", screenshot.display()),
            "--window-size=1200,900".to_string(),
        ],
    );
    let bytes = std::fs::metadata(&screenshot)
        .expect("screenshot written")
        .len();
    assert!(
        bytes >= MIN_SCREENSHOT_BYTES,
        "screenshot is only {bytes} bytes"
    );
    if let Ok(keep) = std::env::var("CODEX_KEEP_SCREENSHOT") {
        std::fs::copy(&screenshot, keep).expect("keep screenshot");
    }

    // The DOM as the browser built it (after the page's script ran): the embedded data equals
    // the JSON report, and the script read it.
    let dom = chromium(
        &dir.path().join("profile-dom"),
        &page,
        &["--dump-dom".to_string()],
    );
    let start_tag = "<script type=\"application/json\" id=\"data\">";
    let start = dom.find(start_tag).expect("data script in the DOM") + start_tag.len();
    let end = start + dom[start..].find("</script>").expect("end of data script");
    let embedded: Value = serde_json::from_str(&dom[start..end]).expect("embedded JSON");
    assert_eq!(embedded, json_report());
    assert!(dom.contains("<span id=\"count\">7 requests</span>"));
}
