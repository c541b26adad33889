//! What a rebuilt request carries besides its input: the model, the instructions, the reasoning
//! effort and the tools. Rollouts record the base instructions (`session_meta`) and each turn's
//! model and effort (`turn_context`), not the tools, so tools are the built-in list of a catalog
//! model, or unknown. The recorded reasoning summary is not used: upstream writes `auto` there
//! whatever it sent (`to_turn_context_item` in `codex-rs/core/src/session/turn_context.rs`), so
//! the summary comes from the model's default.

use std::collections::HashMap;
use std::rc::Rc;

use codex_config::Features;
use codex_context_fragments::ContextualUserFragment;
use codex_core::BuiltinToolsConfig;
use codex_core::ModelProviderKind;
use codex_core::ParallelToolCalls;
use codex_core::ResponsesRequest;
use codex_core::ResponsesRequestInputs;
use codex_core::ToolSpec;
use codex_core::build_responses_request;
use codex_core::builtin_tools;
use codex_core::prepare_outgoing_items;
use codex_core::request_input_prefix;
use codex_fragments::compaction_prompt::CompactionPrompt;
use codex_models_manager::MetadataSource;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_prompts::TemplateSet;
use codex_protocol::ResponseItem;
use codex_protocol::SandboxPolicy;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ReasoningEffort;
use codex_protocol::rollout::TurnContextItem;
use codex_release::CodexRelease;

use super::InspectError;
use super::hollow::hollowed;
use super::json_len::json_string_len;
use super::json_len::serialized_len;
use super::model::ToolsOrigin;

/// Model name used when no `turn_context` precedes a request.
pub(super) const UNKNOWN_MODEL: &str = "unknown";

/// Everything a request is built from except its input.
#[derive(Debug)]
pub(super) struct RequestSetup {
    pub model: ModelInfo,
    pub tools: Vec<ToolSpec>,
    pub tools_origin: ToolsOrigin,
    /// The body of a request with no input: its `instructions` and `tools` fields.
    pub empty_body: ResponsesRequest,
    /// The items an input starts with when its history does not hold them (Responses Lite: the
    /// tool catalog and the base instructions; the base-instructions message of a release
    /// without an `instructions` field), before provider-specific rewriting.
    input_prefix: Vec<ResponseItem>,
    /// The recorded `turn_context.effort`; `None` sends the model's default.
    reasoning_effort: Option<ReasoningEffort>,
    base_instructions: String,
    thread_id: String,
    provider: ModelProviderKind,
    release: CodexRelease,
}

impl RequestSetup {
    fn inputs<'a>(&'a self, input: &'a [ResponseItem]) -> ResponsesRequestInputs<'a> {
        request_inputs(
            RequestFields {
                model: &self.model,
                tools: &self.tools,
                base_instructions: &self.base_instructions,
                thread_id: &self.thread_id,
                provider: self.provider,
                release: self.release,
            },
            self.reasoning_effort.clone(),
            input,
        )
    }

    /// The whole request body for `input` (history as recorded).
    pub fn build(&self, input: &[ResponseItem]) -> Result<ResponsesRequest, InspectError> {
        Ok(build_responses_request(self.inputs(input))?)
    }

    /// The body of a compaction's summary request for `input` (history as recorded): the
    /// compaction prompt appended (this project's: the rollout does not record the one sent),
    /// no tools, no parallel tool calls (see `codex_core::build_compaction_request`).
    pub fn build_compaction(
        &self,
        input: &[ResponseItem],
    ) -> Result<ResponsesRequest, InspectError> {
        let mut items = input.to_vec();
        items.push(CompactionPrompt::new(&TemplateSet::embedded()).into_response_item());
        let mut inputs = self.inputs(&items);
        inputs.tools = std::borrow::Cow::Borrowed(&[]);
        inputs.parallel_tool_calls = ParallelToolCalls::Disallowed;
        Ok(build_responses_request(inputs)?)
    }

    /// The items the request for `input` (history as recorded) starts with before `input`,
    /// before provider-specific rewriting: none when the history holds them already (a
    /// release that records the Responses Lite items).
    pub fn input_prefix(&self, input: &[ResponseItem]) -> &[ResponseItem] {
        if self
            .input_prefix
            .iter()
            .any(|item| matches!(item, ResponseItem::AdditionalTools { .. }))
            && input
                .iter()
                .any(|item| matches!(item, ResponseItem::AdditionalTools { .. }))
        {
            return &[];
        }
        &self.input_prefix
    }

    /// `item` as the provider receives it.
    pub fn prepare(&self, item: &ResponseItem) -> ResponseItem {
        let mut prepared = [item.clone()];
        prepare_outgoing_items(&mut prepared, &self.inputs(&[]));
        let [prepared] = prepared;
        prepared
    }

