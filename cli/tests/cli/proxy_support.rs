//! A `codex-context proxy` child in front of a loopback mock Responses server, and a plain
//! HTTP/1.1 client for the requests the tests send through it.
#![allow(dead_code)]

use std::io::Read as _;
use std::io::Write as _;
use std::net::TcpStream;
use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use crate::send_server::Reply;
use crate::send_server::TestServer;
use crate::send_server::answer_events;
use crate::send_server::sse_body;
use crate::support::binary;

/// How long the proxy may take to start and to record an exchange.
pub const WAIT: Duration = Duration::from_secs(60);

/// The proxy child (killed when dropped), with the files its output goes to.
pub struct ProxyProcess {
    child: Child,
    pub address: String,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    pub recording: PathBuf,
}

/// How a stopped proxy ended.
#[derive(Debug)]
pub struct ProxyExit {
    /// `None` when a signal ended it.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl ProxyProcess {
    /// Sends `signal` to the proxy and waits (at most [`WAIT`]) for it to exit.
    pub fn stop(mut self, signal: nix::sys::signal::Signal) -> ProxyExit {
        let pid = nix::unistd::Pid::from_raw(
            i32::try_from(self.child.id()).expect("the proxy's pid fits a pid_t"),
        );
        nix::sys::signal::kill(pid, signal).expect("signal the proxy");
        let status = wait_for(|| self.child.try_wait().expect("the proxy's status"))
            .unwrap_or_else(|| panic!("the proxy did not exit within {WAIT:?} of {signal}"));
        ProxyExit {
            code: status.code(),
            stdout: std::fs::read_to_string(&self.stdout).unwrap_or_default(),
            stderr: std::fs::read_to_string(&self.stderr).unwrap_or_default(),
        }
    }
}

impl Drop for ProxyProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A mock upstream answering every request with a short completed stream.
pub fn mock_upstream() -> TestServer {
    TestServer::start(|_, _| Reply::EventStream(sse_body(&answer_events(&["Done."]))))
}

/// Starts `codex-context proxy` in `home` (see `support::binary`) in front of `upstream`,
/// recording into `home/recording`, with `extra` arguments; waits until it listens.
pub fn start_proxy(home: &Path, upstream: &TestServer, extra: &[&str]) -> ProxyProcess {
    let recording = home.join("recording");
    let stdout = home.join("proxy.stdout");
    let stderr = home.join("proxy.stderr");
    let upstream_url = upstream.base_url();
    let upstream_url = upstream_url.trim_end_matches("/v1");
    let child = binary(home)
        .args([
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream_url,
        ])
        .arg("--out")
        .arg(&recording)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).expect("stdout file"))
        .stderr(std::fs::File::create(&stderr).expect("stderr file"))
        .spawn()
        .expect("the proxy starts");
    let mut process = ProxyProcess {
        child,
        address: String::new(),
        stdout,
        stderr,
        recording,
    };
    process.address = wait_for(|| {
        let text = std::fs::read_to_string(&process.stderr).ok()?;
        let (_, rest) = text.split_once("listening on http://")?;
        rest.split(',').next().map(str::to_string)
    })
    .unwrap_or_else(|| {
        panic!(
            "the proxy did not start: {}",
            std::fs::read_to_string(&process.stderr).unwrap_or_default()
        )
    });
    process
}

/// Polls `probe` every 50 ms until it answers or [`WAIT`] has passed.
pub fn wait_for<T>(mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let started = Instant::now();
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        if started.elapsed() >= WAIT {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends one HTTP/1.1 request to `address` and returns the status and the body as text.
pub fn http(address: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect to the proxy");
    stream.set_read_timeout(Some(WAIT)).expect("read timeout");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\n\
         authorization: Bearer sk-test-not-a-key\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send head");
    stream.write_all(body.as_bytes()).expect("send body");
    // Some servers (Chromium's DevTools) keep the connection open: read the head, then as
    // many bytes as it announces, else up to the close.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).expect("answer head");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("status line");
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            stream.read_exact(&mut body).expect("answer body");
        }
        None => {
            stream.read_to_end(&mut body).expect("answer body");
        }
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The number of exchanges the recording shows as ended.
pub fn ended_exchanges(recording: &Path) -> usize {
    let Ok(threads) = std::fs::read_dir(recording) else {
        return 0;
    };
    threads
        .filter_map(Result::ok)
        .filter_map(|thread| std::fs::read_to_string(thread.path().join("exchanges.jsonl")).ok())
        .map(|text| text.matches("\"event\":\"end\"").count())
        .sum()
}
