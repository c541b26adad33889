//! Retries, failures and timeouts of `POST /responses` against in-process servers. Delays are
//! recorded by a sleeper double instead of waited for.

#![allow(clippy::expect_used)]

mod client_support;

use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use client_support::EVENT_STREAM_HEAD;
use client_support::RecordingSleeper;
use client_support::Step;
use client_support::completed_event;
use client_support::scripted_server;
use client_support::sse_body;
use client_support::stalling_server;
use client_support::test_config;
use codex_client::ClientConfig;
use codex_client::ClientError;
use codex_client::FailureCode;
use codex_client::RequestBody;
use codex_client::RequestHeaders;
use codex_client::ResponseEvent;
use codex_client::ResponsesClient;
use codex_client::StreamProgress;
use pretty_assertions::assert_eq;
use serde_json::json;
use wiremock::Mock;
use wiremock::MockServer;
use wiremock::ResponseTemplate;
use wiremock::matchers::method;
use wiremock::matchers::path;

fn completed_response() -> ResponseTemplate {
    ResponseTemplate::new(200)
        .set_body_raw(sse_body(&[completed_event("resp_ok")]), "text/event-stream")
}

fn sse(events: &[serde_json::Value]) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(sse_body(events), "text/event-stream")
}

/// Mounts `first` for the first `times` requests, then a completed stream.
async fn server_failing_first(first: ResponseTemplate, times: u64) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(first)
        .up_to_n_times(times)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(completed_response())
        .mount(&server)
        .await;
    server
}

fn client_with(
    base_url: String,
    adjust: impl FnOnce(&mut ClientConfig),
) -> (ResponsesClient, Arc<RecordingSleeper>) {
    let sleeper = Arc::new(RecordingSleeper::default());
    let mut config = test_config(&base_url, Arc::clone(&sleeper));
    adjust(&mut config);
    (ResponsesClient::new(config).expect("client"), sleeper)
}

async fn send_recording_retries(
    client: &ResponsesClient,
) -> (Result<String, ClientError>, Vec<(u32, u32, Duration)>) {
    let mut retries = Vec::new();
    let result = client
        .send(
            &RequestBody::from_bytes("{}"),
            &RequestHeaders::default(),
            |progress| {
                if let StreamProgress::Retrying {
                    retry,
                    max_retries,
                    delay,
                    ..
                } = progress
                {
                    retries.push((retry, max_retries, delay));
                }
            },
        )
        .await
        .map(|completed| completed.response_id);
    (result, retries)
}

async fn request_count(server: &MockServer) -> usize {
    server
        .received_requests()
        .await
        .expect("recording on")
        .len()
}

#[tokio::test]
async fn http_429_is_retried_after_the_retry_after_delay() {
    let rate_limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "3")
        .set_body_json(
            json!({"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}),
        );
    let server = server_failing_first(rate_limited, 2).await;
    let (client, sleeper) = client_with(format!("{}/v1", server.uri()), |_| {});

    let (result, retries) = send_recording_retries(&client).await;

    let three = Duration::from_secs(3);
    assert_eq!(
        (
            result.expect("completes"),
            retries,
            sleeper.delays(),
            request_count(&server).await
        ),
        (
            "resp_ok".to_string(),
            vec![(1, 4, three), (2, 4, three)],
            vec![three, three],
            3
        )
    );
}

#[tokio::test]
async fn a_try_again_message_sets_the_delay_when_no_header_does() {
    let rate_limited = ResponseTemplate::new(429).set_body_json(json!({"error": {
        "message": "Rate limit reached for gpt-test. Please try again in 1.5s.",
        "code": "rate_limit_exceeded"
    }}));
    let server = server_failing_first(rate_limited, 1).await;
    let (client, sleeper) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, _) = send_recording_retries(&client).await;
    assert_eq!(
        (result.expect("completes"), sleeper.delays()),
        ("resp_ok".to_string(), vec![Duration::from_millis(1500)])
    );
}

#[tokio::test]
async fn http_400_is_not_retried_and_carries_the_server_message() {
    let server = server_failing_first(
        ResponseTemplate::new(400).set_body_json(json!({"error": {
            "message": "Invalid value for 'input'.", "type": "invalid_request_error", "code": "invalid_value"
        }})),
        1,
    )
    .await;
    let (client, sleeper) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, retries) = send_recording_retries(&client).await;
    let error = result.expect_err("400 fails");
    assert_eq!(
        (
            error.to_string(),
            error.is_retryable(),
            retries,
            sleeper.delays(),
            request_count(&server).await
        ),
        (
            "server answered HTTP 400: Invalid value for 'input'.".to_string(),
            false,
            Vec::new(),
            Vec::new(),
            1
        )
    );
}

