//! Running the binary with a deadline, in a chosen directory and an empty home, so that a
//! hang (a named pipe opened for reading waits for a writer forever) fails the test instead of
//! blocking the suite.

use std::io::Read;
use std::path::Path;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use crate::support::Run;

/// Far above what any command here needs, even on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs the binary with `args` in `dir`, with an empty `HOME` and no `CODEX_HOME`, `RUST_LOG`
/// or API key from this machine; fails the test if it has not ended within [`DEADLINE`].
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    let home = tempfile::tempdir().expect("home");
    let mut child = command(dir, home.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let stdout = drain(&mut child, Stream::Stdout);
    let stderr = drain(&mut child, Stream::Stderr);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`codex-context {}` hung: no exit within {DEADLINE:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code(),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// The binary, to run in `dir` with `home` as its empty home directory.
pub fn command(dir: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-context"));
    command
        .current_dir(dir)
        .env("HOME", home)
        .env_remove("CODEX_HOME")
        .env_remove("RUST_LOG")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL");
    command
}

enum Stream {
    Stdout,
    Stderr,
}

/// Reads one of the child's pipes to its end on a thread of its own.
fn drain(child: &mut Child, stream: Stream) -> std::thread::JoinHandle<String> {
    let mut pipe: Box<dyn Read + Send> = match stream {
        Stream::Stdout => Box::new(child.stdout.take().expect("stdout is piped")),
        Stream::Stderr => Box::new(child.stderr.take().expect("stderr is piped")),
    };
    std::thread::spawn(move || {
        let mut text = String::new();
        pipe.read_to_string(&mut text).expect("UTF-8 output");
        text
    })
}

/// Makes a named pipe at `path`.
pub fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}
