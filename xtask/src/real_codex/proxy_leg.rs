//! The proxy leg: the newest released CLI → `codex-context proxy` → the loopback mock, on one
//! two-step scenario (`codex exec`, then `codex exec resume --last`). The turn completes; each
//! body the mock received is the recorded body byte for byte, and each answer the mock sent is
//! the recorded response byte for byte (the proxy relays what it records, as its own tests
//! show); both steps land in one thread, whose second request the live view shows as turn 2
//! with its prefix reuse; `inspect` reads the recording; the key appears in no recording, log
//! or output. The proxy runs with `--check --codex-home` on the CLI's own CODEX_HOME and is
//! stopped with SIGTERM: it exits 0 with a verdict line per request and its summary, and no
//! request goes unchecked (differences between the released CLI and this project's rebuild
//! are reported, not failed: the parity table is where they are held to account). `.ci/run`
//! runs it with the rest of `cargo xtask real-codex --check`.

use std::fs::File;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Child;
use std::process::Command;
use std::process::ExitStatus;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use codex_proxy::Recording;
use codex_proxy::read_recording;

use super::mock::MockServer;
use super::process::RunLimits;
use super::process::run_with_timeout;
use super::real_run;
use super::real_run::API_KEY;
use super::scenario;
use super::scenario::Scenario;

/// The scenario the leg plays.
pub const PROXY_SCENARIO: &str = "resume_unchanged";
/// How long the proxy may take to start, the recording to show every exchange ended, and the
/// live view to print them.
const WAIT: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(50);
const INSPECT_TIMEOUT: Duration = Duration::from_secs(120);
/// What the proxy prints on standard error once it listens.
const LISTENING: &str = "listening on http://";

/// The proxy child, killed (SIGKILL) when dropped before it was stopped.
struct ProxyChild(Child);

impl ProxyChild {
    /// Sends SIGTERM and waits (at most [`WAIT`]) for the proxy to exit.
    fn stop(mut self) -> Result<ExitStatus, String> {
        let pid = i32::try_from(self.0.id())
            .map_err(|error| format!("the proxy's pid does not fit: {error}"))?;
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGTERM,
        )
        .map_err(|error| format!("cannot send SIGTERM to the proxy: {error}"))?;
        wait_for(|| self.0.try_wait().ok().flatten())
            .ok_or_else(|| format!("the proxy did not exit within {WAIT:?} of SIGTERM"))
    }
}

/// What the leg found: its problems, and `--check`'s verdict lines and summary on the
/// released CLI's requests.
#[derive(Debug, Default)]
pub struct LegOutcome {
    pub problems: Vec<String>,
    pub check: Vec<String>,
}

