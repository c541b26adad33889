//! Stopping the proxy: an exchange under way finishes within the drain time; one that does not
//! is cut for its client and recorded as cut by the stop; the live view's channel then closes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::Duration;

use codex_proxy::Outcome;
use codex_proxy::ProxyConfig;
use codex_proxy::Stopped;
use codex_proxy::Upstream;
use codex_proxy::read_recording;
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::sync::mpsc;

fn body(thread: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "model": "gpt-5.1-codex",
        "input": [],
        "stream": true,
        "prompt_cache_key": thread,
    }))
    .unwrap()
}

/// Starts a proxy with `drain`, sends a request to `path`, waits for its response head, stops
/// the proxy, and returns the stop, whether the client had a whole body, the recorded
/// outcome and reason, and how many events the live view received before its channel closed.
async fn stop_during(
    path: &str,
    drain: Duration,
) -> (Stopped, bool, Option<Outcome>, Option<String>, usize) {
    let upstream = support::Upstream::start().await;
    let out = tempfile::tempdir().unwrap();
    let mut config = ProxyConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        Upstream::parse(&upstream.url()).unwrap(),
        out.path().to_path_buf(),
    );
    config.drain_timeout = drain;
    let (sender, mut events) = mpsc::channel(16);
    let proxy = codex_proxy::start(config, Some(sender)).await.unwrap();
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let response = client
        .post(format!("http://{}{path}", proxy.local_addr()))
        .body(body("stop"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let stop = tokio::spawn(proxy.shutdown());
    let whole = response.bytes().await.is_ok();
    let stopped = stop.await.unwrap();
    let mut received = 0;
    while events.recv().await.is_some() {
        received += 1;
    }
    let recording = read_recording(out.path()).unwrap();
    let exchange = &recording.threads[0].exchanges[0];
    (
        stopped,
        whole,
        exchange.outcome,
        exchange.reason.clone(),
        received,
    )
}

#[tokio::test]
async fn an_exchange_under_way_finishes_before_the_proxy_stops() {
    // `/linger` keeps its stream open for 2 s after the last event; the drain time is longer.
    let (stopped, whole, outcome, reason, events) =
        stop_during("/linger", Duration::from_secs(30)).await;
    assert_eq!(
        (stopped, whole, outcome, reason, events),
        (
            Stopped {
                under_way: 1,
                cut: 0
            },
            true,
            Some(Outcome::Completed),
            None,
            1
        )
    );
}

#[tokio::test]
async fn an_exchange_that_outlasts_the_drain_time_is_cut_and_recorded_as_cut() {
    // `/stall` sends one chunk, then nothing for 30 s.
    let (stopped, whole, outcome, reason, events) =
        stop_during("/stall", Duration::from_millis(200)).await;
    assert_eq!(
        (stopped, whole, outcome, reason, events),
        (
            Stopped {
                under_way: 1,
                cut: 1
            },
            false,
            Some(Outcome::Failed),
            Some("the proxy stopped before the response ended".to_string()),
            1
        )
    );
}
