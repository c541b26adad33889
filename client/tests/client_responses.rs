//! `POST /responses` against an in-process server: the body and headers that arrive, the SSE
//! script turned into items and usage, and the key kept out of everything but the header.

#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

mod client_support;

use std::path::PathBuf;
use std::sync::Arc;

use client_support::RecordingSleeper;
use client_support::SECRET_KEY;
use client_support::completed_event;
use client_support::sse_body;
use client_support::test_config;
use codex_client::CompletedResponse;
use codex_client::REDACTED;
use codex_client::RequestBody;
use codex_client::RequestHeaders;
use codex_client::ResponseEvent;
use codex_client::ResponsesClient;
use codex_client::ResponsesLite;
use codex_client::StreamProgress;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::TokenUsage;
use pretty_assertions::assert_eq;
use serde_json::json;
use wiremock::Mock;
use wiremock::MockServer;
use wiremock::ResponseTemplate;
use wiremock::matchers::method;
use wiremock::matchers::path;

/// A body with key order and spacing no serializer would choose, so any re-encoding shows.
const ODD_BODY: &str =
    "{ \"stream\":true,\n  \"model\" : \"gpt-test\", \"input\":[ ],\"store\":false }";

fn sse_response(events: &[serde_json::Value]) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("openai-model", "gpt-test-2026")
        .insert_header("x-models-etag", "\"catalog-7\"")
        .set_body_raw(sse_body(events), "text/event-stream")
}

fn session_headers(responses_lite: ResponsesLite) -> RequestHeaders {
    RequestHeaders {
        session_id: Some("session-1".to_string()),
        thread_id: Some("thread-1".to_string()),
        window_id: Some("thread-1:0".to_string()),
        turn_metadata: Some("{\"turn_id\":\"turn-1\"}".to_string()),
        beta_features: Some("remote_compaction_v2".to_string()),
        responses_lite,
        accept_encoding: None,
        extra: vec![("x-codex-turn-state".to_string(), "sticky-1".to_string())],
    }
}

async fn server_answering(events: &[serde_json::Value]) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(sse_response(events))
        .mount(&server)
        .await;
    server
}

fn client_for(server: &MockServer) -> ResponsesClient {
    let config = test_config(
        &format!("{}/v1", server.uri()),
        Arc::new(RecordingSleeper::default()),
    );
    ResponsesClient::new(config).expect("client")
}

fn header_text(request: &wiremock::Request, name: &str) -> Option<String> {
    request
        .headers
        .get(name)
        .map(|value| value.to_str().expect("ascii header").to_string())
}

#[tokio::test]
async fn body_arrives_byte_for_byte_with_the_session_headers() {
    let server = server_answering(&[completed_event("resp_1")]).await;
    let client = client_for(&server);
    let body = RequestBody::from_bytes(ODD_BODY);

    client
        .send(&body, &session_headers(ResponsesLite::On), |_| {})
        .await
        .expect("completed");

    let requests = server.received_requests().await.expect("recording on");
    let request = &requests[0];
    let names = [
        "authorization",
        "accept",
        "content-type",
        "originator",
        "session-id",
        "thread-id",
        "x-openai-internal-codex-responses-lite",
        "x-codex-turn-state",
        "x-client-request-id",
        "x-codex-window-id",
        "x-codex-turn-metadata",
        "x-codex-beta-features",
        "user-agent",
    ];
    assert_eq!(
        (
            requests.len(),
            String::from_utf8(request.body.clone()).expect("utf-8"),
            names.map(|name| header_text(request, name)),
        ),
        (
            1,
            ODD_BODY.to_string(),
            [
                Some(format!("Bearer {SECRET_KEY}")),
                Some("text/event-stream".to_string()),
                Some("application/json".to_string()),
                Some("codex_context_tests".to_string()),
                Some("session-1".to_string()),
                Some("thread-1".to_string()),
                Some("true".to_string()),
                Some("sticky-1".to_string()),
                Some("thread-1".to_string()),
                Some("thread-1:0".to_string()),
                Some("{\"turn_id\":\"turn-1\"}".to_string()),
                Some("remote_compaction_v2".to_string()),
                Some(codex_client::user_agent("codex_exec")),
            ],
        )
    );
}

