//! `build_responses_request`: one model request from the prompt, the model and the session ids.

use std::borrow::Cow;

use codex_protocol::ContentItem;
use codex_protocol::FunctionCallOutputBody;
use codex_protocol::FunctionCallOutputContentItem;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ImageDetail;
use codex_protocol::ReasoningSummary;
use codex_protocol::ResponseItem;
use codex_protocol::Verbosity;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ReasoningEffort;

use super::body::INCLUDE_REASONING_ENCRYPTED_CONTENT;
use super::body::OUTPUT_SCHEMA_FORMAT_NAME;
use super::body::Reasoning;
use super::body::ReasoningContext;
use super::body::ResponsesRequest;
use super::body::TextControls;
use super::body::TextFormat;
use super::body::TextFormatType;
use super::body::ToolChoice;
use super::client_metadata::ClientMetadata;
use super::lite::LitePrefixIds;
use super::lite::LiteToolCatalog;
use super::prefix::InstructionsCarrier;
use super::prefix::RequestPrefixInputs;
use super::prefix::instructions_carrier;
use super::prefix::request_input_prefix;
use codex_tools::ToolSpec;

/// Which provider family receives the request. Upstream sends its internal item metadata only to
/// OpenAI; every other provider gets items without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ModelProviderKind {
    #[default]
    OpenAi,
    Other,
}

impl ModelProviderKind {
    /// `openai` (any case) is OpenAI; every other configured provider id is not.
    pub fn from_provider_id(provider_id: &str) -> Self {
        if provider_id.eq_ignore_ascii_case("openai") {
            Self::OpenAi
        } else {
            Self::Other
        }
    }
}

/// Whether `content_item_kinds` stays in outgoing item metadata (feature switch; upstream's
/// captured requests carry only `turn_id` and `create_time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ContentItemKindsPolicy {
    #[default]
    Strip,
    Keep,
}

/// Whether the prompt allows parallel tool calls (turn requests do; compaction requests do not).
/// Responses Lite always sends `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParallelToolCalls {
    #[default]
    Allowed,
    Disallowed,
}

/// Whether the server must follow the output schema exactly (`text.format.strict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputSchemaStrictness {
    #[default]
    Strict,
    Lax,
}

/// Everything one request is built from. [`ResponsesRequestInputs::new`] fills the defaults of a
/// plain turn on the OpenAI provider; override fields as needed.
#[derive(Debug, Clone)]
pub struct ResponsesRequestInputs<'a> {
    pub model: &'a ModelInfo,
    pub base_instructions: &'a str,
    /// History plus this turn's new items, in order. Borrowed items are copied into the body;
    /// owned ones (see [`ResponsesRequestInputs::with_owned_input`]) are moved.
    pub input: Cow<'a, [ResponseItem]>,
    /// Borrowed tools are copied into the body; owned ones (see
    /// [`ResponsesRequestInputs::with_owned_tools`]) are moved, which spares a deep copy of every
    /// JSON schema per request.
    pub tools: Cow<'a, [ToolSpec]>,
    pub parallel_tool_calls: ParallelToolCalls,
    /// Requested effort; `None` uses the model's default.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Configured summary; `None` uses the model's default.
    pub reasoning_summary: Option<ReasoningSummary>,
    /// Configured verbosity; `None` uses the model's default.
    pub verbosity: Option<Verbosity>,
    pub output_schema: Option<&'a serde_json::Value>,
    pub output_schema_strictness: OutputSchemaStrictness,
    pub service_tier: Option<String>,
    pub thread_id: &'a str,
    /// Overrides the cache key, which is otherwise the thread id.
    pub prompt_cache_key: Option<String>,
    pub client_metadata: Option<ClientMetadata>,
    pub provider: ModelProviderKind,
    pub content_item_kinds: ContentItemKindsPolicy,
    pub lite_tool_catalog: LiteToolCatalog,
    /// Whether the spliced Lite prefix items carry ids (when the release splices them).
    pub lite_prefix_ids: LitePrefixIds,
    /// The release whose body shape is built (the reference commit's,
    /// `CodexRelease::REFERENCE`, unless set).
    pub release: codex_release::CodexRelease,
}