    /// Bytes of `item`'s JSON as the provider receives it. Rewriting for the provider never
    /// touches an item's texts, so they are measured where they are rather than copied with the
    /// item: one tool output can be tens of megabytes.
    pub fn sent_bytes(&self, item: &ResponseItem) -> usize {
        let (shell, texts) = hollowed(item);
        let mut prepared = [shell];
        prepare_outgoing_items(&mut prepared, &self.inputs(&[]));
        let [prepared] = &prepared;
        // The shell holds each text as `""`: add what the text's JSON adds to those two quotes.
        serialized_len(prepared)
            + texts
                .iter()
                .map(|text| json_string_len(text) - 2)
                .sum::<usize>()
    }
}

/// Setups by model, web-search mode and reasoning effort, built once each.
pub(super) struct RequestSetups<'c> {
    catalog: &'c ModelCatalog,
    base_instructions: String,
    thread_id: String,
    provider: ModelProviderKind,
    /// The release that wrote the rollout: the body shape rebuilt.
    release: CodexRelease,
    built: HashMap<SetupKey, Rc<RequestSetup>>,
}

impl<'c> RequestSetups<'c> {
    pub fn new(
        catalog: &'c ModelCatalog,
        base_instructions: String,
        thread_id: String,
        provider: ModelProviderKind,
        release: CodexRelease,
    ) -> Self {
        Self {
            catalog,
            base_instructions,
            thread_id,
            provider,
            release,
            built: HashMap::new(),
        }
    }

    /// The setup of a request made under `turn_context` (the newest one before it).
    pub fn get(
        &mut self,
        turn_context: Option<&TurnContextItem>,
    ) -> Result<Rc<RequestSetup>, InspectError> {
        let slug = turn_context.map_or(UNKNOWN_MODEL, |context| context.model.as_str());
        // Upstream searches live under full access and from its cache otherwise.
        let web_search_mode = match turn_context.map(|context| &context.sandbox_policy) {
            Some(SandboxPolicy::DangerFullAccess) => WebSearchMode::Live,
            Some(_) | None => WebSearchMode::Cached,
        };
        let reasoning_effort = turn_context.and_then(|context| context.effort.clone());
        let key = (slug.to_string(), web_search_mode, reasoning_effort.clone());
        if let Some(setup) = self.built.get(&key) {
            return Ok(Rc::clone(setup));
        }
        let resolved = self.catalog.lookup(slug);
        // Rollouts do not record features: upstream's defaults. `inspect` takes no template
        // overlay, so the tools are rebuilt from the bundled templates, for the release the
        // rollout is rebuilt as.
        let tools = builtin_tools(
            &BuiltinToolsConfig::for_release(
                &resolved.info,
                web_search_mode,
                &Features::default(),
                self.release.profile(),
            ),
            &TemplateSet::embedded(),
        )?;
        let tools_origin = match resolved.source {
            MetadataSource::Catalog { .. } => ToolsOrigin::RebuiltBuiltin,
            MetadataSource::Fallback => ToolsOrigin::RebuiltFallback,
        };
        let fields = RequestFields {
            model: &resolved.info,
            tools: &tools,
            base_instructions: &self.base_instructions,
            thread_id: &self.thread_id,
            provider: self.provider,
            release: self.release,
        };
        let empty_inputs = request_inputs(fields, reasoning_effort.clone(), &[]);
        let input_prefix = request_input_prefix(empty_inputs.prefix_inputs(), &[])?;
        let empty_body = build_responses_request(empty_inputs)?;
        let setup = Rc::new(RequestSetup {
            model: resolved.info,
            tools,
            tools_origin,
            empty_body,
            input_prefix,
            reasoning_effort,
            base_instructions: self.base_instructions.clone(),
            thread_id: self.thread_id.clone(),
            provider: self.provider,
            release: self.release,
        });
        self.built.insert(key, Rc::clone(&setup));
        Ok(setup)
    }
}

/// What a setup is cached under: the model slug, the web-search mode and the recorded effort.
type SetupKey = (String, WebSearchMode, Option<ReasoningEffort>);

/// What every request of one setup shares.
#[derive(Clone, Copy)]
struct RequestFields<'a> {
    model: &'a ModelInfo,
    tools: &'a [ToolSpec],
    base_instructions: &'a str,
    thread_id: &'a str,
    provider: ModelProviderKind,
    release: CodexRelease,
}

fn request_inputs<'a>(
    fields: RequestFields<'a>,
    reasoning_effort: Option<ReasoningEffort>,
    input: &'a [ResponseItem],
) -> ResponsesRequestInputs<'a> {
    let mut inputs = ResponsesRequestInputs::new(
        fields.model,
        fields.base_instructions,
        input,
        fields.tools,
        fields.thread_id,
    );
    inputs.provider = fields.provider;
    inputs.reasoning_effort = reasoning_effort;
    inputs.release = fields.release;
    inputs
}

