//! Running the binary and writing input files.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;

use pretty_assertions::assert_eq;

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Variables through which the machine running the tests would reach the binary: where its
/// `~/.codex` is, the shell and time zone it reports, its log filter, provider, key and proxies.
const MACHINE_VARIABLES: &[&str] = &[
    "HOME",
    "USERPROFILE",
    "CODEX_HOME",
    "SHELL",
    "TZ",
    "RUST_LOG",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

/// The binary with nothing of the machine it runs on: none of [`MACHINE_VARIABLES`] is
/// inherited, `HOME` is `home` and `CODEX_HOME` its `.codex` folder (so the user's `~/.codex`
/// is never read), the time zone is UTC, and the tests' loopback servers are reached without a
/// proxy. Tests that need a variable set it on the returned command.
pub fn binary(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-context"));
    for name in MACHINE_VARIABLES {
        command.env_remove(name);
    }
    command
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env("TZ", "Etc/UTC")
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1");
    command
}

/// Runs the binary with `args` in a fresh, empty home (see [`binary`]).
pub fn run(args: &[&str]) -> Run {
    run_with_stdin(args, b"")
}

pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let home = tempfile::tempdir().expect("tempdir");
    let mut command = binary(home.path());
    command.args(args);
    output(&mut command, stdin)
}

/// Runs `command` with `stdin` as its input and collects what it printed.
pub fn output(command: &mut Command, stdin: &[u8]) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    // A command that fails before reading its input closes the pipe early; that is not a test failure.
    match child.stdin.take().expect("stdin is piped").write_all(stdin) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => panic!("stdin accepts input: {error}"),
    }
    let output = child.wait_with_output().expect("binary finishes");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// A successful run that wrote `stdout` and nothing on stderr.
pub fn assert_success(run: &Run, stdout: &str) {
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), stdout, "")
    );
}

/// A failed run: exit code 2, nothing on stdout, exactly one error line on stderr.
pub fn assert_user_error(run: &Run, message: &str) {
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (
            Some(2),
            "",
            format!("codex-context: error: {message}\n").as_str()
        )
    );
}

pub fn write(dir: &Path, relative: &str, contents: &str) -> PathBuf {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().expect("file has a parent")).expect("mkdir");
    std::fs::write(&path, contents).expect("write input file");
    path
}

pub fn arg(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// A catalog entry with the fields a `/models` entry must have.
pub fn catalog_entry(slug: &str, priority: i32, extra: serde_json::Value) -> serde_json::Value {
    let mut entry = serde_json::json!({
        "slug": slug,
        "display_name": slug,
        "supported_reasoning_levels": [],
        "shell_type": "shell_command",
        "visibility": "list",
        "supported_in_api": true,
        "priority": priority,
    });
    if let (Some(entry), serde_json::Value::Object(extra)) = (entry.as_object_mut(), extra) {
        entry.extend(extra);
    }
    entry
}

pub fn write_catalog(dir: &Path, models: Vec<serde_json::Value>) -> PathBuf {
    let document = serde_json::json!({ "models": models });
    write(
        dir,
        "catalog.json",
        &serde_json::to_string_pretty(&document).expect("serializes"),
    )
}

/// The pins that make a request reproducible: seed, date, time zone, shell, and the release
/// (these tests pin the reference commit's release; the 0.171 ones name theirs).
pub const PINS: [&str; 10] = [
    "--codex-version",
    "0.149",
    "--seed",
    "7",
    "--current-date",
    "2026-11-30",
    "--timezone",
    "Etc/UTC",
    "--shell",
    "bash",
];

/// Headless Chromium (`CODEX_CHROMIUM`, else `chromium`) with what the browser tests share: no
/// sandbox, GPU, first-run page or background network traffic of its own.
pub fn headless_chromium() -> std::process::Command {
    let browser = std::env::var("CODEX_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let mut command = std::process::Command::new(browser);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]);
    command
}

/// Every message of a request body's input, one `role: text` block per content entry.
pub fn message_blocks(body: &serde_json::Value) -> Vec<String> {
    body["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| item["type"] == "message")
        .flat_map(|item| {
            let role = item["role"].as_str().unwrap_or_default().to_string();
            item["content"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |content| {
                    format!("{role}: {}", content["text"].as_str().unwrap_or_default())
                })
        })
        .collect()
}
