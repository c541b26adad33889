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