#[tokio::test]
async fn an_exhausted_quota_429_is_not_retried() {
    let server = server_failing_first(
        ResponseTemplate::new(429).set_body_json(json!({"error": {
            "message": "You exceeded your current quota.", "type": "insufficient_quota", "code": "insufficient_quota"
        }})),
        1,
    )
    .await;
    let (client, _) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, _) = send_recording_retries(&client).await;
    let error = result.expect_err("quota");
    assert!(
        matches!(&error, ClientError::Http { status: 429, code: Some(code), .. } if code == "insufficient_quota"),
        "{error:?}"
    );
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn server_errors_back_off_exponentially_until_retries_run_out() {
    let server = server_failing_first(
        ResponseTemplate::new(503).set_body_string("upstream busy"),
        10,
    )
    .await;
    let (client, sleeper) = client_with(format!("{}/v1", server.uri()), |config| {
        config.request_max_retries = 2;
    });
    let (result, _) = send_recording_retries(&client).await;
    let error = result.expect_err("503 until exhausted");
    let delays = sleeper.delays();
    assert_eq!(
        (
            error.to_string(),
            delays.len(),
            request_count(&server).await
        ),
        ("server answered HTTP 503: upstream busy".to_string(), 2, 3)
    );
    for (delay, nominal_ms) in delays.iter().zip([100u64, 200]) {
        let nominal = Duration::from_millis(nominal_ms);
        assert!(
            *delay >= nominal.mul_f64(0.9) && *delay <= nominal.mul_f64(1.1),
            "{delay:?} is not within 10% of {nominal:?}"
        );
    }
}

#[tokio::test]
async fn transport_failures_are_retried() {
    let unused_port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let (client, sleeper) = client_with(format!("http://127.0.0.1:{unused_port}/v1"), |config| {
        config.request_max_retries = 3;
    });
    let (result, retries) = send_recording_retries(&client).await;
    let error = result.expect_err("nothing listens");
    assert!(matches!(error, ClientError::Transport(_)), "{error:?}");
    assert_eq!((retries.len(), sleeper.delays().len()), (3, 3));
}

#[tokio::test]
async fn a_stream_cut_before_completion_is_an_error() {
    let server = server_failing_first(
        sse(&[json!({"type": "response.output_text.delta", "delta": "partial"})]),
        5,
    )
    .await;
    let (client, _) = client_with(format!("{}/v1", server.uri()), |_| {});
    let mut stream = client
        .stream(&RequestBody::from_bytes("{}"), &RequestHeaders::default())
        .await
        .expect("opens");
    let first = stream
        .next_event()
        .await
        .expect("one event")
        .expect("delta");
    let second = stream.next_event().await.expect("an error");
    assert_eq!(
        (
            first,
            second.expect_err("closed early").to_string(),
            stream.next_event().await.is_none()
        ),
        (
            ResponseEvent::OutputTextDelta {
                delta: "partial".to_string()
            },
            "stream closed before response.completed".to_string(),
            true
        )
    );
}

#[tokio::test]
async fn send_resends_a_cut_stream_up_to_the_stream_retry_limit() {
    let cut = sse(&[json!({"type": "response.output_text.delta", "delta": "partial"})]);
    let server = server_failing_first(cut.clone(), 1).await;
    let (client, _) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, retries) = send_recording_retries(&client).await;
    assert_eq!(
        (result.expect("second attempt completes"), retries.len()),
        ("resp_ok".to_string(), 1)
    );

    let always_cut = server_failing_first(cut, 10).await;
    let (client, _) = client_with(format!("{}/v1", always_cut.uri()), |config| {
        config.stream_max_retries = 1;
    });
    let (result, _) = send_recording_retries(&client).await;
    assert!(
        matches!(result, Err(ClientError::StreamClosedEarly)),
        "{result:?}"
    );
    assert_eq!(request_count(&always_cut).await, 2);
}

/// The error of opening a stream (or of its next event, once open) with 0.2 s connect and
/// first-byte timeouts and no retries; the error must come within a few seconds.
async fn first_failure(base_url: String) -> String {
    let (client, _) = client_with(base_url, |config| {
        config.request_max_retries = 0;
        config.connect_timeout = Duration::from_millis(200);
        config.first_byte_timeout = Duration::from_millis(200);
    });
    let started = Instant::now();
    let error = match client
        .stream(&RequestBody::from_bytes("{}"), &RequestHeaders::default())
        .await
    {
        Err(error) => error,
        Ok(mut stream) => loop {
            match stream.next_event().await {
                Some(Ok(_)) => {}
                Some(Err(error)) => break error,
                None => panic!("the stream ended without an error"),
            }
        },
    };
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "the timeout fired late: {took:?}"
    );
    assert!(error.is_retryable(), "{error:?}");
    error.to_string()
}