#[tokio::test]
async fn lite_header_is_absent_for_regular_models_and_optional_ids_are_omitted() {
    let server = server_answering(&[completed_event("resp_1")]).await;
    let client = client_for(&server);
    client
        .send(
            &RequestBody::from_bytes("{}"),
            &RequestHeaders::default(),
            |_| {},
        )
        .await
        .expect("completed");
    let requests = server.received_requests().await.expect("recording on");
    let absent = [
        "session-id",
        "thread-id",
        "x-openai-internal-codex-responses-lite",
    ]
    .map(|name| header_text(&requests[0], name));
    assert_eq!(absent, [None, None, None]);
}

#[tokio::test]
async fn a_serialized_request_is_sent_as_its_compact_json() {
    // A request as the request builder would assemble it; this crate sees only its `Serialize`.
    let request = json!({
        "model": "gpt-5.2",
        "instructions": "Be brief.",
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "reasoning": {"effort": "medium"},
        "store": false,
        "stream": true,
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "thread-1"
    });
    let body = RequestBody::to_json(&request).expect("serializes");
    let server = server_answering(&[completed_event("resp_1")]).await;
    client_for(&server)
        .send(&body, &RequestHeaders::default(), |_| {})
        .await
        .expect("completed");
    let requests = server.received_requests().await.expect("recording on");
    assert_eq!(
        requests[0].body,
        serde_json::to_vec(&request).expect("serializes")
    );
}

/// Every capture's first request body is sent unchanged (needs the fixtures).
#[tokio::test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
async fn upstream_capture_bodies_arrive_unchanged() {
    let captures = upstream_fixtures::captures();
    let mut bodies: Vec<PathBuf> = std::fs::read_dir(&captures)
        .expect("captures folder")
        .filter_map(|entry| Some(entry.ok()?.path().join("request-01.json")))
        .filter(|path| path.is_file())
        .collect();
    bodies.sort();
    assert!(!bodies.is_empty(), "no request bodies under {captures:?}");
    let server = server_answering(&[completed_event("resp_1")]).await;
    let client = client_for(&server);
    for body_path in &bodies {
        let bytes = std::fs::read(body_path).expect("read capture");
        client
            .send(
                &RequestBody::from_bytes(bytes),
                &RequestHeaders::default(),
                |_| {},
            )
            .await
            .expect("completed");
    }
    let received = server.received_requests().await.expect("recording on");
    let sent: Vec<Vec<u8>> = bodies
        .iter()
        .map(|path| std::fs::read(path).expect("read capture"))
        .collect();
    let arrived: Vec<Vec<u8>> = received.into_iter().map(|request| request.body).collect();
    assert!(arrived == sent, "a capture body changed on the way");
}

