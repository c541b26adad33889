//! `codex-context proxy`: what it refuses before listening. The pass-through itself is tested
//! in `codex-proxy` and end to end with the released CLI in `cargo xtask real-codex`.

use pretty_assertions::assert_eq;

use crate::support::run;

#[test]
fn a_non_loopback_listen_address_or_a_bad_upstream_is_refused_in_one_line() {
    let out = tempfile::tempdir().expect("tempdir");
    let out = out.path().to_str().expect("utf-8 path");
    let remote = run(&[
        "proxy",
        "--listen",
        "0.0.0.0:0",
        "--upstream",
        "http://127.0.0.1:9",
        "--out",
        out,
    ]);
    assert_eq!(
        (remote.code, remote.stdout.as_str(), remote.stderr.as_str()),
        (
            Some(2),
            "",
            "codex-context: error: --listen 0.0.0.0:0 is not a loopback address: anyone who can reach it could use your API key; pass --allow-remote to listen there anyway\n"
        )
    );
    let upstream = run(&["proxy", "--upstream", "api.openai.com", "--out", out]);
    assert_eq!(
        (upstream.code, upstream.stderr.as_str()),
        (
            Some(2),
            "codex-context: error: --upstream \"api.openai.com\" is not an http:// or https:// URL\n"
        )
    );
}

#[test]
fn inspect_reads_a_recording_folder_as_text_json_or_html() {
    let dir = tempfile::tempdir().expect("tempdir");
    let thread = dir.path().join("thread-a");
    std::fs::create_dir(&thread).expect("thread folder");
    std::fs::write(
        thread.join("request-0001.json"),
        r#"{"model":"gpt-5.5","instructions":"Be brief.","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}],"stream":true,"prompt_cache_key":"thread-a"}"#,
    )
    .expect("request");
    std::fs::write(
        thread.join("exchanges.jsonl"),
        concat!(
            r#"{"event":"request","number":1,"thread":"thread-a","received_at_ms":0,"method":"POST","path":"/v1/responses","headers":[["authorization","<redacted>"]],"body_file":"request-0001.json","wire_file":null,"body_bytes":180}"#,
            "\n",
            r#"{"event":"response","number":1,"status":200,"headers":[],"body_file":"response-0001.sse","first_byte_ms":3}"#,
            "\n",
            r#"{"event":"end","number":1,"outcome":"completed","reason":null,"total_ms":9,"response_bytes":10,"usage":{"input_tokens":20,"input_tokens_details":{"cached_tokens":0},"output_tokens":2},"response_id":"r"}"#,
            "\n",
        ),
    )
    .expect("exchanges");
    let path = dir.path().to_str().expect("utf-8 path");
    let text = run(&["inspect", path]);
    assert_eq!(
        (text.code, text.stderr.as_str()),
        (Some(0), ""),
        "{}",
        text.stdout
    );
    assert_eq!(
        text.stdout,
        format!(
            "thread thread-a ({path}/thread-a): 1 requests, 0 failed\n\
             [thread-a #1] gpt-5.5 -> 200 in 9 ms | 4 tokens (base instructions 3, new input 1) | first request of the thread | server: 20 input, 0 cached, 2 output\n"
        )
    );
    let json = run(&["inspect", path, "--format", "json"]);
    assert_eq!((json.code, json.stderr.as_str()), (Some(0), ""));
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON report");
    assert_eq!(
        (
            &report["recording"],
            &report["requests"][0]["exchange"],
            &report["requests"][0]["total_tokens"],
            &report["requests"][0]["tools"]["origin"],
        ),
        (
            &serde_json::json!({"folder": path, "threads": 1, "exchanges": 1, "failed": 0}),
            &serde_json::json!({"thread": "thread-a", "number": 1, "status": 200, "total_ms": 9,
                "input_tokens": 20, "cached_tokens": 0, "output_tokens": 2, "failure": null}),
            &serde_json::json!(4),
            &serde_json::json!("recorded"),
        )
    );
    let html = run(&["inspect", path, "--format", "html"]);
    assert_eq!((html.code, html.stderr.as_str()), (Some(0), ""));
    assert!(
        html.stdout.contains(
            "<h2>Request 1 &middot; thread-a #1 &middot; turn 0 step 1 &middot; gpt-5.5 &middot; 4 tokens</h2>"
        ) && html
            .stdout
            .contains("<p class=\"meta\">answered 200 in 9 ms; server: 20 input, 0 cached, 2 output;"),
        "{}",
        html.stdout
    );
    let ndjson = run(&["inspect", path, "--format", "ndjson"]);
    assert_eq!(
        (ndjson.code, ndjson.stderr),
        (
            Some(2),
            format!(
                "codex-context: error: {path}: a proxy recording is reported as text, json or html (not ndjson)\n"
            )
        )
    );
}

#[test]
fn sigterm_stops_the_proxy_cleanly_with_exit_code_zero() {
    let home = tempfile::tempdir().expect("tempdir");
    let upstream = crate::proxy_support::mock_upstream();
    let proxy = crate::proxy_support::start_proxy(home.path(), &upstream, &[]);
    let (status, _) = crate::proxy_support::http(&proxy.address, "POST", "/v1/responses", "{}");
    assert_eq!(status, 200);
    let recording = proxy.recording.clone();
    let exit = proxy.stop(nix::sys::signal::Signal::SIGTERM);
    assert_eq!(
        (exit.code, exit.stderr.lines().last()),
        (Some(0), Some("codex-context proxy: SIGTERM: stopping")),
        "{}",
        exit.stderr
    );
    // The live view printed the exchange before the proxy exited.
    assert_eq!(exit.stdout.lines().count(), 1, "{}", exit.stdout);
    assert_eq!(crate::proxy_support::ended_exchanges(&recording), 1);
}