impl<'a> ResponsesRequestInputs<'a> {
    pub fn new(
        model: &'a ModelInfo,
        base_instructions: &'a str,
        input: &'a [ResponseItem],
        tools: &'a [ToolSpec],
        thread_id: &'a str,
    ) -> Self {
        Self {
            model,
            base_instructions,
            input: Cow::Borrowed(input),
            tools: Cow::Borrowed(tools),
            parallel_tool_calls: ParallelToolCalls::default(),
            reasoning_effort: None,
            reasoning_summary: None,
            verbosity: None,
            output_schema: None,
            output_schema_strictness: OutputSchemaStrictness::default(),
            service_tier: None,
            thread_id,
            prompt_cache_key: None,
            client_metadata: None,
            provider: ModelProviderKind::default(),
            content_item_kinds: ContentItemKindsPolicy::default(),
            lite_tool_catalog: LiteToolCatalog::default(),
            lite_prefix_ids: LitePrefixIds::default(),
            release: codex_release::CodexRelease::REFERENCE,
        }
    }
}

impl ResponsesRequestInputs<'_> {
    /// Hands the request its own input items, moved into the body instead of copied.
    pub fn with_owned_input(mut self, input: Vec<ResponseItem>) -> Self {
        self.input = Cow::Owned(input);
        self
    }

    /// What [`request_input_prefix`] needs of these inputs.
    pub fn prefix_inputs(&self) -> RequestPrefixInputs<'_> {
        RequestPrefixInputs {
            release: self.release,
            use_responses_lite: self.model.use_responses_lite,
            thread_id: self.thread_id,
            tools: &self.tools,
            lite_tool_catalog: self.lite_tool_catalog,
            lite_prefix_ids: self.lite_prefix_ids,
            base_instructions: self.base_instructions,
        }
    }

    /// Hands the request its own tool list, moved into the body instead of copied.
    pub fn with_owned_tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = Cow::Owned(tools);
        self
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RequestBuildError {
    #[error("could not serialize the tool catalog: {0}")]
    ToolCatalog(#[source] serde_json::Error),
}

/// Builds the request body as upstream's `build_responses_request`
/// (`codex-rs/core/src/client.rs`) does, splicing tools and instructions into `input` for
/// models with `use_responses_lite`, and the base instructions too where the release sends no
/// `instructions` field (see [`request_input_prefix`]).
pub fn build_responses_request(
    mut inputs: ResponsesRequestInputs<'_>,
) -> Result<ResponsesRequest, RequestBuildError> {
    let model = inputs.model;
    let lite = model.use_responses_lite;
    let mut input = Vec::with_capacity(inputs.input.len() + 2);
    input.extend(
        request_input_prefix(inputs.prefix_inputs(), &inputs.input)
            .map_err(RequestBuildError::ToolCatalog)?,
    );
    input.extend(std::mem::take(&mut inputs.input).into_owned());
    for item in &mut input {
        prepare_outgoing_item(item, &inputs);
    }

    let summary = inputs
        .reasoning_summary
        .unwrap_or(model.default_reasoning_summary);
    let reasoning = Reasoning {
        effort: inputs
            .reasoning_effort
            .clone()
            .or_else(|| model.default_reasoning_level.clone()),
        summary: (model.supports_reasoning_summary_parameter && summary != ReasoningSummary::None)
            .then_some(summary),
        context: lite.then_some(ReasoningContext::AllTurns),
    };

    let verbosity = if model.support_verbosity {
        inputs.verbosity.or(model.default_verbosity)
    } else {
        if inputs.verbosity.is_some() {
            tracing::warn!(
                "verbosity is configured but model `{}` does not support it, so it is left out",
                model.slug
            );
        }
        None
    };
    let format = inputs.output_schema.map(|schema| TextFormat {
        format_type: TextFormatType::JsonSchema,
        strict: match inputs.output_schema_strictness {
            OutputSchemaStrictness::Strict => true,
            OutputSchemaStrictness::Lax => false,
        },
        schema: schema.clone(),
        name: OUTPUT_SCHEMA_FORMAT_NAME.to_string(),
    });
    let text =
        (verbosity.is_some() || format.is_some()).then_some(TextControls { verbosity, format });

    Ok(ResponsesRequest {
        model: model.slug.clone(),
        instructions: match instructions_carrier(inputs.release, lite) {
            InstructionsCarrier::Field => inputs.base_instructions.to_string(),
            InstructionsCarrier::Input => String::new(),
        },
        input,
        tools: (!lite).then(|| inputs.tools.into_owned()),
        tool_choice: ToolChoice::Auto,
        parallel_tool_calls: !lite && inputs.parallel_tool_calls == ParallelToolCalls::Allowed,
        reasoning,
        store: false,
        stream: true,
        stream_options: None,
        include: vec![INCLUDE_REASONING_ENCRYPTED_CONTENT.to_string()],
        service_tier: inputs.service_tier.clone(),
        prompt_cache_key: Some(
            inputs
                .prompt_cache_key
                .clone()
                .unwrap_or_else(|| inputs.thread_id.to_string()),
        ),
        text,
        client_metadata: inputs.client_metadata.clone(),
        stream_key: inputs.release.profile().stream_key,
    })
}

/// The per-item part of [`build_responses_request`]: rewrites history items in place into what
/// the provider receives, for callers that assemble or analyse an input piece by piece.
pub fn prepare_outgoing_items(items: &mut [ResponseItem], inputs: &ResponsesRequestInputs<'_>) {
    for item in items {
        prepare_outgoing_item(item, inputs);
    }
}

/// Rewrites one item into what the provider receives: image detail the model cannot use,
/// unprefixed ids, and metadata the provider must not see are removed.
fn prepare_outgoing_item(item: &mut ResponseItem, inputs: &ResponsesRequestInputs<'_>) {
    let model = inputs.model;
    // Lite models choose image detail themselves; other models lose only `original` when they
    // cannot honour it.
    let rewrite_detail = |detail: &mut Option<ImageDetail>| {
        if model.use_responses_lite {
            *detail = None;
        } else if *detail == Some(ImageDetail::Original) && !model.supports_image_detail_original {
            *detail = Some(ImageDetail::default());
        }
    };
    match item {
        ResponseItem::Message { content, .. } => {
            for part in content {
                if let ContentItem::InputImage { detail, .. } = part {
                    rewrite_detail(detail);
                }
            }
        }
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            if let FunctionCallOutputPayload {
                body: FunctionCallOutputBody::ContentItems(parts),
                ..
            } = output
            {
                for part in parts {
                    if let FunctionCallOutputContentItem::InputImage { detail, .. } = part {
                        rewrite_detail(detail);
                    }
                }
            }
        }
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => {}
    }

    // The server accepts only its own prefixed id forms (`msg_…`, `fc_…`, `at_…`); anything else
    // (e.g. a bare UUID from an old rollout) is dropped rather than rejected by the API.
    let id_slot = match item {
        ResponseItem::Message { id, .. }
        | ResponseItem::Reasoning { id, .. }
        | ResponseItem::LocalShellCall { id, .. }
        | ResponseItem::FunctionCall { id, .. }
        | ResponseItem::FunctionCallOutput { id, .. }
        | ResponseItem::CustomToolCall { id, .. }
        | ResponseItem::CustomToolCallOutput { id, .. }
        | ResponseItem::WebSearchCall { id, .. }
        | ResponseItem::Compaction { id, .. }
        | ResponseItem::AdditionalTools { id, .. } => Some(id),
        ResponseItem::Other(_) => None,
    };
    if let Some(id) = id_slot {
        let prefixed = id.as_deref().is_some_and(|id| {
            id.split_once('_').is_some_and(|(prefix, rest)| {
                !prefix.is_empty()
                    && !rest.is_empty()
                    && prefix
                        .bytes()
                        .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
            })
        });
        if !prefixed {
            *id = None;
        }
    }

    match inputs.provider {
        ModelProviderKind::OpenAi => {
            if let Some(slot) = item.metadata_slot_mut() {
                if inputs.content_item_kinds == ContentItemKindsPolicy::Strip
                    && let Some(metadata) = slot.as_mut()
                {
                    metadata.content_item_kinds = None;
                }
                if slot.as_ref().is_some_and(|metadata| metadata.is_empty()) {
                    *slot = None;
                }
            }
        }
        ModelProviderKind::Other => {
            if let Some(slot) = item.metadata_slot_mut() {
                *slot = None;
            }
            if let ResponseItem::FunctionCall {
                encrypted_function_args,
                ..
            } = item
            {
                *encrypted_function_args = None;
            }
        }
    }
}
