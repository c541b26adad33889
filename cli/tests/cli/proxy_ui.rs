//! `codex-context proxy --ui` (ignored unless run with `-- --ignored`): the report page on the
//! proxy's own port, loaded in headless Chromium, shows each request once it ends, without
//! being reloaded by hand. Chromium is driven through its DevTools protocol on loopback.

use std::io::Read as _;
use std::io::Write as _;
use std::net::TcpStream;
use std::process::Child;
use std::process::Stdio;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::proxy_support::ended_exchanges;
use crate::proxy_support::http;
use crate::proxy_support::mock_upstream;
use crate::proxy_support::start_proxy;
use crate::proxy_support::wait_for;
use crate::support::headless_chromium;

/// A request of thread `thread-ui` whose input holds `turns` user messages.
fn request(turns: usize) -> String {
    let input: Vec<Value> = (1..=turns)
        .map(|turn| {
            json!({"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": format!("Step {turn}: run the tests.")}
            ]})
        })
        .collect();
    json!({
        "model": "gpt-5.5",
        "instructions": "You are a careful coding agent.",
        "input": input,
        "stream": true,
        "prompt_cache_key": "thread-ui",
    })
    .to_string()
}

/// Headless Chromium with its DevTools protocol on a loopback port; killed when dropped.
struct Browser {
    child: Child,
    /// The page target's DevTools connection.
    socket: TcpStream,
    next_id: u64,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn open(profile: &std::path::Path, url: &str) -> Self {
        let log = profile.with_extension("log");
        let mut child = headless_chromium()
            .args([
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("chromium log"))
            .spawn()
            .expect("chromium starts");
        let port = wait_for(|| {
            let text = std::fs::read_to_string(&log).ok()?;
            let (_, rest) = text.split_once("DevTools listening on ws://127.0.0.1:")?;
            rest.split('/').next()?.parse::<u16>().ok()
        });
        let Some(port) = port else {
            let _ = child.kill();
            panic!(
                "chromium did not open its DevTools port: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        };
        let devtools = format!("127.0.0.1:{port}");
        let page = wait_for(|| {
            let (_, targets) = http(&devtools, "GET", "/json/list", "");
            let targets: Vec<Value> = serde_json::from_str(&targets).ok()?;
            targets.into_iter().find_map(|target| {
                (target["type"] == "page" && target["url"].as_str()?.contains("/_codex-context/"))
                    .then(|| target["webSocketDebuggerUrl"].as_str().map(str::to_string))?
            })
        })
        .expect("the page target");
        let path = page
            .split_once(&devtools)
            .map(|(_, path)| path.to_string())
            .expect("a loopback DevTools URL");
        let mut socket = TcpStream::connect(&devtools).expect("connect to DevTools");
        socket
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .expect("read timeout");
        let handshake = format!(
            "GET {path} HTTP/1.1\r\nhost: {devtools}\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\
             sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
        );
        socket.write_all(handshake.as_bytes()).expect("handshake");
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0u8; 1];
            socket.read_exact(&mut byte).expect("handshake answer");
            head.push(byte[0]);
        }
        assert!(
            head.starts_with(b"HTTP/1.1 101"),
            "{}",
            String::from_utf8_lossy(&head)
        );
        Self {
            child,
            socket,
            next_id: 1,
        }
    }

    /// The value of `expression` in the page; `None` while the page is between documents.
    fn evaluate(&mut self, expression: &str) -> Option<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"id": id, "method": "Runtime.evaluate",
            "params": {"expression": expression, "returnByValue": true}});
        self.send(&message.to_string());
        loop {
            let answer: Value = serde_json::from_str(&self.receive()).expect("DevTools JSON");
            if answer["id"] == id {
                return answer
                    .pointer("/result/result/value")
                    .filter(|_| answer.pointer("/result/exceptionDetails").is_none())
                    .cloned();
            }
        }
    }

    /// One masked text frame (a client's frames are masked).
    fn send(&mut self, text: &str) {
        let payload = text.as_bytes();
        let mask = [0x37u8, 0xfa, 0x21, 0x3d];
        let mut frame = vec![0x81u8];
        match payload.len() {
            length if length < 126 => frame.push(0x80 | length as u8),
            length if length < 65_536 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(length as u16).to_be_bytes());
            }
            length => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(length as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(
            payload
                .iter()
                .enumerate()
                .map(|(i, byte)| byte ^ mask[i % 4]),
        );
        self.socket.write_all(&frame).expect("send a frame");
    }

    /// The next whole text message (control frames skipped, fragments joined).
    fn receive(&mut self) -> String {
        let mut message = Vec::new();
        loop {
            let mut head = [0u8; 2];
            self.socket.read_exact(&mut head).expect("frame head");
            let length = match head[1] & 0x7f {
                126 => {
                    let mut bytes = [0u8; 2];
                    self.socket.read_exact(&mut bytes).expect("length");
                    u64::from(u16::from_be_bytes(bytes))
                }
                127 => {
                    let mut bytes = [0u8; 8];
                    self.socket.read_exact(&mut bytes).expect("length");
                    u64::from_be_bytes(bytes)
                }
                short => u64::from(short),
            };
            let mut payload = vec![0u8; usize::try_from(length).expect("frame length")];
            self.socket.read_exact(&mut payload).expect("payload");
            let opcode = head[0] & 0x0f;
            if opcode == 0x1 || opcode == 0x0 {
                message.extend_from_slice(&payload);
                if head[0] & 0x80 != 0 {
                    return String::from_utf8(message).expect("UTF-8 message");
                }
            }
        }
    }

    /// Waits until `expression` is `expected` in the page and returns it.
    fn wait_until(&mut self, expression: &str, expected: &Value) -> Value {
        let mut last = None;
        let found = wait_for(|| {
            last = self.evaluate(expression);
            (last.as_ref() == Some(expected)).then(|| expected.clone())
        });
        found.unwrap_or_else(|| panic!("{expression} stayed {last:?}, not {expected}"))
    }
}