impl Drop for ProxyChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs the leg in `run_dir` (cleared first) and returns what went wrong, if anything.
pub fn run_proxy_leg(
    binary: &Path,
    codex_context: &Path,
    scenario: &Scenario,
    run_dir: &Path,
) -> Result<LegOutcome, String> {
    if run_dir.exists() {
        std::fs::remove_dir_all(run_dir)
            .map_err(|error| format!("cannot clear {}: {error}", run_dir.display()))?;
    }
    let cwd = scenario
        .materialize(run_dir)
        .map_err(|error| error.to_string())?;
    super::init_git(&run_dir.join(scenario::REPO_DIR), run_dir)?;
    let mock = MockServer::start(&scenario.replies)
        .map_err(|error| format!("cannot start the mock: {error}"))?;
    let recording_dir = run_dir.join("recording");
    let (stdout_path, stderr_path) = (run_dir.join("proxy.stdout"), run_dir.join("proxy.stderr"));
    let codex_home = run_dir.join(scenario::CODEX_HOME_DIR);
    let create = |path: &Path| {
        File::create(path).map_err(|error| format!("cannot create {}: {error}", path.display()))
    };
    let mut command = Command::new(codex_context);
    real_run::isolated_env(&mut command, run_dir);
    command
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream"])
        .arg(format!("http://127.0.0.1:{}", mock.port()))
        .arg("--out")
        .arg(&recording_dir)
        .arg("--check")
        .arg("--codex-home")
        .arg(&codex_home)
        .stdin(Stdio::null())
        .stdout(create(&stdout_path)?)
        .stderr(create(&stderr_path)?)
        .process_group(0);
    let proxy = ProxyChild(
        command
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", codex_context.display()))?,
    );
    let address = wait_for(|| {
        let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        let (_, rest) = stderr.split_once(LISTENING)?;
        rest.split(',').next().map(str::to_string)
    })
    .ok_or_else(|| {
        format!(
            "the proxy did not start: {}",
            std::fs::read_to_string(&stderr_path).unwrap_or_default()
        )
    })?;
    let config = real_run::config_toml(scenario, &format!("http://{address}/v1"))
        .map_err(|error| format!("cannot write config.toml: {error}"))?;
    let config_path = codex_home.join("config.toml");
    std::fs::write(&config_path, config)
        .map_err(|error| format!("cannot write {}: {error}", config_path.display()))?;
    real_run::run_real(binary, scenario, run_dir, &cwd, &mock)
        .map_err(|failure| format!("through the proxy: {failure}"))?;
    let exchanges = mock.recorded().len();
    // The last exchange is recorded as ended a moment after the client has its last byte.
    let recording = wait_for(|| {
        let recording = read_recording(&recording_dir).ok()?;
        let ended = recording
            .threads
            .iter()
            .flat_map(|thread| &thread.exchanges)
            .filter(|exchange| exchange.outcome.is_some())
            .count();
        (ended == exchanges).then_some(recording)
    });
    // The live view counts tokens before it prints (loading the tokenizer takes seconds in a
    // debug build): its lines come later.
    let is_exchange_line = |line: &&str| !line.starts_with("check");
    wait_for(|| {
        let live = std::fs::read_to_string(&stdout_path).ok()?;
        (live.lines().filter(is_exchange_line).count() >= exchanges).then_some(())
    });
    let Some(recording) = recording else {
        return Ok(LegOutcome {
            problems: vec![format!(
                "the recording in {} does not show the {exchanges} exchanges the mock answered, ended",
                recording_dir.display()
            )],
            check: Vec::new(),
        });
    };
    let stopped = proxy.stop();
    let live = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let mut problems = check_bytes(&mock, &recording);
    match stopped {
        Ok(status) if status.success() => {}
        Ok(status) => problems.push(format!(
            "the proxy exited with {status} after SIGTERM: {}",
            std::fs::read_to_string(&stderr_path).unwrap_or_default()
        )),
        Err(problem) => problems.push(problem),
    }
    let check: Vec<String> = live
        .lines()
        .filter(|line| line.starts_with("check"))
        .map(str::to_string)
        .collect();
    problems.extend(check_problems(&check));
    let responses_lines: Vec<&str> = live
        .lines()
        .filter(is_exchange_line)
        .filter(|line| !line.contains("(not a Responses request)"))
        .collect();
    match responses_lines.get(1) {
        Some(line) if line.contains(" turn 2] ") && line.contains(" | prefix ") => {}
        Some(line) => problems.push(format!(
            "the live view's second request is not turn 2 with its prefix reuse: {line}"
        )),
        None => problems.push(format!(
            "the live view shows fewer than two requests:\n{live}"
        )),
    }
    let mut inspect = Command::new(codex_context);
    real_run::isolated_env(&mut inspect, run_dir);
    inspect.arg("inspect").arg(&recording_dir);
    let inspected = run_with_timeout(&mut inspect, RunLimits::new(INSPECT_TIMEOUT))
        .map_err(|error| format!("cannot run inspect: {error}"))?;
    if !inspected.succeeded() || !inspected.stdout.starts_with("thread ") {
        problems.push(format!(
            "inspect on the recording {}: {}",
            inspected.status_text(),
            inspected.stderr.trim()
        ));
    }
    let mut texts = vec![
        ("the live view".to_string(), live),
        (
            "the proxy's standard error".to_string(),
            std::fs::read_to_string(&stderr_path).unwrap_or_default(),
        ),
        ("inspect's output".to_string(), inspected.stdout),
    ];
    collect_files(run_dir, &mut texts);
    for (name, text) in texts {
        if text.contains(API_KEY) {
            problems.push(format!("the API key appears in {name}"));
        }
    }
    Ok(LegOutcome { problems, check })
}

