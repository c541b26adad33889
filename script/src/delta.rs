//! The delta view of a scripted session's requests (`session run --format delta`): one JSON line
//! per request with only what it adds to the request before it, so the output grows with the
//! session instead of with the session's square.

use codex_core::ResponsesRequest;
use codex_protocol::ResponseItem;
use serde::Serialize;
use serde_json::Map;
use serde_json::Value;
use sha1::Digest as _;
use sha1::Sha1;

use super::ScriptRequest;

/// One line of the delta view: what request number `request` sends beyond the request before
/// it. Its keys come in the order written here; `fields` keeps the body's own key order. The same
/// requests always give the same bytes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestDelta {
    /// The request's 1-based number in the run.
    pub request: usize,
    /// The 1-based position in the thread of the turn that sent it.
    pub turn: usize,
    /// The sampling step within the turn, from 1 (a turn whose response calls tools samples
    /// again).
    pub step: usize,
    /// The leading `input` items this request shares with the previous request's `input`.
    pub shared_prefix: SharedPrefix,
    /// How this `input` continues the previous one.
    pub previous_input: PreviousInput,
    /// The `input` items after the shared prefix, as the body carries them.
    pub new_items: Vec<ResponseItem>,
    /// The body's fields other than `input` (instructions, tools, model, reasoning, …): all of
    /// them on the first request, afterwards only those whose value changed, in body order.
    pub fields: Map<String, Value>,
    /// Fields the previous body had and this one has not; left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_fields: Vec<String>,
}

/// The part of `input` a request shares with the request before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SharedPrefix {
    /// How many leading items are equal in both.
    pub items: usize,
    /// The length of those items written as JSON lines: each item's compact JSON followed by a
    /// newline (what `jq -c '.input[:ITEMS][]'` prints for the body).
    pub bytes: usize,
    /// The SHA-1 of those bytes, in lowercase hex (of no bytes for an empty prefix).
    pub sha1: String,
}

/// How a request's `input` continues the previous request's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PreviousInput {
    /// The first request: there is no previous input.
    None,
    /// The previous input is a prefix of this one: `new_items` were appended to it.
    Extended,
    /// The previous input is not a prefix of this one (a compaction or a rollback rewrote the
    /// history): only its first `shared_prefix.items` items are kept, the `replaced_items`
    /// after them were replaced by `new_items`.
    Rewritten {
        /// Items of the previous input after the shared prefix.
        replaced_items: usize,
    },
}

/// Turns each request into its [`RequestDelta`] against the one before; it keeps the previous
/// request's input, its other fields and the digest of its input, nothing older.
#[derive(Debug, Default)]
pub(crate) struct DeltaTracker {
    requests: usize,
    previous_input: Vec<ResponseItem>,
    /// `None` before the first request.
    previous_fields: Option<Map<String, Value>>,
    /// SHA-1 state and byte count of `previous_input` written as JSON lines.
    previous_digest: InputDigest,
}

/// A running SHA-1 and byte count over items written as JSON lines.
#[derive(Debug, Clone, Default)]
struct InputDigest {
    hasher: Sha1,
    bytes: usize,
}

impl InputDigest {
    fn push(&mut self, item: &ResponseItem) -> Result<(), serde_json::Error> {
        let mut line = serde_json::to_vec(item)?;
        line.push(b'\n');
        self.hasher.update(&line);
        self.bytes += line.len();
        Ok(())
    }

    fn hex(&self) -> String {
        self.hasher
            .clone()
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

impl DeltaTracker {
    /// The delta of `request`, the run's next request, against the one given before it.
    pub(crate) fn next(
        &mut self,
        request: &ScriptRequest,
    ) -> Result<RequestDelta, serde_json::Error> {
        let body = &request.body;
        let shared = self
            .previous_input
            .iter()
            .zip(&body.input)
            .take_while(|(before, now)| before == now)
            .count();
        let previous_input = match (&self.previous_fields, shared == self.previous_input.len()) {
            (None, _) => PreviousInput::None,
            (Some(_), true) => PreviousInput::Extended,
            (Some(_), false) => PreviousInput::Rewritten {
                replaced_items: self.previous_input.len() - shared,
            },
        };
        let mut digest = match previous_input {
            PreviousInput::None | PreviousInput::Extended => self.previous_digest.clone(),
            PreviousInput::Rewritten { .. } => {
                let mut digest = InputDigest::default();
                for item in &body.input[..shared] {
                    digest.push(item)?;
                }
                digest
            }
        };
        let shared_prefix = SharedPrefix {
            items: shared,
            bytes: digest.bytes,
            sha1: digest.hex(),
        };
        let new_items = &body.input[shared..];
        for item in new_items {
            digest.push(item)?;
        }
        let fields = fields_besides_input(body)?;
        let (changed, removed_fields) = match &self.previous_fields {
            None => (fields.clone(), Vec::new()),
            Some(previous) => (
                fields
                    .iter()
                    .filter(|(key, value)| previous.get(key.as_str()) != Some(value))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect(),
                previous
                    .keys()
                    .filter(|key| !fields.contains_key(key.as_str()))
                    .cloned()
                    .collect(),
            ),
        };
        self.requests += 1;
        self.previous_input.truncate(shared);
        self.previous_input.extend_from_slice(new_items);
        self.previous_fields = Some(fields);
        self.previous_digest = digest;
        Ok(RequestDelta {
            request: self.requests,
            turn: request.turn + 1,
            step: request.step + 1,
            shared_prefix,
            previous_input,
            new_items: new_items.to_vec(),
            fields: changed,
            removed_fields,
        })
    }
}

/// The fields of `body` other than `input`, in body order, without copying the input.
fn fields_besides_input(body: &ResponsesRequest) -> Result<Map<String, Value>, serde_json::Error> {
    // Naming every field (no `..`) makes a new body field a compile error here.
    let ResponsesRequest {
        model,
        instructions,
        input: _,
        tools,
        tool_choice,
        parallel_tool_calls,
        reasoning,
        store,
        stream,
        stream_options,
        include,
        service_tier,
        prompt_cache_key,
        text,
        client_metadata,
        stream_key,
    } = body;
    let without_input = ResponsesRequest {
        model: model.clone(),
        instructions: instructions.clone(),
        input: Vec::new(),
        tools: tools.clone(),
        tool_choice: *tool_choice,
        parallel_tool_calls: *parallel_tool_calls,
        reasoning: reasoning.clone(),
        store: *store,
        stream: *stream,
        stream_options: stream_options.clone(),
        include: include.clone(),
        service_tier: service_tier.clone(),
        prompt_cache_key: prompt_cache_key.clone(),
        text: text.clone(),
        client_metadata: client_metadata.clone(),
        stream_key: *stream_key,
    };
    let mut fields = match serde_json::to_value(&without_input)? {
        Value::Object(fields) => fields,
        _ => Map::new(),
    };
    fields.shift_remove("input");
    Ok(fields)
}
