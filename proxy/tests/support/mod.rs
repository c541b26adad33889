//! An in-process mock of the upstream, on loopback, whose answer depends on the path:
//! `/v1/responses` an SSE stream in several chunks, `/gzip` the same stream gzip-encoded,
//! `/status/NNN` that status with a JSON error, `/stall` one chunk then silence, `/drop` one
//! chunk then a broken connection, `/stall-head` no answer for 30 s, `/linger` the stream kept open for 2 s after its last event. It records what it received.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::convert::Infallible;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::StreamBody;
use http_body_util::combinators::BoxBody;
use hyper::Request;
use hyper::Response;
use hyper::body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The API key the tests send; it must appear nowhere in a recording.
pub const KEY: &str = "sk-test-SECRET-0123456789";

/// One request the mock received.
#[derive(Debug, Clone, PartialEq)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// The SSE stream the mock answers with, in the chunks it sends (cut mid-line on purpose).
pub fn sse_chunks(id: &str) -> Vec<String> {
    let completed = format!(
        "data: {{\"type\":\"response.completed\",\"response\":{{\"id\":\"{id}\",\"usage\":{{\"input_tokens\":120,\"input_tokens_details\":{{\"cached_tokens\":64}},\"output_tokens\":5,\"total_tokens\":125}}}}}}\n\n"
    );
    vec![
        "event: response.created\ndata: {\"type\":\"response.cre".to_string(),
        "ated\",\"response\":{}}\n\n".to_string(),
        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Done.\"}\n\n".to_string(),
        format!("event: response.completed\n{completed}"),
    ]
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A running mock.
pub struct Upstream {
    pub address: SocketAddr,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl Upstream {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&received);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let log = Arc::clone(&log);
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        let log = Arc::clone(&log);
                        async move { Ok::<_, Infallible>(answer(request, &log).await) }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Self { address, received }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }
}

async fn answer(
    request: Request<Incoming>,
    log: &Mutex<Vec<Received>>,
) -> Response<BoxBody<Bytes, BoxError>> {
    let (parts, body) = request.into_parts();
    let body = body.collect().await.unwrap().to_bytes().to_vec();
    let path = parts.uri.path().to_string();
    if path == "/stall-head" {
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
    let id = format!("resp_{}", body.len());
    log.lock().unwrap().push(Received {
        path: path.clone(),
        headers: parts
            .headers
            .iter()
            .map(|(name, value)| {
                (
                    name.to_string(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
    });
    let (sender, receiver) = mpsc::channel::<Result<Frame<Bytes>, BoxError>>(8);
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|item| (item, receiver))
    });
    let mut response = Response::builder()
        .header("content-type", "text/event-stream")
        .header("x-request-id", "req-1");
    let chunks: Vec<Bytes> = sse_chunks(&id).into_iter().map(Bytes::from).collect();
    if let Some(code) = path.strip_prefix("/status/") {
        response = Response::builder()
            .status(code.parse::<u16>().unwrap())
            .header("content-type", "application/json");
        let _ = sender
            .send(Ok(Frame::data(Bytes::from_static(
                b"{\"error\":{\"message\":\"try later\"}}",
            ))))
            .await;
        drop(sender);
    } else if path == "/gzip" {
        response = response.header("content-encoding", "gzip");
        let _ = sender
            .send(Ok(Frame::data(Bytes::from(gzip(&chunks.concat())))))
            .await;
        drop(sender);
    } else {
        tokio::spawn(async move {
            for (index, chunk) in chunks.into_iter().enumerate() {
                if index == 1 && path == "/stall" {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    return;
                }
                if index == 2 && path == "/drop" {
                    let _ = sender.send(Err("the mock drops the stream".into())).await;
                    return;
                }
                if sender.send(Ok(Frame::data(chunk))).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            if path == "/linger" {
                // The stream stays open after `response.completed`, as a slow server's may.
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
            drop(sender);
        });
    }
    response
        .body(BodyExt::boxed(StreamBody::new(stream)))
        .unwrap()
}