#[tokio::test]
async fn each_wait_that_runs_out_is_named_with_its_url_and_timeout() {
    // Accepts the TCP connection and never answers the TLS handshake: the (TCP and TLS)
    // connection never comes up. A full accept queue does not make a connection hang reliably
    // (the kernel may complete handshakes anyway), a silent TLS peer does.
    let no_connection = scripted_server(vec![Step::Sleep(Duration::from_secs(10))])
        .replacen("http://", "https://", 1);
    let no_connection_message = first_failure(no_connection.clone()).await;
    // Accepts and never answers.
    let no_headers = scripted_server(vec![Step::Sleep(Duration::from_secs(10))]);
    // Answers with headers, then nothing.
    let no_body = scripted_server(vec![
        Step::Write(EVENT_STREAM_HEAD.to_string()),
        Step::Sleep(Duration::from_secs(10)),
    ]);
    let mut messages = vec![no_connection_message];
    for base_url in [&no_headers, &no_body] {
        messages.push(first_failure(base_url.clone()).await);
    }
    assert_eq!(
        messages,
        vec![
            format!("no connection to {no_connection}/responses within 0.2 s"),
            format!("no response headers from {no_headers}/responses within 0.2 s"),
            format!("{no_body}/responses sent response headers but no body within 0.2 s"),
        ]
    );
}

#[tokio::test]
async fn an_idle_stream_times_out_after_the_bytes_it_sent() {
    let created = sse_body(&[json!({"type": "response.created", "response": {"id": "resp_idle"}})]);
    let sent = created.len();
    let base_url = stalling_server(created, Duration::from_secs(10));
    let (client, _) = client_with(base_url.clone(), |config| {
        config.stream_idle_timeout = Duration::from_millis(200);
    });
    let started = Instant::now();
    let mut stream = client
        .stream(&RequestBody::from_bytes("{}"), &RequestHeaders::default())
        .await
        .expect("headers arrive");
    let first = stream.next_event().await.expect("created").expect("event");
    let second = stream.next_event().await.expect("timeout");
    assert_eq!(
        (first, second.expect_err("idle").to_string()),
        (
            ResponseEvent::Created {
                response_id: Some("resp_idle".to_string())
            },
            format!(
                "{base_url}/responses stopped sending after {sent} bytes of the body: \
                 no data for 0.2 s"
            )
        )
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the timeout fired late"
    );
}

#[tokio::test]
async fn response_failed_codes_decide_whether_to_retry() {
    let failed = |code: &str, message: &str| {
        sse(&[
            json!({"type": "response.failed", "response": {"id": "r", "error": {"code": code, "message": message}}}),
        ])
    };
    let server = server_failing_first(
        failed(
            "context_length_exceeded",
            "Your input exceeds the context window.",
        ),
        1,
    )
    .await;
    let (client, _) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, retries) = send_recording_retries(&client).await;
    let error = result.expect_err("not retried");
    assert!(
        matches!(
            &error,
            ClientError::ResponseFailed {
                code: FailureCode::ContextLengthExceeded,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        (error.to_string(), retries.len()),
        (
            "response.failed (context_length_exceeded): Your input exceeds the context window."
                .to_string(),
            0
        )
    );

    let server = server_failing_first(
        failed("rate_limit_exceeded", "Slow down. Try again in 250ms."),
        1,
    )
    .await;
    let (client, sleeper) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, _) = send_recording_retries(&client).await;
    assert_eq!(
        (result.expect("retried"), sleeper.delays()),
        ("resp_ok".to_string(), vec![Duration::from_millis(250)])
    );
}

#[tokio::test]
async fn response_incomplete_reports_its_reason() {
    let server = server_failing_first(
        sse(&[json!({"type": "response.incomplete", "response": {"id": "r", "incomplete_details": {"reason": "max_output_tokens"}}})]),
        1,
    )
    .await;
    let (client, _) = client_with(format!("{}/v1", server.uri()), |_| {});
    let (result, retries) = send_recording_retries(&client).await;
    assert_eq!(
        (result.expect_err("incomplete").to_string(), retries.len()),
        ("response.incomplete: max_output_tokens".to_string(), 0)
    );
}
