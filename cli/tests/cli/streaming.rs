//! `session run` prints each request as soon as it is built: a run that fails at a later turn,
//! or is killed while the model has not answered, has already printed the requests before.

use std::io::BufRead;
use std::io::BufReader;
use std::net::TcpListener;
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use pretty_assertions::assert_eq;

use crate::bounded::command;
use crate::bounded::run_in;
use crate::support::arg;
use crate::support::write;

const SESSION: &str = r#""session": {"current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 1}"#;
const FIRST_TURN: &str = r#"{"user": "one", "assistant": "1"}"#;

fn script(dir: &Path, name: &str, turns: &[&str]) -> std::path::PathBuf {
    write(
        dir,
        name,
        &format!(r#"{{{SESSION}, "turns": [{}]}}"#, turns.join(", ")),
    )
}

#[test]
fn a_failing_turn_follows_the_requests_printed_before_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first_only = script(dir.path(), "first.json", &[FIRST_TURN]);
    // Turn 1's configuration fails to load, after turn 0 has run.
    let failing = script(
        dir.path(),
        "failing.json",
        &[
            FIRST_TURN,
            r#"{"user": "two", "set": {"model_instructions_file": "missing.md"}}"#,
        ],
    );
    for format in ["jsonl", "layout"] {
        let expected = run_in(
            dir.path(),
            &["session", "run", arg(&first_only), "--format", format],
        );
        assert_eq!((expected.code, expected.stderr.as_str()), (Some(0), ""));
        let failed = run_in(
            dir.path(),
            &["session", "run", arg(&failing), "--format", format],
        );
        assert_eq!(
            (failed.code, failed.stdout, failed.stderr),
            (
                Some(2),
                expected.stdout,
                format!(
                    "codex-context: error: {}: turns[1]: cannot read model_instructions_file \
                     file {}: No such file or directory (os error 2)\n",
                    failing.display(),
                    dir.path().join("missing.md").display()
                )
            ),
            "--format {format}"
        );
    }
}

/// With `--live`, the request is on stdout before the endpoint is asked: here the endpoint
/// accepts the connection and never answers, and the process is killed once the line is read.
#[test]
fn a_live_request_is_printed_before_the_endpoint_answers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scripted = script(dir.path(), "scripted.json", &[FIRST_TURN]);
    let expected = run_in(dir.path(), &["session", "run", arg(&scripted)]);
    assert_eq!((expected.code, expected.stderr.as_str()), (Some(0), ""));
    let live = script(dir.path(), "live.json", &[r#"{"user": "one"}"#]);

    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base_url = format!("http://{}/v1", listener.local_addr().expect("address"));
    // Connections are accepted and held open, never answered.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let home = tempfile::tempdir().expect("home");
    let mut child = command(dir.path(), home.path())
        .args([
            "session",
            "run",
            arg(&live),
            "--live",
            "--base-url",
            &base_url,
            "--api-key-env",
            "STREAMING_TEST_KEY",
        ])
        .env("STREAMING_TEST_KEY", "test-key")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let read = BufReader::new(stdout).read_line(&mut line).map(|_| line);
        let _ = sender.send(read);
    });
    let first_line = receiver.recv_timeout(Duration::from_secs(60));
    let still_running = child.try_wait().expect("wait").is_none();
    let _ = child.kill();
    let _ = child.wait();
    let first_line = first_line
        .expect("a request line within the deadline")
        .expect("stdout readable");
    assert!(
        still_running,
        "the endpoint never answered, so the run cannot have ended"
    );
    assert_eq!(first_line, expected.stdout);
}
