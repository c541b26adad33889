//! The pass-through of one request: record the request, forward it with its headers, relay the
//! response chunk by chunk while recording it.

use std::io::Read as _;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::Full;
use http_body_util::StreamBody;
use http_body_util::combinators::BoxBody;
use hyper::Request;
use hyper::Response;
use hyper::StatusCode;
use hyper::body::Frame;
use hyper::body::Incoming;
use hyper::header::HeaderMap;
use hyper::header::HeaderName;
use serde_json::Value;

use crate::SharedUiPages;
use crate::UI_PREFIX;
use crate::decode::StreamDecoder;
use crate::listen::Shared;
use crate::record::ArrivedRequest;
use crate::record::BodyKind;
use crate::record::ExchangeRecord;
use crate::redact::redacted_headers;

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type ProxyBody = BoxBody<Bytes, BoxError>;

/// Headers that belong to one connection and are not passed on.
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
];

/// Session-id headers a request is grouped by when its body names no `prompt_cache_key`.
const SESSION_HEADERS: [&str; 3] = ["session-id", "session_id", "conversation_id"];

pub(crate) async fn handle(
    shared: &Arc<Shared>,
    request: Request<Incoming>,
) -> Response<ProxyBody> {
    if let Some(ui) = &shared.config.ui
        && let Some(response) = serve_ui(ui, &request).await
    {
        return response;
    }
    let (parts, body) = request.into_parts();
    let wire = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) => {
            return proxy_error(
                StatusCode::BAD_REQUEST,
                &format!("the request body could not be read: {error}"),
            );
        }
    };
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |path| path.as_str())
        .to_string();
    let decoded = decode(&parts.headers, &wire);
    let json = decoded.as_ref().map_or(&wire[..], |(bytes, _)| &bytes[..]);
    let body_value = serde_json::from_slice::<Value>(json).ok();
    let thread_key = body_value
        .as_ref()
        .and_then(|body| body.get("prompt_cache_key"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            SESSION_HEADERS.iter().find_map(|name| {
                parts
                    .headers
                    .get(*name)
                    .and_then(|value| value.to_str().ok())
                    .map(str::to_string)
            })
        });
    let request_body = body_value.filter(|body| body.get("input").is_some_and(Value::is_array));
    let record = shared.recorder.begin(ArrivedRequest {
        thread_key,
        method: parts.method.as_str(),
        path: &path,
        headers: redacted_headers(&parts.headers),
        wire: &wire,
        decoded: decoded
            .as_ref()
            .map(|(bytes, extension)| (&bytes[..], *extension)),
        request_body,
        events: shared.events.clone(),
    });
    let mut record = match record {
        Ok(record) => record,
        Err(error) => {
            // Forwarding without recording would hide requests from the user who asked for
            // them: the client gets an error instead.
            tracing::warn!("{error}.");
            return proxy_error(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string());
        }
    };
    let mut outgoing = shared
        .client
        .request(parts.method.clone(), shared.config.upstream.join(&path))
        .body(wire);
    for (name, value) in &parts.headers {
        if !HOP_BY_HOP.contains(&name.as_str()) {
            outgoing = outgoing.header(name, value);
        }
    }
    let idle = shared.config.idle_timeout;
    let response = match tokio::time::timeout(idle, outgoing.send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => {
            let reason = format!("the upstream could not be reached: {}", error_chain(&error));
            return failed_before_head(record, StatusCode::BAD_GATEWAY, reason);
        }
        Err(_) => {
            let reason = format!(
                "the upstream sent no response head within {} s",
                idle.as_secs_f64()
            );
            return failed_before_head(record, StatusCode::GATEWAY_TIMEOUT, reason);
        }
    };
    let status = response.status();
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    // An event stream in an encoding the proxy cannot undo is recorded as it comes.
    let body_kind = match (
        header(hyper::header::CONTENT_TYPE)
            .is_some_and(|value| value.starts_with("text/event-stream")),
        StreamDecoder::for_encoding(header(hyper::header::CONTENT_ENCODING)),
    ) {
        (true, Some(decoder)) => BodyKind::EventStream(decoder),
        (true, None) | (false, _) => BodyKind::Other,
    };
    record.response(
        status.as_u16(),
        redacted_headers(response.headers()),
        body_kind,
        response.content_length(),
    );
    let mut relayed = Response::builder().status(status);
    for (name, value) in response.headers() {
        if !HOP_BY_HOP.contains(&name.as_str()) {
            relayed = relayed.header(name, value);
        }
    }
    let state = Relay {
        response: Some(response),
        record,
        status,
        idle,
    };
    let stream = futures_util::stream::unfold(state, relay_next);
    match relayed.body(BodyExt::boxed(StreamBody::new(stream))) {
        Ok(response) => response,
        Err(error) => proxy_error(StatusCode::BAD_GATEWAY, &error.to_string()),
    }
}

