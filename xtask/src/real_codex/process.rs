//! Running a child process with a time limit: standard input closed, output captured, the
//! child in a process group of its own so that everything it started is ended with it.

use std::io::Read;
use std::os::unix::process::CommandExt as _;
use std::process::Command;
use std::process::ExitStatus;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

/// How often a running child is polled.
const POLL: Duration = Duration::from_millis(20);

#[derive(Debug, Clone, Copy)]
pub struct RunLimits {
    pub timeout: Duration,
}

impl RunLimits {
    pub fn new(timeout: Duration) -> Self {
        Self { timeout }
    }
}

/// How a child ended and what it printed.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// `None` when it was killed for running past the limit.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|status| status.success())
    }

    /// `exit 1`, `killed by signal 9`, `timed out`.
    pub fn status_text(&self) -> String {
        match self.status {
            None => "timed out".to_string(),
            Some(status) => match status.code() {
                Some(code) => format!("exit {code}"),
                None => "killed by a signal".to_string(),
            },
        }
    }
}

/// Runs `command` (stdin from `/dev/null`) and waits at most `limits.timeout`; past it the
/// child's whole process group is killed.
pub fn run_with_timeout(command: &mut Command, limits: RunLimits) -> std::io::Result<Outcome> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn()?;
    let pid = child.id();
    let readers = [
        child
            .stdout
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
    ]
    .map(|pipe| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() >= limits.timeout {
            kill_group(pid);
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(POLL);
    };
    // Whatever the child left running in its group goes too, so the pipes close.
    kill_group(pid);
    let [stdout, stderr] = readers.map(|reader| reader.join().unwrap_or_default());
    Ok(Outcome {
        status,
        stdout,
        stderr,
    })
}

/// Sends SIGKILL to process group `pid` (the child's own, see `process_group(0)`).
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
