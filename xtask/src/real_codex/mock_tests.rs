use std::io::Read;
use std::io::Write;
use std::net::TcpStream;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::real_codex::scenario::FunctionCall;

/// Sends `request` on a new connection and returns everything the mock answered.
fn exchange(mock: &MockServer, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", mock.port())).expect("connect");
    stream.write_all(request.as_bytes()).expect("write");
    stream
        .shutdown(std::net::Shutdown::Write)
        .expect("shutdown");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
}

#[test]
fn responses_are_answered_with_the_scripted_replies_then_the_default_text() {
    let call = Reply {
        text: None,
        function_call: Some(FunctionCall {
            name: "exec_command".to_string(),
            arguments: json!({"cmd": "true"}),
        }),
        input_tokens: Some(9000),
    };
    let mock = MockServer::start(&[call]).expect("mock");
    let body = r#"{"model":"m"}"#;
    let request = format!(
        "POST /v1/responses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-secret\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let first = exchange(&mock, &request);
    let second = exchange(&mock, &request);
    assert!(first.starts_with("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream"));
    assert!(first.contains(r#""name":"exec_command""#), "{first}");
    assert!(first.contains(r#""input_tokens":9000"#), "{first}");
    assert!(second.contains(r#""delta":"Done.""#), "{second}");
    let recorded = mock.recorded();
    assert_eq!(recorded.len(), 2);
    assert_eq!(
        recorded[0],
        RecordedRequest {
            method: "POST".to_string(),
            path: "/v1/responses".to_string(),
            headers: vec![
                ("host".to_string(), "x".to_string()),
                ("authorization".to_string(), REDACTED.to_string()),
                ("content-length".to_string(), body.len().to_string()),
            ],
            body: json!({"model": "m"}),
        }
    );
}

#[test]
fn models_are_an_empty_list_and_chunked_bodies_are_read() {
    let mock = MockServer::start(&[]).expect("mock");
    let models = exchange(&mock, "GET /v1/models?client_version=1 HTTP/1.1\r\n\r\n");
    assert!(models.ends_with(r#"{"models":[]}"#), "{models}");
    let chunked = "POST /v1/other HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n";
    let other = exchange(&mock, chunked);
    assert!(other.starts_with("HTTP/1.1 404 Not Found"), "{other}");
    let bodies: Vec<_> = mock.recorded().into_iter().map(|r| r.body).collect();
    assert_eq!(bodies, vec![serde_json::Value::Null, json!({"a": 1})]);
}

#[test]
fn reply_events_follow_the_stream_order_with_usage() {
    let types: Vec<String> = reply_events(1, None)
        .iter()
        .map(|event| event["type"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        types,
        [
            "response.created",
            "response.output_item.added",
            "response.output_text.delta",
            "response.output_item.done",
            "response.completed"
        ]
    );
    let completed = &reply_events(1, None)[4];
    assert_eq!(completed["response"]["usage"]["total_tokens"], json!(105));
}

#[test]
fn a_reset_mock_forgets_requests_and_replays_the_replies_at_the_same_address() {
    let scripted = Reply {
        text: Some("scripted".to_string()),
        function_call: None,
        input_tokens: None,
    };
    let mock = MockServer::start(&[scripted.clone(), scripted]).expect("mock");
    let body = r#"{"model":"m"}"#;
    let request = format!(
        "POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let first = exchange(&mock, &request);
    assert!(first.contains(r#""delta":"scripted""#), "{first}");
    let address = mock.base_url();
    let replayed = Reply {
        text: Some("again".to_string()),
        function_call: None,
        input_tokens: None,
    };
    mock.reset(&[replayed]);
    assert_eq!(mock.recorded(), Vec::new());
    let after = exchange(&mock, &request);
    assert!(after.contains(r#""delta":"again""#), "{after}");
    assert!(after.contains("resp_mock_1"), "{after}");
    let last = exchange(&mock, &request);
    assert!(last.contains(r#""delta":"Done.""#), "{last}");
    assert_eq!((mock.base_url(), mock.recorded().len()), (address, 2));
}
