//! The proxy between a client and the in-process mock upstream, all on loopback.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::time::Duration;

use codex_proxy::ListenScope;
use codex_proxy::Outcome;
use codex_proxy::ProxyConfig;
use codex_proxy::ProxyError;
use codex_proxy::ProxyEvent;
use codex_proxy::RecordedExchange;
use codex_proxy::RunningProxy;
use codex_proxy::Upstream;
use codex_proxy::read_recording;
use pretty_assertions::assert_eq;
use serde_json::json;
use support::KEY;
use tokio::sync::mpsc;

fn body(thread: &str, text: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "model": "gpt-5.1-codex",
        "instructions": "be brief",
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}],
        "stream": true,
        "prompt_cache_key": thread,
    }))
    .unwrap()
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .no_gzip()
        .no_zstd()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

async fn proxy(
    upstream: &str,
    out: &Path,
    idle: Duration,
) -> (RunningProxy, mpsc::Receiver<ProxyEvent>) {
    let mut config = ProxyConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        Upstream::parse(upstream).unwrap(),
        out.to_path_buf(),
    );
    config.idle_timeout = idle;
    let (sender, receiver) = mpsc::channel(256);
    (
        codex_proxy::start(config, Some(sender)).await.unwrap(),
        receiver,
    )
}

async fn post(
    proxy: &RunningProxy,
    path: &str,
    body: Vec<u8>,
    encoding: Option<&str>,
) -> (u16, Result<Vec<u8>, String>) {
    let mut request = client()
        .post(format!("http://{}{path}", proxy.local_addr()))
        .header("authorization", format!("Bearer {KEY}"))
        .header("content-type", "application/json")
        .header(
            "x-codex-turn-metadata",
            r#"{"thread_id":"t","turn_id":"turn-1"}"#,
        )
        .body(body);
    if let Some(encoding) = encoding {
        request = request.header("content-encoding", encoding);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let bytes = response
        .bytes()
        .await
        .map(|bytes| bytes.to_vec())
        .map_err(|error| error.to_string());
    (status, bytes)
}

/// Every file under `dir`, none of which may hold the key.
fn assert_no_key(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            assert_no_key(&path);
        } else {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            assert!(!text.contains(KEY), "{} holds the key", path.display());
        }
    }
}

fn only_exchange(out: &Path) -> RecordedExchange {
    let recording = read_recording(out).unwrap();
    assert_eq!(recording.threads.len(), 1);
    let mut exchanges = recording.threads[0].exchanges.clone();
    assert_eq!(exchanges.len(), 1);
    exchanges.remove(0)
}