#[test]
#[ignore = "needs headless Chromium (chromium on PATH, or CODEX_CHROMIUM)"]
fn the_ui_page_shows_each_request_as_it_arrives() {
    let home = tempfile::tempdir().expect("tempdir");
    let upstream = mock_upstream();
    let proxy = start_proxy(home.path(), &upstream, &["--ui"]);
    let stderr = std::fs::read_to_string(&proxy.stderr).expect("stderr");
    let url = format!("http://{}/_codex-context/", proxy.address);
    assert!(stderr.contains(&format!("report at {url}")), "{stderr}");

    assert_eq!(
        http(&proxy.address, "POST", "/v1/responses", &request(1)).0,
        200
    );
    wait_for(|| (ended_exchanges(&proxy.recording) == 1).then_some(())).expect("recorded");

    let mut browser = Browser::open(&home.path().join("chromium-profile"), &url);
    let headings =
        "Array.from(document.querySelectorAll('section.request h2')).map(h => h.textContent)";
    browser.wait_until(
        headings,
        &json!(["Request 1 · thread-ui #1 · turn 0 step 1 · gpt-5.5 · 15 tokens"]),
    );
    // A marker only this document has: a reload replaces it.
    browser.evaluate("window.codexContextMarker = 1; 1");

    assert_eq!(
        http(&proxy.address, "POST", "/v1/responses", &request(2)).0,
        200
    );
    let shown = browser.wait_until(
        "document.querySelectorAll('section.request').length",
        &json!(2),
    );
    assert_eq!(shown, json!(2));
    let texts = browser.evaluate(headings).expect("headings");
    assert_eq!(
        texts,
        json!([
            "Request 1 · thread-ui #1 · turn 0 step 1 · gpt-5.5 · 15 tokens",
            "Request 2 · thread-ui #2 · turn 0 step 1 · gpt-5.5 · 23 tokens"
        ])
    );
    assert_eq!(
        browser.evaluate("document.getElementById('count').textContent"),
        Some(json!("2 requests"))
    );
    assert_eq!(
        browser.evaluate("typeof window.codexContextMarker"),
        Some(json!("undefined")),
        "the page followed the recording by itself"
    );
    // The page's own paths (and a favicon: the page names an inline one) went nowhere: the
    // mock saw only the two API requests.
    let paths: Vec<String> = upstream
        .requests()
        .iter()
        .map(|request| request.target.clone())
        .collect();
    assert_eq!(paths, vec!["/v1/responses", "/v1/responses"]);
}