#[tokio::test]
async fn sse_script_becomes_items_deltas_and_usage() {
    let message = json!({
        "type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": "Hello there", "annotations": []}]
    });
    let call = json!({
        "type": "function_call", "id": "fc_1", "status": "completed", "name": "shell",
        "arguments": "{\"command\":[\"ls\"]}", "call_id": "call_1"
    });
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_9"}}),
        json!({"type": "response.output_item.added", "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "delta": "Hello"}),
        json!({"type": "response.output_text.delta", "delta": " there"}),
        json!({"type": "response.reasoning_summary_part.added", "summary_index": 0}),
        json!({"type": "response.reasoning_summary_text.delta", "delta": "thinking", "summary_index": 0}),
        json!({"type": "response.in_progress", "response": {}}),
        json!({"type": "response.output_item.done", "item": message}),
        json!({"type": "response.output_item.done", "item": call}),
        completed_event("resp_9"),
    ];
    let server = server_answering(&events).await;
    let mut seen = Vec::new();
    let completed = client_for(&server)
        .send(
            &RequestBody::from_bytes("{}"),
            &RequestHeaders::default(),
            |progress| match progress {
                StreamProgress::Event(event) => seen.push(event.clone()),
                StreamProgress::Retrying { .. } => panic!("no retry expected"),
            },
        )
        .await
        .expect("completed");

    let message_item = ResponseItem::Message {
        encrypted_content: None,
        status: Some("completed".to_string()),
        id: Some("msg_1".to_string()),
        role: "assistant".to_string(),
        content: vec![ContentItem::OutputText {
            text: "Hello there".to_string(),
            annotations: Some(Vec::new()),
            logprobs: None,
        }],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    };
    let call_item: ResponseItem = serde_json::from_value(call).expect("function call item");
    let usage = TokenUsage {
        input_tokens: 1200,
        cached_input_tokens: 1000,
        cache_write_input_tokens: 0,
        output_tokens: 30,
        reasoning_output_tokens: 10,
        total_tokens: 1230,
    };
    assert_eq!(
        completed,
        CompletedResponse {
            response_id: "resp_9".to_string(),
            items: vec![message_item.clone(), call_item.clone()],
            token_usage: Some(usage),
            end_turn: None,
            server_model: Some("gpt-test-2026".to_string()),
            models_etag: Some("\"catalog-7\"".to_string()),
        }
    );
    assert_eq!(
        seen,
        vec![
            ResponseEvent::Created {
                response_id: Some("resp_9".to_string())
            },
            ResponseEvent::OutputItemAdded(ResponseItem::Message {
                encrypted_content: None,
                status: None,
                id: Some("msg_1".to_string()),
                role: "assistant".to_string(),
                content: Vec::new(),
                phase: None,
                internal_chat_message_metadata_passthrough: None,
            }),
            ResponseEvent::OutputTextDelta {
                delta: "Hello".to_string()
            },
            ResponseEvent::OutputTextDelta {
                delta: " there".to_string()
            },
            ResponseEvent::ReasoningSummaryPartAdded { summary_index: 0 },
            ResponseEvent::ReasoningSummaryDelta {
                delta: "thinking".to_string(),
                summary_index: 0
            },
            ResponseEvent::OutputItemDone(message_item),
            ResponseEvent::OutputItemDone(call_item),
            ResponseEvent::Completed {
                response_id: "resp_9".to_string(),
                token_usage: Some(usage),
                end_turn: None,
            },
        ]
    );
}

#[tokio::test]
async fn stream_api_hands_out_events_then_ends() {
    let server = server_answering(&[
        json!({"type": "response.output_text.delta", "delta": "x"}),
        completed_event("resp_2"),
    ])
    .await;
    let client = client_for(&server);
    let mut stream = client
        .stream(&RequestBody::from_bytes("{}"), &RequestHeaders::default())
        .await
        .expect("stream opens");
    let mut kinds = Vec::new();
    while let Some(event) = stream.next_event().await {
        kinds.push(match event.expect("event") {
            ResponseEvent::OutputTextDelta { delta } => format!("delta:{delta}"),
            ResponseEvent::Completed { response_id, .. } => format!("completed:{response_id}"),
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        (kinds, stream.server_model(), stream.models_etag()),
        (
            vec!["delta:x".to_string(), "completed:resp_2".to_string()],
            Some("gpt-test-2026"),
            Some("\"catalog-7\"")
        )
    );
}

#[tokio::test]
async fn the_key_appears_only_in_the_authorization_header() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({"error": {
            "message": format!("Incorrect API key provided: {SECRET_KEY}."),
            "type": "invalid_request_error",
            "code": "invalid_api_key"
        }})))
        .expect(1)
        .mount(&server)
        .await;
    let client = client_for(&server);
    let error = client
        .send(
            &RequestBody::from_bytes("{}"),
            &RequestHeaders::default(),
            |_| {},
        )
        .await
        .expect_err("401");

    let printed = [
        error.to_string(),
        format!("{error:?}"),
        format!("{client:?}"),
        format!("{:?}", client.config()),
        client.config().api_key.to_string(),
    ];
    for text in &printed {
        assert!(!text.contains(SECRET_KEY), "key leaked into: {text}");
    }
    assert_eq!(
        (error.to_string(), client.config().api_key.to_string()),
        (
            format!("server answered HTTP 401: Incorrect API key provided: {REDACTED}."),
            REDACTED.to_string()
        )
    );
}