#[cfg(test)]
mod tests {
    use codex_protocol::ContentItem;
    use codex_protocol::FunctionCallOutputBody;
    use codex_protocol::FunctionCallOutputPayload;
    use codex_protocol::models::FunctionCallOutputContentItem;
    use codex_protocol::models::ReasoningItemContent;
    use codex_protocol::models::ReasoningItemReasoningSummary;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn text_with_escapes() -> String {
        "line one\n\"quoted\" \\ tab\there \u{1F600} \u{0007} end".repeat(3)
    }

    #[test]
    fn sent_bytes_measure_the_item_as_the_provider_receives_it() {
        let catalog = ModelCatalog::bundled().expect("bundled catalog");
        let text = text_with_escapes();
        let outputs = [
            ResponseItem::FunctionCallOutput {
                id: Some("not-a-prefixed-id".to_string()),
                call_id: Some("call_1".to_string()),
                name: Some("shell".to_string()),
                namespace: None,
                output: FunctionCallOutputPayload {
                    body: FunctionCallOutputBody::Text(text.clone()),
                    success: Some(true),
                },
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::CustomToolCallOutput {
                id: Some("ctco_1".to_string()),
                call_id: "call_2".to_string(),
                name: None,
                output: FunctionCallOutputPayload::from_text(text),
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::FunctionCallOutput {
                id: None,
                call_id: Some("call_3".to_string()),
                name: None,
                namespace: None,
                output: FunctionCallOutputPayload {
                    body: FunctionCallOutputBody::ContentItems(vec![
                        FunctionCallOutputContentItem::InputText {
                            text: "parts".to_string(),
                        },
                    ]),
                    success: None,
                },
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::message("user", vec![ContentItem::input_text("hi")]),
            ResponseItem::Message {
                encrypted_content: Some(text_with_escapes()),
                status: Some("completed".to_string()),
                id: Some("msg_1".to_string()),
                role: "assistant".to_string(),
                content: vec![
                    ContentItem::OutputText {
                        text: text_with_escapes(),
                        annotations: Some(vec![json!({"type": "url"})]),
                        logprobs: None,
                    },
                    ContentItem::input_text(text_with_escapes()),
                ],
                phase: None,
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::Reasoning {
                id: Some("rs_1".to_string()),
                summary: vec![ReasoningItemReasoningSummary::SummaryText {
                    text: text_with_escapes(),
                }],
                content: Some(vec![
                    ReasoningItemContent::ReasoningText {
                        text: text_with_escapes(),
                    },
                    ReasoningItemContent::Text {
                        text: text_with_escapes(),
                    },
                ]),
                encrypted_content: Some("gAAAA+/=".repeat(40)),
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::FunctionCall {
                encrypted_content: None,
                status: None,
                id: Some("fc_1".to_string()),
                name: "exec_command".to_string(),
                namespace: Some("shell".to_string()),
                arguments: json!({"cmd": text_with_escapes()}).to_string(),
                encrypted_function_args: Some(vec!["sealed".to_string()]),
                call_id: "call_4".to_string(),
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::CustomToolCall {
                encrypted_content: Some("sealed".to_string()),
                id: None,
                status: Some("completed".to_string()),
                call_id: "call_5".to_string(),
                name: "apply_patch".to_string(),
                namespace: None,
                input: text_with_escapes(),
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseItem::Compaction {
                id: Some("cmp_1".to_string()),
                encrypted_content: text_with_escapes(),
                internal_chat_message_metadata_passthrough: None,
            },
        ];
        for provider in [ModelProviderKind::OpenAi, ModelProviderKind::Other] {
            for release in [CodexRelease::V0_149, CodexRelease::V0_171] {
                let mut setups = RequestSetups::new(
                    &catalog,
                    "base".to_string(),
                    "thread".to_string(),
                    provider,
                    release,
                );
                let setup = setups.get(None).expect("setup");
                let measured: Vec<usize> =
                    outputs.iter().map(|item| setup.sent_bytes(item)).collect();
                let expected: Vec<usize> = outputs
                    .iter()
                    .map(|item| serialized_len(&setup.prepare(item)))
                    .collect();
                assert_eq!(measured, expected, "{provider:?} {release:?}");
            }
        }
        // The id without a prefix is not sent: the measure is not the recorded item's.
        let setup = RequestSetups::new(
            &catalog,
            "base".to_string(),
            "thread".to_string(),
            ModelProviderKind::OpenAi,
            CodexRelease::V0_171,
        )
        .get(None)
        .expect("setup");
        assert!(setup.sent_bytes(&outputs[0]) < serialized_len(&outputs[0]));
    }
}
