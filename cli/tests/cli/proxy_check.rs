//! `codex-context proxy --check`: a session this project sends through the proxy is checked
//! against its own rollout (equal) once the rollout holds it, and a request the rollout never
//! holds is judged when the proxy is stopped (SIGINT), as a difference, with a summary.

use nix::sys::signal::Signal;
use pretty_assertions::assert_eq;

use crate::proxy_support::http;
use crate::proxy_support::mock_upstream;
use crate::proxy_support::start_proxy;
use crate::proxy_support::wait_for;
use crate::support::arg;
use crate::support::binary;
use crate::support::output;

#[test]
fn each_recorded_request_gets_a_verdict_against_the_rollout() {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(home.path().join("project/.git")).expect("project");
    let codex_home = home.path().join("codex-home");
    std::fs::create_dir_all(&codex_home).expect("codex home");
    let rollout = home.path().join("rollout.jsonl");
    let upstream = mock_upstream();
    let proxy = start_proxy(
        home.path(),
        &upstream,
        &[
            "--check",
            "--codex-home",
            arg(&codex_home),
            "--rollout",
            arg(&rollout),
        ],
    );
    let base_url = format!("http://{}/v1", proxy.address);
    let mut send = binary(home.path());
    send.env("OPENAI_API_KEY", "sk-test-not-a-key").args([
        "send",
        "--codex-home",
        arg(&codex_home),
        "--cwd",
        arg(&home.path().join("project")),
        "--seed",
        "7",
        "--current-date",
        "2026-11-30",
        "--timezone",
        "Etc/UTC",
        "--shell",
        "bash",
        "--base-url",
        &base_url,
        "--message",
        "hi",
        "--rollout",
        arg(&rollout),
    ]);
    let sent = output(&mut send, b"");
    assert_eq!(sent.code, Some(0), "{}", sent.stderr);
    let verdicts = |count: usize| {
        wait_for(|| {
            let text = std::fs::read_to_string(&proxy.stdout).ok()?;
            let lines: Vec<String> = text
                .lines()
                .filter(|line| line.starts_with("check ["))
                .map(str::to_string)
                .collect();
            (lines.len() >= count).then_some(lines)
        })
        .expect("verdict lines")
    };
    let first = verdicts(1);
    let thread = std::fs::read_dir(&proxy.recording)
        .expect("recording")
        .filter_map(Result::ok)
        .find(|entry| entry.path().is_dir())
        .expect("a thread folder")
        .path();
    let key = thread
        .file_name()
        .and_then(|n| n.to_str())
        .expect("key")
        .to_string();
    // The agent "sends" a second request the rollout never records: its own first request
    // with the user's words changed.
    let body = std::fs::read_to_string(thread.join("request-0001.json")).expect("request 1");
    let second = body.replace("\"hi\"", "\"hello again\"");
    assert_ne!(second, body);
    assert_eq!(
        http(&proxy.address, "POST", "/v1/responses", &second).0,
        200
    );
    // Its exchange has ended and the live view has printed it, yet no verdict comes for it
    // while the proxy runs: the rollout may still record it.
    let live = wait_for(|| {
        let text = std::fs::read_to_string(&proxy.stdout).ok()?;
        text.contains(&format!("[{key} #2")).then_some(text)
    })
    .expect("the live line of request 2");
    assert_eq!(
        live.lines()
            .filter(|line| line.starts_with("check ["))
            .count(),
        1,
        "{live}"
    );
    let recording = proxy.recording.clone();
    let exit = proxy.stop(Signal::SIGINT);
    assert_eq!(exit.code, Some(0), "{}", exit.stderr);
    assert!(
        exit.stderr
            .contains("codex-context proxy: SIGINT: stopping\n"),
        "{}",
        exit.stderr
    );
    let lines: Vec<&str> = exit
        .stdout
        .lines()
        .filter(|line| line.starts_with("check"))
        .collect();
    assert_eq!(lines[0], first[0]);
    let text = lines.join("\n").replace(&key, "THREAD");
    insta::assert_snapshot!(text);
    let report = std::fs::read_to_string(recording.join("check.txt")).expect("check.txt");
    insta::assert_snapshot!("check_report", report.replace(&key, "THREAD"));
}