/// What is wrong with `--check` itself, from its lines: no summary, or a request it could not
/// check. Differences are its findings, not its failures.
fn check_problems(check: &[String]) -> Vec<String> {
    let mut problems: Vec<String> = check
        .iter()
        .filter(|line| line.contains("]: not checked: "))
        .map(|line| format!("--check could not check a request: {line}"))
        .collect();
    if !check.iter().any(|line| line.starts_with("check: ")) {
        problems.push(format!(
            "--check printed no summary when the proxy stopped; its lines: {check:?}"
        ));
    }
    problems
}

/// The `/responses` exchanges the mock saw, against the one recorded thread.
fn check_bytes(mock: &MockServer, recording: &Recording) -> Vec<String> {
    let mut problems = Vec::new();
    let raw: Vec<_> = mock
        .recorded()
        .into_iter()
        .zip(mock.raw_exchanges())
        .filter(|(request, _)| request.is_responses())
        .map(|(_, raw)| raw)
        .collect();
    let threads: Vec<_> = recording
        .threads
        .iter()
        .filter(|thread| {
            thread
                .exchanges
                .iter()
                .any(|e| e.path.ends_with("/responses"))
        })
        .collect();
    let [thread] = threads.as_slice() else {
        problems.push(format!(
            "the /responses requests landed in {} threads, not one",
            threads.len()
        ));
        return problems;
    };
    let recorded: Vec<_> = thread
        .exchanges
        .iter()
        .filter(|exchange| exchange.path.ends_with("/responses"))
        .collect();
    if recorded.len() != raw.len() || raw.len() < 2 {
        problems.push(format!(
            "the mock answered {} /responses requests, the recording holds {}",
            raw.len(),
            recorded.len()
        ));
        return problems;
    }
    for (exchange, raw) in recorded.iter().zip(&raw) {
        let number = exchange.number;
        let request = std::fs::read(thread.dir.join(format!("request-{number:04}.json")));
        if request.ok().as_deref() != Some(&raw.request_body[..]) {
            problems.push(format!(
                "request {number}: the recorded body is not the bytes the mock received"
            ));
        }
        let response = std::fs::read(thread.dir.join(format!("response-{number:04}.sse")));
        if response.ok().as_deref() != Some(&raw.response_body[..]) {
            problems.push(format!(
                "request {number}: the recorded response is not the bytes the mock sent"
            ));
        }
    }
    problems
}

/// Every file under `dir` read as text, named by its path.
fn collect_files(dir: &Path, texts: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, texts);
        } else if let Ok(bytes) = std::fs::read(&path) {
            texts.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
}

/// Polls `probe` until it answers or [`WAIT`] has passed.
fn wait_for<T>(mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let started = Instant::now();
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        if started.elapsed() >= WAIT {
            return None;
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::check_problems;

    #[test]
    fn differences_are_findings_and_an_unchecked_request_or_no_summary_a_problem() {
        let lines = |lines: &[&str]| lines.iter().map(ToString::to_string).collect::<Vec<_>>();
        let differing = lines(&[
            "check [t request 1]: 2 differences, first: request 1: tools differ",
            "check: 1 request in 1 thread: 0 equal, 1 with differences (2 differences), 0 not checked",
        ]);
        assert_eq!(check_problems(&differing), Vec::<String>::new());
        let unchecked = lines(&["check [t request 1]: not checked: no rollout of thread t"]);
        assert_eq!(
            check_problems(&unchecked),
            vec![
                "--check could not check a request: check [t request 1]: not checked: no rollout of thread t".to_string(),
                "--check printed no summary when the proxy stopped; its lines: [\"check [t request 1]: not checked: no rollout of thread t\"]".to_string(),
            ]
        );
    }
}