/// The state of one relayed body.
struct Relay {
    /// `None` once the body ended.
    response: Option<reqwest::Response>,
    record: ExchangeRecord,
    status: StatusCode,
    idle: Duration,
}

async fn relay_next(mut state: Relay) -> Option<(Result<Frame<Bytes>, BoxError>, Relay)> {
    let response = state.response.as_mut()?;
    let reason = match tokio::time::timeout(state.idle, response.chunk()).await {
        Ok(Ok(Some(chunk))) => {
            state.record.chunk(&chunk);
            return Some((Ok(Frame::data(chunk)), state));
        }
        Ok(Ok(None)) => match state.status.is_success() {
            true => None,
            false => Some(format!("the upstream answered {}", state.status)),
        },
        Ok(Err(error)) => Some(format!(
            "the upstream stream broke off: {}",
            error_chain(&error)
        )),
        Err(_) => Some(format!(
            "the upstream stream stalled for {} s",
            state.idle.as_secs_f64()
        )),
    };
    state.response = None;
    let failed = reason.clone();
    state.record.end(reason);
    match failed {
        // A body that ends with an error makes hyper close the connection without the
        // closing chunk, so the client sees the stream cut rather than a false end.
        Some(reason) if state.status.is_success() => Some((Err(reason.into()), state)),
        Some(_) | None => None,
    }
}

fn failed_before_head(
    mut record: ExchangeRecord,
    status: StatusCode,
    reason: String,
) -> Response<ProxyBody> {
    record.end(Some(reason.clone()));
    proxy_error(status, &reason)
}

/// The pages' answer when `request` is for a path under [`UI_PREFIX`] (or the prefix without
/// its slash, redirected); `None` for every other path, which is forwarded.
async fn serve_ui(ui: &SharedUiPages, request: &Request<Incoming>) -> Option<Response<ProxyBody>> {
    let path = request.uri().path();
    if path == UI_PREFIX.trim_end_matches('/') {
        let mut response = Response::new(full_body(Bytes::new()));
        *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
        response.headers_mut().insert(
            hyper::header::LOCATION,
            hyper::header::HeaderValue::from_static(UI_PREFIX),
        );
        return Some(response);
    }
    let rest = path.strip_prefix(UI_PREFIX)?.to_string();
    if request.method() != hyper::Method::GET {
        return Some(proxy_error(
            StatusCode::METHOD_NOT_ALLOWED,
            "the report pages answer GET only",
        ));
    }
    let pages = Arc::clone(ui);
    let answer = tokio::task::spawn_blocking(move || pages.get(&rest)).await;
    Some(match answer {
        Ok(Some(page)) => {
            let mut response = Response::new(full_body(Bytes::from(page.body)));
            let headers = response.headers_mut();
            headers.insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static(page.content_type),
            );
            headers.insert(
                hyper::header::CACHE_CONTROL,
                hyper::header::HeaderValue::from_static("no-store"),
            );
            response
        }
        Ok(None) => proxy_error(StatusCode::NOT_FOUND, "no such report page"),
        Err(error) => proxy_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("the report page could not be made: {error}"),
        ),
    })
}

fn full_body(bytes: Bytes) -> ProxyBody {
    BodyExt::boxed(Full::new(bytes).map_err(|never| match never {}))
}

/// An answer of the proxy's own: a JSON error in the Responses API's shape.
fn proxy_error(status: StatusCode, message: &str) -> Response<ProxyBody> {
    let body = serde_json::json!({
        "error": {
            "message": format!("codex-context proxy: {message}"),
            "type": "proxy_error",
        }
    });
    let mut response = Response::new(full_body(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// The body decoded when `Content-Encoding` is gzip or zstd, with the wire file's extension.
fn decode(headers: &HeaderMap, wire: &[u8]) -> Option<(Vec<u8>, &'static str)> {
    let encoding = headers
        .get(HeaderName::from_static("content-encoding"))?
        .to_str()
        .ok()?
        .trim()
        .to_ascii_lowercase();
    let decoded = match encoding.as_str() {
        "gzip" => {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(wire)
                .read_to_end(&mut out)
                .map(|_| (out, "gz"))
        }
        "zstd" => zstd::stream::decode_all(wire).map(|out| (out, "zst")),
        _ => return None,
    };
    match decoded {
        Ok(decoded) => Some(decoded),
        Err(error) => {
            tracing::warn!("A {encoding} request body could not be decoded: {error}.");
            None
        }
    }
}

/// An error with its causes, which name what really happened (refused, reset).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
