//! `POST /responses` answered with a compressed event stream: a request that asks for
//! compressed responses (`accept-encoding`, as 0.171.0 sends it) gets gzip and zstd bodies
//! decoded; a request that does not ask sends no `accept-encoding` at all.

#![allow(clippy::expect_used)]

mod client_support;

use std::io::Write;
use std::sync::Arc;

use client_support::RecordingSleeper;
use client_support::completed_event;
use client_support::sse_body;
use client_support::test_config;
use codex_client::RequestBody;
use codex_client::RequestHeaders;
use codex_client::ResponsesClient;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use pretty_assertions::assert_eq;
use serde_json::json;
use wiremock::Mock;
use wiremock::MockServer;
use wiremock::ResponseTemplate;
use wiremock::matchers::method;
use wiremock::matchers::path;

/// What the stream says: one assistant message, then completion.
fn events() -> Vec<serde_json::Value> {
    vec![
        json!({"type": "response.created", "response": {"id": "resp_z"}}),
        json!({"type": "response.output_item.done", "item": {
            "type": "message", "id": "msg_z", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": "compressed hello", "annotations": []}]
        }}),
        completed_event("resp_z"),
    ]
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).expect("zstd")
}

/// A server answering every `/responses` with `body` under `content-encoding: encoding`.
async fn server_sending(encoding: &str, body: Vec<u8>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-encoding", encoding)
                .set_body_raw(body, "text/event-stream"),
        )
        .mount(&server)
        .await;
    server
}

/// The assistant's text and the `accept-encoding` the server saw.
async fn send_to(server: &MockServer, accept_encoding: Option<&str>) -> (Vec<String>, Vec<String>) {
    let client = ResponsesClient::new(test_config(
        &format!("{}/v1", server.uri()),
        Arc::new(RecordingSleeper::default()),
    ))
    .expect("client");
    let headers = RequestHeaders {
        accept_encoding: accept_encoding.map(str::to_string),
        ..RequestHeaders::default()
    };
    let completed = client
        .send(&RequestBody::from_bytes("{}"), &headers, |_| {})
        .await
        .expect("completed");
    let texts = completed
        .items
        .iter()
        .flat_map(|item| match item {
            ResponseItem::Message { content, .. } => content
                .iter()
                .filter_map(ContentItem::text)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let requests = server.received_requests().await.expect("recording on");
    let seen = requests
        .iter()
        .flat_map(|request| request.headers.get_all("accept-encoding"))
        .map(|value| value.to_str().expect("ascii").to_string())
        .collect();
    (texts, seen)
}

#[tokio::test]
async fn gzip_and_zstd_event_streams_are_decoded_when_asked_for() {
    let plain = sse_body(&events()).into_bytes();
    for (encoding, body) in [("gzip", gzip(&plain)), ("zstd", zstd(&plain))] {
        let server = server_sending(encoding, body).await;
        assert_eq!(
            send_to(&server, Some("zstd,gzip")).await,
            (
                vec!["compressed hello".to_string()],
                vec!["zstd,gzip".to_string()]
            ),
            "{encoding}"
        );
    }
}

#[tokio::test]
async fn no_accept_encoding_is_sent_unless_asked_for() {
    let server = server_sending("identity", sse_body(&events()).into_bytes()).await;
    assert_eq!(
        send_to(&server, None).await,
        (vec!["compressed hello".to_string()], Vec::<String>::new())
    );
}
