//! `send` and `models --refresh` against local servers that accept the connection and then
//! stall: the run ends within the configured bound, and its message says what was waited for
//! and for how long.

use std::io::Write;
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use pretty_assertions::assert_eq;

use crate::send_server::read_request;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;

const SECRET_KEY: &str = "sk-test-SECRET-timeouts-0123456789";

/// Accepts every connection, reads its request and holds it open for a minute, answering with
/// `head` (if any) and nothing more. Returns the base URL.
fn stalling_server(head: Option<&'static str>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    let address = listener.local_addr().expect("local address");
    std::thread::spawn(move || {
        for socket in listener.incoming() {
            let Ok(mut socket) = socket else { continue };
            std::thread::spawn(move || {
                read_request(&socket);
                if let Some(head) = head {
                    let _ = socket.write_all(head.as_bytes());
                    let _ = socket.flush();
                }
                std::thread::sleep(Duration::from_secs(60));
            });
        }
    });
    format!("http://{address}/v1")
}

/// A CODEX_HOME whose config.toml gives the provider `network` settings (TOML `key = value`
/// lines of the `[model_provider]` table).
fn home_with_provider_settings(network: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        home.path().join("config.toml"),
        format!("[model_provider]\nid = \"local\"\n{network}\n"),
    )
    .expect("write config.toml");
    home
}

/// Runs the binary with only this test's key and home; it must end within 20 s (every wait
/// configured is a fraction of a second).
fn run_timed(home: &Path, args: &[&str]) -> Run {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_codex-context"))
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("OPENAI_BASE_URL")
        .env("OPENAI_API_KEY", SECRET_KEY)
        .env("CODEX_HOME", home)
        // The local server is reached directly even where a proxy is configured.
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1")
        .output()
        .expect("binary runs");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

fn send(home: &Path, base_url: &str) -> Run {
    let project = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(project.path().join(".git")).expect("mkdir .git");
    run_timed(
        home,
        &[
            "send",
            "--codex-home",
            arg(home),
            "--cwd",
            arg(project.path()),
            "--base-url",
            base_url,
            "--message",
            "hi",
        ],
    )
}

#[test]
fn send_names_the_wait_that_ran_out() {
    let home = home_with_provider_settings(
        "request_max_retries = 0\nstream_max_retries = 0\nfirst_byte_timeout_ms = 300",
    );
    let never_answers = stalling_server(None);
    assert_user_error(
        &send(home.path(), &never_answers),
        &format!("no response headers from {never_answers}/responses within 0.3 s"),
    );
    let only_headers = stalling_server(Some(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n",
    ));
    assert_user_error(
        &send(home.path(), &only_headers),
        &format!("{only_headers}/responses sent response headers but no body within 0.3 s"),
    );
}

/// `models --refresh` against `base_url`: exit 0 on the bundled catalog, and the warning line
/// about the failed fetch.
fn refresh_failure(home: &Path, base_url: &str) -> String {
    let run = run_timed(
        home,
        &[
            "models",
            "--json",
            "--codex-home",
            arg(home),
            "--refresh",
            "--base-url",
            base_url,
        ],
    );
    let warnings: Vec<&str> = run.stderr.lines().collect();
    assert_eq!((run.code, warnings.len()), (Some(0), 2), "{}", run.stderr);
    let (_, failure) = warnings[0]
        .split_once("models refresh failed: ")
        .unwrap_or_else(|| panic!("no refresh failure in {}", run.stderr));
    failure.to_string()
}

#[test]
fn models_refresh_names_the_wait_that_ran_out() {
    let home = home_with_provider_settings("models_timeout_ms = 300");
    let never_answers = stalling_server(None);
    let stalls = stalling_server(Some(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n\
         {\"models\": [",
    ));
    assert_eq!(
        [
            refresh_failure(home.path(), &never_answers),
            refresh_failure(home.path(), &stalls),
        ],
        [
            format!("no response headers from {never_answers}/models within 0.3 s"),
            format!(
                "{stalls}/models stopped sending after 12 bytes of the body: no data for 0.3 s"
            ),
        ]
    );
}