#[tokio::test]
async fn an_sse_stream_is_relayed_unchanged_and_recorded() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, mut events) = proxy(&upstream.url(), out.path(), Duration::from_secs(10)).await;
    let sent = body("thread-a", "hello");
    let (status, received) = post(&proxy, "/v1/responses", sent.clone(), None).await;
    let expected_sse = support::sse_chunks(&format!("resp_{}", sent.len())).concat();
    assert_eq!(status, 200);
    assert_eq!(String::from_utf8(received.unwrap()).unwrap(), expected_sse);

    let at_upstream = upstream.received.lock().unwrap().clone();
    assert_eq!(at_upstream.len(), 1);
    assert_eq!(at_upstream[0].path, "/v1/responses");
    assert_eq!(at_upstream[0].body, sent);
    let authorization = at_upstream[0]
        .headers
        .iter()
        .find(|(name, _)| name == "authorization")
        .map(|(_, value)| value.clone());
    assert_eq!(authorization, Some(format!("Bearer {KEY}")));

    let thread = out.path().join("thread-a");
    assert_eq!(
        std::fs::read(thread.join("request-0001.json")).unwrap(),
        sent
    );
    assert_eq!(
        std::fs::read_to_string(thread.join("response-0001.sse")).unwrap(),
        expected_sse
    );
    let usage = json!({"input_tokens": 120, "input_tokens_details": {"cached_tokens": 64}, "output_tokens": 5, "total_tokens": 125});
    let exchange = only_exchange(out.path());
    assert_eq!(
        (
            exchange.number,
            exchange.path.as_str(),
            exchange.request,
            exchange.status,
            exchange.usage.clone(),
            exchange.outcome,
            exchange.reason
        ),
        (
            1,
            "/v1/responses",
            Some(serde_json::from_slice(&sent).unwrap()),
            Some(200),
            Some(usage.clone()),
            Some(Outcome::Completed),
            None
        )
    );
    assert_eq!(exchange.turn_id.as_deref(), Some("turn-1"));
    let event = events.recv().await.unwrap();
    assert_eq!(event.turn_id.as_deref(), Some("turn-1"));
    assert_eq!(
        (
            event.thread.as_str(),
            event.number,
            event.status,
            event.usage,
            event.failure
        ),
        ("thread-a", 1, Some(200), Some(usage), None)
    );
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn compressed_requests_and_responses_pass_as_bytes_and_are_recorded_decoded() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(&upstream.url(), out.path(), Duration::from_secs(10)).await;
    let json_body = body("thread-gz", "compressed");
    let wire = support::gzip(&json_body);
    let (status, received) = post(&proxy, "/gzip", wire.clone(), Some("gzip")).await;
    assert_eq!(status, 200);
    let sse = support::sse_chunks(&format!("resp_{}", wire.len())).concat();
    // Still gzip: the proxy relays the bytes without decoding them.
    assert_eq!(received.unwrap(), support::gzip(sse.as_bytes()));
    assert_eq!(upstream.received.lock().unwrap()[0].body, wire);
    let thread = out.path().join("thread-gz");
    assert_eq!(
        std::fs::read(thread.join("request-0001.json")).unwrap(),
        json_body
    );
    assert_eq!(
        std::fs::read(thread.join("request-0001.wire.gz")).unwrap(),
        wire
    );
    assert_eq!(
        std::fs::read(thread.join("response-0001.wire.gz")).unwrap(),
        support::gzip(sse.as_bytes())
    );
    assert_eq!(
        std::fs::read_to_string(thread.join("response-0001.sse")).unwrap(),
        sse
    );
    // Decoded, the stream gave up its usage.
    assert!(only_exchange(out.path()).usage.is_some());
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn error_statuses_reach_the_client_and_are_recorded_as_failures() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(&upstream.url(), out.path(), Duration::from_secs(10)).await;
    for code in [500, 429] {
        let (status, received) = post(
            &proxy,
            &format!("/status/{code}"),
            body("errors", "x"),
            None,
        )
        .await;
        assert_eq!(status, code);
        assert_eq!(
            received.unwrap(),
            b"{\"error\":{\"message\":\"try later\"}}"
        );
    }
    assert_eq!(
        std::fs::read(out.path().join("errors/response-0002.body")).unwrap(),
        b"{\"error\":{\"message\":\"try later\"}}"
    );
    let recording = read_recording(out.path()).unwrap();
    let outcomes: Vec<_> = recording.threads[0]
        .exchanges
        .iter()
        .map(|exchange| (exchange.status, exchange.outcome, exchange.reason.clone()))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            (
                Some(500),
                Some(Outcome::Failed),
                Some("the upstream answered 500 Internal Server Error".to_string())
            ),
            (
                Some(429),
                Some(Outcome::Failed),
                Some("the upstream answered 429 Too Many Requests".to_string())
            ),
        ]
    );
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn a_refused_connection_is_a_502_and_the_proxy_keeps_serving() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = closed.local_addr().unwrap();
    drop(closed);
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(
        &format!("http://{address}"),
        out.path(),
        Duration::from_secs(10),
    )
    .await;
    for _ in 0..2 {
        let (status, received) = post(&proxy, "/v1/responses", body("refused", "x"), None).await;
        assert_eq!(status, 502);
        let error: serde_json::Value = serde_json::from_slice(&received.unwrap()).unwrap();
        assert_eq!(error["error"]["type"], "proxy_error");
    }
    let recording = read_recording(out.path()).unwrap();
    for exchange in &recording.threads[0].exchanges {
        assert_eq!(
            (exchange.status, exchange.outcome),
            (None, Some(Outcome::Failed))
        );
        let reason = exchange.reason.clone().unwrap();
        assert!(
            reason.starts_with("the upstream could not be reached"),
            "{reason}"
        );
    }
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn a_stalled_or_dropped_stream_is_cut_for_the_client_and_marked_failed() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(&upstream.url(), out.path(), Duration::from_millis(300)).await;
    for path in ["/stall", "/drop"] {
        let (status, received) = post(&proxy, path, body("faults", path), None).await;
        assert_eq!(status, 200);
        assert!(received.is_err(), "{path}: the client saw a complete body");
    }
    // The proxy still serves whole streams.
    let sent = body("faults", "after");
    let (status, received) = post(&proxy, "/v1/responses", sent.clone(), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        String::from_utf8(received.unwrap()).unwrap(),
        support::sse_chunks(&format!("resp_{}", sent.len())).concat()
    );
    let recording = read_recording(out.path()).unwrap();
    let outcomes: Vec<_> = recording.threads[0]
        .exchanges
        .iter()
        .map(|exchange| {
            (
                exchange.outcome,
                exchange
                    .reason
                    .clone()
                    .map(|r| r[..30.min(r.len())].to_string()),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        vec![
            (
                Some(Outcome::Failed),
                Some("the upstream stream stalled fo".to_string())
            ),
            (
                Some(Outcome::Failed),
                Some("the upstream stream broke off:".to_string())
            ),
            (Some(Outcome::Completed), None),
        ]
    );
    // The chunk that arrived before the stall is recorded.
    assert_eq!(
        std::fs::read_to_string(out.path().join("faults/response-0001.sse")).unwrap(),
        support::sse_chunks("unused")[0]
    );
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn an_upstream_that_never_answers_is_a_504_after_the_idle_timeout() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(&upstream.url(), out.path(), Duration::from_millis(300)).await;
    let (status, received) = post(&proxy, "/stall-head", body("silent", "x"), None).await;
    assert_eq!(status, 504);
    let error: serde_json::Value = serde_json::from_slice(&received.unwrap()).unwrap();
    assert_eq!(
        error["error"]["message"],
        "codex-context proxy: the upstream sent no response head within 0.3 s"
    );
    let exchange = only_exchange(out.path());
    assert_eq!(
        (
            exchange.status,
            exchange.outcome,
            exchange.reason.as_deref()
        ),
        (
            None,
            Some(Outcome::Failed),
            Some("the upstream sent no response head within 0.3 s")
        )
    );
    proxy.shutdown().await;
}

#[tokio::test]
async fn a_client_that_leaves_after_response_completed_had_a_completed_exchange() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, mut events) = proxy(&upstream.url(), out.path(), Duration::from_secs(10)).await;
    let sent = body("leaver", "bye");
    let expected = support::sse_chunks(&format!("resp_{}", sent.len())).concat();
    let mut response = client()
        .post(format!("http://{}/linger", proxy.local_addr()))
        .body(sent)
        .send()
        .await
        .unwrap();
    let mut received = Vec::new();
    while received.len() < expected.len() {
        received.extend_from_slice(&response.chunk().await.unwrap().unwrap());
    }
    drop(response);
    let event = events.recv().await.unwrap();
    assert_eq!((event.status, event.failure), (Some(200), None));
    assert_eq!(only_exchange(out.path()).outcome, Some(Outcome::Completed));
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_requests_lose_nothing() {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let (proxy, _events) = proxy(&upstream.url(), out.path(), Duration::from_secs(10)).await;
    let address = proxy.local_addr();
    let tasks: Vec<_> = (0..50)
        .map(|index| {
            tokio::spawn(async move {
                let sent = body(
                    &format!("load-{}", index % 5),
                    &format!("request {index:03}"),
                );
                let response = client()
                    .post(format!("http://{address}/v1/responses"))
                    .header("authorization", format!("Bearer {KEY}"))
                    .body(sent.clone())
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                let text = response.text().await.unwrap();
                (
                    status,
                    text == support::sse_chunks(&format!("resp_{}", sent.len())).concat(),
                )
            })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap(), (200, true));
    }
    let recording = read_recording(out.path()).unwrap();
    let per_thread: Vec<(String, usize, bool)> = recording
        .threads
        .iter()
        .map(|thread| {
            (
                thread.key.clone(),
                thread.exchanges.len(),
                thread.exchanges.iter().all(|exchange| {
                    exchange.outcome == Some(Outcome::Completed) && exchange.usage.is_some()
                }),
            )
        })
        .collect();
    assert_eq!(
        per_thread,
        (0..5)
            .map(|thread| (format!("load-{thread}"), 10, true))
            .collect::<Vec<_>>()
    );
    assert_eq!(upstream.received.lock().unwrap().len(), 50);
    assert_no_key(out.path());
    proxy.shutdown().await;
}

#[tokio::test]
async fn a_remote_listen_address_needs_permission() {
    let out = tempfile::tempdir().unwrap();
    let mut config = ProxyConfig::new(
        "0.0.0.0:0".parse().unwrap(),
        Upstream::parse("http://127.0.0.1:9").unwrap(),
        out.path().to_path_buf(),
    );
    let refused = codex_proxy::start(config.clone(), None).await;
    assert!(matches!(refused, Err(ProxyError::RemoteListen { .. })));
    // Allowed, it gets as far as binding; a loopback address stands in so that no test
    // listens beyond this machine.
    config.scope = ListenScope::AllowRemote;
    config.listen = "127.0.0.1:0".parse().unwrap();
    let allowed = codex_proxy::start(config, None).await.unwrap();
    allowed.shutdown().await;
}
