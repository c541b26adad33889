//! Responses stream events: the JSON `data` of one SSE event turned into a [`ResponseEvent`] or
//! the error it reports.

use codex_protocol::ResponseItem;
use serde::Deserialize;

use super::config::ApiKey;
use super::error::ClientError;
use super::error::FailureCode;
use super::retry::try_again_in;
use super::usage::WireUsage;
use codex_protocol::rollout::TokenUsage;

/// One event of a response stream.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseEvent {
    /// `response.created`.
    Created { response_id: Option<String> },
    /// `response.output_item.added`: an item started (its content may still be empty).
    OutputItemAdded(ResponseItem),
    /// `response.output_item.done`: a finished output item, to be recorded into history.
    OutputItemDone(ResponseItem),
    /// `response.output_text.delta`.
    OutputTextDelta { delta: String },
    /// `response.custom_tool_call_input.delta`.
    CustomToolCallInputDelta { delta: String },
    /// `response.reasoning_summary_text.delta`.
    ReasoningSummaryDelta { delta: String, summary_index: i64 },
    /// `response.reasoning_summary_part.added`.
    ReasoningSummaryPartAdded { summary_index: i64 },
    /// `response.reasoning_text.delta`.
    ReasoningContentDelta { delta: String, content_index: i64 },
    /// `response.completed`: the last event of a successful stream.
    Completed {
        response_id: String,
        token_usage: Option<TokenUsage>,
        end_turn: Option<bool>,
    },
}

/// What one SSE payload means to the stream.
#[derive(Debug)]
pub(crate) enum ParsedEvent {
    Event(ResponseEvent),
    /// `response.failed`, `response.incomplete`, or a `response.completed` without an id.
    Error(ClientError),
    /// Not JSON, an event type this client does not use, or an event without its payload.
    Ignored,
}

#[derive(Debug, Deserialize)]
struct WireEvent {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    response: Option<serde_json::Value>,
    #[serde(default)]
    item: Option<serde_json::Value>,
    #[serde(default)]
    delta: Option<String>,
    #[serde(default)]
    summary_index: Option<i64>,
    #[serde(default)]
    content_index: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct WireCompleted {
    id: String,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    end_turn: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
struct WireError {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// Parses one event's data. Server text that ends up in an error is scrubbed of `api_key`.
pub(crate) fn parse_event(data: &str, api_key: &ApiKey) -> ParsedEvent {
    let event: WireEvent = match serde_json::from_str(data) {
        Ok(event) => event,
        Err(error) => {
            tracing::debug!(%error, "skipping SSE data that is not a Responses event");
            return ParsedEvent::Ignored;
        }
    };
    let delta_event = |make: fn(String) -> ResponseEvent| match event.delta.clone() {
        Some(delta) => ParsedEvent::Event(make(delta)),
        None => ParsedEvent::Ignored,
    };
    match event.kind.as_str() {
        "response.created" => ParsedEvent::Event(ResponseEvent::Created {
            response_id: event
                .response
                .as_ref()
                .and_then(|response| response.get("id"))
                .and_then(serde_json::Value::as_str)
                .map(str::to_string),
        }),
        "response.output_item.added" => item_event(event.item, ResponseEvent::OutputItemAdded),
        "response.output_item.done" => item_event(event.item, ResponseEvent::OutputItemDone),
        "response.output_text.delta" => {
            delta_event(|delta| ResponseEvent::OutputTextDelta { delta })
        }
        "response.custom_tool_call_input.delta" => {
            delta_event(|delta| ResponseEvent::CustomToolCallInputDelta { delta })
        }
        "response.reasoning_summary_text.delta" => match (event.delta, event.summary_index) {
            (Some(delta), Some(summary_index)) => {
                ParsedEvent::Event(ResponseEvent::ReasoningSummaryDelta {
                    delta,
                    summary_index,
                })
            }
            (None, _) | (_, None) => ParsedEvent::Ignored,
        },
        "response.reasoning_summary_part.added" => match event.summary_index {
            Some(summary_index) => {
                ParsedEvent::Event(ResponseEvent::ReasoningSummaryPartAdded { summary_index })
            }
            None => ParsedEvent::Ignored,
        },
        "response.reasoning_text.delta" => match (event.delta, event.content_index) {
            (Some(delta), Some(content_index)) => {
                ParsedEvent::Event(ResponseEvent::ReasoningContentDelta {
                    delta,
                    content_index,
                })
            }
            (None, _) | (_, None) => ParsedEvent::Ignored,
        },
        "response.completed" => {
            let completed = event
                .response
                .ok_or_else(|| "missing `response`".to_string())
                .and_then(|response| {
                    serde_json::from_value::<WireCompleted>(response)
                        .map_err(|error| error.to_string())
                });
            match completed {
                Ok(completed) => ParsedEvent::Event(ResponseEvent::Completed {
                    response_id: completed.id,
                    token_usage: completed.usage.map(TokenUsage::from),
                    end_turn: completed.end_turn,
                }),
                Err(reason) => ParsedEvent::Error(ClientError::InvalidEvent {
                    event_type: "response.completed".to_string(),
                    reason,
                }),
            }
        }
        "response.failed" => {
            let error: WireError = event
                .response
                .and_then(|mut response| response.get_mut("error").map(serde_json::Value::take))
                .and_then(|error| serde_json::from_value(error).ok())
                .unwrap_or_default();
            let message = api_key.scrub(
                error
                    .message
                    .as_deref()
                    .unwrap_or("response.failed event received"),
            );
            let code = FailureCode::from_code(error.code.as_deref());
            // Only transient failures carry a useful "try again in" hint.
            let retry_after = code
                .is_retryable()
                .then(|| try_again_in(&message))
                .flatten();
            ParsedEvent::Error(ClientError::ResponseFailed {
                code,
                message,
                retry_after,
            })
        }
        "response.incomplete" => ParsedEvent::Error(ClientError::Incomplete {
            reason: event
                .response
                .as_ref()
                .and_then(|response| response.pointer("/incomplete_details/reason"))
                .and_then(serde_json::Value::as_str)
                .map_or_else(|| "unknown".to_string(), |reason| api_key.scrub(reason)),
        }),
        _ => ParsedEvent::Ignored,
    }
}

/// An output item event. An item this client cannot read is skipped with a warning rather than
/// failing the whole response (the protocol's item type keeps unknown kinds, so this only happens
/// for malformed known ones).
fn item_event(
    item: Option<serde_json::Value>,
    make: fn(ResponseItem) -> ResponseEvent,
) -> ParsedEvent {
    let Some(item) = item else {
        return ParsedEvent::Ignored;
    };
    match serde_json::from_value::<ResponseItem>(item) {
        Ok(item) => ParsedEvent::Event(make(item)),
        Err(error) => {
            tracing::warn!("an output item does not parse and is skipped: {error}");
            ParsedEvent::Ignored
        }
    }
}
