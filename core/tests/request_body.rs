//! Request bodies built by `build_responses_request`: snapshots, field order, Responses Lite,
//! provider stripping, determinism and `CreateResponse` shape.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod request_support;

use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::ContentItemKindsPolicy;
use codex_core::LitePrefixIds;
use codex_core::LiteToolCatalog;
use codex_core::ModelProviderKind;
use codex_core::OutputSchemaStrictness;
use codex_core::ParallelToolCalls;
use codex_core::ResponsesRequest;
use codex_core::ResponsesRequestInputs;
use codex_core::ToolSpec;
use codex_core::build_responses_request;
use codex_core::builtin_tools;
use codex_core::lite_prefix_items;
use codex_fragments::base_instructions::BASE_INSTRUCTIONS as BASE_INSTRUCTIONS_SPEC;
use codex_fragments::classify;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::ImageDetail;
use codex_protocol::ImageReference;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ReasoningSummary;
use codex_protocol::ResponseItem;
use codex_protocol::Verbosity;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ReasoningEffort;
use pretty_assertions::assert_eq;
use request_support::BASE_INSTRUCTIONS;
use request_support::SessionIds;
use request_support::first_turn_input;
use request_support::lite_model;
use request_support::seeded;
use request_support::standard_model;
use request_support::top_level_keys;
use request_support::validator::validate_create_response;
use serde_json::Value;
use serde_json::json;

fn tools_for(model: &ModelInfo) -> Vec<ToolSpec> {
    builtin_tools(
        &BuiltinToolsConfig::for_model(model, WebSearchMode::Cached, &Features::default()),
        &codex_prompts::TemplateSet::embedded(),
    )
    .expect("tools")
}

/// A whole first-turn request for `model` from a generator seeded with `seed`, as pretty JSON.
fn first_turn_body(model: &ModelInfo, seed: u64) -> String {
    let ids = seeded(seed);
    let session = SessionIds::draw(&ids);
    let input = first_turn_input(&ids, &session.turn_id);
    let tools = tools_for(model);
    let mut inputs =
        ResponsesRequestInputs::new(model, BASE_INSTRUCTIONS, &input, &tools, &session.thread_id);
    inputs.client_metadata = Some(session.client_metadata(&ids));
    let request = build_responses_request(inputs).expect("request");
    serde_json::to_string_pretty(&request).expect("serialize")
}

fn build(inputs: ResponsesRequestInputs<'_>) -> Value {
    serde_json::to_value(build_responses_request(inputs).expect("request")).expect("serialize")
}

#[test]
fn standard_model_body_snapshot() {
    insta::assert_snapshot!(first_turn_body(&standard_model(), 7));
}

#[test]
fn responses_lite_body_snapshot() {
    insta::assert_snapshot!(first_turn_body(&lite_model(), 7));
}

#[test]
fn top_level_fields_follow_upstream_order() {
    let standard: Value = serde_json::from_str(&first_turn_body(&standard_model(), 1)).unwrap();
    assert_eq!(
        top_level_keys(&standard),
        [
            "model",
            "instructions",
            "input",
            "tools",
            "tool_choice",
            "parallel_tool_calls",
            "reasoning",
            "store",
            "stream",
            "include",
            "prompt_cache_key",
            "text",
            "client_metadata",
        ]
    );
    let lite: Value = serde_json::from_str(&first_turn_body(&lite_model(), 1)).unwrap();
    assert_eq!(
        top_level_keys(&lite),
        [
            "model",
            "input",
            "tool_choice",
            "parallel_tool_calls",
            "reasoning",
            "store",
            "stream",
            "include",
            "prompt_cache_key",
            "text",
            "client_metadata",
        ]
    );
}

#[test]
fn bodies_validate_as_create_response() {
    for model in [standard_model(), lite_model()] {
        let body: Value = serde_json::from_str(&first_turn_body(&model, 3)).unwrap();
        assert_eq!(validate_create_response(&body), Ok(()), "{}", model.slug);
    }
}

#[test]
fn validator_rejects_what_the_api_would_not_accept() {
    let body: Value = serde_json::from_str(&first_turn_body(&standard_model(), 3)).unwrap();
    let mut misspelled = body.clone();
    misspelled["instrutions"] = json!("x");
    assert_eq!(
        validate_create_response(&misspelled),
        Err("unknown top-level key `instrutions`".to_string())
    );
    let mut tool_role = body.clone();
    tool_role["input"][2]["role"] = json!("tool");
    assert_eq!(
        validate_create_response(&tool_role),
        Err("input[2]: message role `tool`".to_string())
    );
    let mut wrong_part = body;
    wrong_part["input"][2]["content"][0]["type"] = json!("text");
    assert_eq!(
        validate_create_response(&wrong_part),
        Err("input[2]: user message content type `text`".to_string())
    );
}

#[test]
fn same_seed_prints_identical_bytes_and_other_seeds_change_ids() {
    for model in [standard_model(), lite_model()] {
        assert_eq!(first_turn_body(&model, 42), first_turn_body(&model, 42));
        let first: Value = serde_json::from_str(&first_turn_body(&model, 42)).unwrap();
        let second: Value = serde_json::from_str(&first_turn_body(&model, 43)).unwrap();
        assert_ne!(first["prompt_cache_key"], second["prompt_cache_key"]);
        let last = |body: &Value| body["input"].as_array().unwrap().last().unwrap()["id"].clone();
        assert_ne!(last(&first), last(&second));
    }
}

#[test]
fn responses_lite_moves_tools_and_instructions_into_a_stable_prefix() {
    let model = lite_model();
    let tools = tools_for(&model);
    let thread_id = "01a22b42-b04e-7731-84f1-0d905b533980";
    let one_turn = first_turn_input(&seeded(5), "turn-a");
    let two_turns = [one_turn.clone(), first_turn_input(&seeded(6), "turn-b")].concat();

    let first = build(ResponsesRequestInputs::new(
        &model,
        BASE_INSTRUCTIONS,
        &one_turn,
        &tools,
        thread_id,
    ));
    let later = build(ResponsesRequestInputs::new(
        &model,
        BASE_INSTRUCTIONS,
        &two_turns,
        &tools,
        thread_id,
    ));
    assert_eq!(first["input"][0], later["input"][0]);
    assert_eq!(first["input"][1], later["input"][1]);
    assert_eq!(first["parallel_tool_calls"], json!(false));
    assert_eq!(first["reasoning"]["context"], json!("all_turns"));
    assert_eq!(first.get("tools"), None);
    assert_eq!(first.get("instructions"), None);

    let tools_item = &first["input"][0];
    assert_eq!(tools_item["type"], json!("additional_tools"));
    assert_eq!(tools_item["role"], json!("developer"));
    // The targeted release (0.149.1) sends both spliced items without ids.
    assert_eq!(tools_item.get("id"), None);
    let namespace = &tools_item["tools"][0];
    assert_eq!(namespace["type"], json!("namespace"));
    assert_eq!(namespace["name"], json!("functions"));
    assert_eq!(namespace["description"], json!(""));
    let instructions_item = &first["input"][1];
    assert_eq!(
        instructions_item,
        &json!({
            "type": "message",
            "role": "developer",
            "content": [{"type": "input_text", "text": BASE_INSTRUCTIONS}],
        })
    );

    // With derived ids both items get UUIDv5 names of the thread, stable across turns.
    let with_ids = |input: &[ResponseItem], thread: &str| {
        let mut inputs =
            ResponsesRequestInputs::new(&model, BASE_INSTRUCTIONS, input, &tools, thread);
        inputs.lite_prefix_ids = LitePrefixIds::Derived;
        build(inputs)
    };
    let first = with_ids(&one_turn, thread_id);
    let later = with_ids(&two_turns, thread_id);
    assert_eq!(first["input"][0], later["input"][0]);
    assert_eq!(first["input"][1], later["input"][1]);
    let uuid_of = |id: &Value, prefix: &str| {
        uuid::Uuid::parse_str(id.as_str().unwrap().strip_prefix(prefix).unwrap()).unwrap()
    };
    assert_eq!(
        uuid_of(&first["input"][0]["id"], "at_").get_version_num(),
        5
    );
    assert_eq!(
        uuid_of(&first["input"][1]["id"], "msg_").get_version_num(),
        5
    );
    let other_thread = with_ids(&one_turn, "01a22b42-0000-7000-8000-000000000000");
    assert_ne!(first["input"][0]["id"], other_thread["input"][0]["id"]);
    assert_ne!(first["input"][1]["id"], other_thread["input"][1]["id"]);
}

#[test]
fn responses_lite_without_base_instructions_sends_only_the_tool_catalog() {
    let model = lite_model();
    let input = first_turn_input(&seeded(1), "turn");
    let body = build(ResponsesRequestInputs::new(
        &model,
        "",
        &input,
        &[],
        "thread",
    ));
    assert_eq!(body["input"][0]["type"], json!("additional_tools"));
    assert_eq!(body["input"][0]["tools"], json!([]));
    assert_eq!(body["input"][1], serde_json::to_value(&input[0]).unwrap());
}

fn message_with_kinds() -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: Some("msg_1".to_string()),
        role: "user".to_string(),
        content: vec![ContentItem::input_text(
            "<environment_context>\n</environment_context>",
        )],
        phase: None,
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            turn_id: Some("turn-1".to_string()),
            create_time: Some(1.5),
            content_item_kinds: Some(vec![ContentItemKind::new(
                "environments.environment_context",
            )]),
        }),
    }
}

fn function_call_with_encrypted_args() -> ResponseItem {
    ResponseItem::FunctionCall {
        encrypted_content: None,
        status: None,
        id: Some("fc_1".to_string()),
        name: "exec_command".to_string(),
        namespace: None,
        arguments: "{}".to_string(),
        encrypted_function_args: Some(vec!["sealed".to_string()]),
        call_id: "call-1".to_string(),
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            turn_id: Some("turn-1".to_string()),
            ..InternalChatMessageMetadataPassthrough::default()
        }),
    }
}

#[test]
fn openai_keeps_turn_metadata_and_strips_content_kinds_by_default() {
    let model = standard_model();
    let input = [message_with_kinds(), function_call_with_encrypted_args()];
    let body = build(ResponsesRequestInputs::new(
        &model,
        "",
        &input,
        &[],
        "thread",
    ));
    assert_eq!(
        body["input"],
        json!([
            {
                "type": "message",
                "id": "msg_1",
                "role": "user",
                "content": [{"type": "input_text", "text": "<environment_context>\n</environment_context>"}],
                "internal_chat_message_metadata_passthrough": {"turn_id": "turn-1", "create_time": 1.5},
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "name": "exec_command",
                "arguments": "{}",
                "encrypted_function_args": ["sealed"],
                "call_id": "call-1",
                "internal_chat_message_metadata_passthrough": {"turn_id": "turn-1"},
            },
        ])
    );

    let mut keep = ResponsesRequestInputs::new(&model, "", &input, &[], "thread");
    keep.content_item_kinds = ContentItemKindsPolicy::Keep;
    let body = build(keep);
    assert_eq!(
        body["input"][0]["internal_chat_message_metadata_passthrough"],
        json!({
            "turn_id": "turn-1",
            "create_time": 1.5,
            "content_item_kinds": ["environments.environment_context"],
        })
    );
}

#[test]
fn other_providers_get_items_without_internal_metadata() {
    let model = standard_model();
    let input = [message_with_kinds(), function_call_with_encrypted_args()];
    let mut inputs = ResponsesRequestInputs::new(&model, "", &input, &[], "thread");
    inputs.provider = ModelProviderKind::from_provider_id("ollama");
    inputs.content_item_kinds = ContentItemKindsPolicy::Keep;
    let body = build(inputs);
    assert_eq!(
        body["input"],
        json!([
            {
                "type": "message",
                "id": "msg_1",
                "role": "user",
                "content": [{"type": "input_text", "text": "<environment_context>\n</environment_context>"}],
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "name": "exec_command",
                "arguments": "{}",
                "call_id": "call-1",
            },
        ])
    );
    assert_eq!(
        ModelProviderKind::from_provider_id("OpenAI"),
        ModelProviderKind::OpenAi
    );
}

#[test]
fn unprefixed_ids_are_not_sent() {
    let model = standard_model();
    let mut assistant = ResponseItem::message("assistant", vec![ContentItem::output_text("ok")]);
    if let ResponseItem::Message { id, .. } = &mut assistant {
        *id = Some("01a22b42-b0aa-71b0-b0f6-cb8e5ec70dd3".to_string());
    }
    let mut server_reply = ResponseItem::message("assistant", vec![ContentItem::output_text("ok")]);
    if let ResponseItem::Message { id, .. } = &mut server_reply {
        *id = Some("msg_abc123".to_string());
    }
    let input = [assistant, server_reply];
    let body = build(ResponsesRequestInputs::new(
        &model,
        "",
        &input,
        &[],
        "thread",
    ));
    assert_eq!(body["input"][0].get("id"), None);
    assert_eq!(body["input"][1]["id"], json!("msg_abc123"));
}

#[test]
fn reasoning_and_text_follow_model_support_and_configuration() {
    let mut model = standard_model();
    let input = first_turn_input(&seeded(1), "turn");
    let plain = build(ResponsesRequestInputs::new(&model, "x", &input, &[], "t"));
    assert_eq!(plain["reasoning"], json!({"effort": "medium"}));
    assert_eq!(plain["text"], json!({"verbosity": "low"}));

    let mut configured = ResponsesRequestInputs::new(&model, "x", &input, &[], "t");
    configured.reasoning_effort = Some(ReasoningEffort::High);
    configured.reasoning_summary = Some(ReasoningSummary::Detailed);
    configured.verbosity = Some(Verbosity::High);
    let schema = json!({"type": "object"});
    configured.output_schema = Some(&schema);
    configured.output_schema_strictness = OutputSchemaStrictness::Lax;
    configured.service_tier = Some("priority".to_string());
    configured.prompt_cache_key = Some("cache-key".to_string());
    configured.parallel_tool_calls = ParallelToolCalls::Disallowed;
    let body = build(configured);
    assert_eq!(
        body["reasoning"],
        json!({"effort": "high", "summary": "detailed"})
    );
    assert_eq!(
        body["text"],
        json!({
            "verbosity": "high",
            "format": {"type": "json_schema", "strict": false, "schema": {"type": "object"}, "name": "codex_output_schema"},
        })
    );
    assert_eq!(body["service_tier"], json!("priority"));
    assert_eq!(body["prompt_cache_key"], json!("cache-key"));
    assert_eq!(body["parallel_tool_calls"], json!(false));

    model.support_verbosity = false;
    model.default_reasoning_level = None;
    model.default_reasoning_summary = ReasoningSummary::Auto;
    let mut unsupported = ResponsesRequestInputs::new(&model, "x", &input, &[], "t");
    unsupported.verbosity = Some(Verbosity::High);
    let body = build(unsupported);
    assert_eq!(body["reasoning"], json!({"summary": "auto"}));
    assert_eq!(body.get("text"), None);

    model.supports_reasoning_summary_parameter = false;
    let body = build(ResponsesRequestInputs::new(&model, "x", &input, &[], "t"));
    assert_eq!(body["reasoning"], json!({}));
}

fn image_message(detail: ImageDetail) -> ResponseItem {
    ResponseItem::message(
        "user",
        vec![ContentItem::InputImage {
            image: ImageReference::Inline {
                image_url: "data:image/png;base64,AA==".to_string(),
            },
            detail: Some(detail),
        }],
    )
}

#[test]
fn image_detail_is_adjusted_to_the_model() {
    let input = [
        image_message(ImageDetail::Original),
        image_message(ImageDetail::Low),
    ];
    let detail_of = |model: &ModelInfo| -> Vec<Value> {
        let body = build(ResponsesRequestInputs::new(model, "", &input, &[], "t"));
        body["input"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|item| item["type"] == json!("message"))
            .map(|item| {
                item["content"][0]
                    .get("detail")
                    .cloned()
                    .unwrap_or(Value::Null)
            })
            .collect()
    };
    assert_eq!(
        detail_of(&standard_model()),
        [json!("original"), json!("low")]
    );
    let mut no_original = standard_model();
    no_original.supports_image_detail_original = false;
    assert_eq!(detail_of(&no_original), [json!("high"), json!("low")]);
    assert_eq!(detail_of(&lite_model()), [Value::Null, Value::Null]);
}

#[test]
fn request_round_trips_through_its_own_type() {
    let text = first_turn_body(&standard_model(), 9);
    let parsed: ResponsesRequest = serde_json::from_str(&text).expect("parse back");
    assert_eq!(serde_json::to_string_pretty(&parsed).unwrap(), text);
}

/// The Lite base-instructions message is the `base_instructions` fragment type and carries the
/// instructions as they are, however long: the same bytes the `instructions` field would.
#[test]
fn lite_base_instructions_message_is_the_base_instructions_fragment() {
    let long = "Follow the conventions of the repository you work in. ".repeat(2_000);
    let prefix = lite_prefix_items(
        "01a22b42-b04e-7731-84f1-0d905b533980",
        &[],
        LiteToolCatalog::Namespaced,
        &long,
        LitePrefixIds::Omitted,
    )
    .unwrap();
    let ResponseItem::Message { role, content, .. } = &prefix[1] else {
        panic!("message expected, got {:?}", prefix[1]);
    };
    assert_eq!(content, &vec![ContentItem::input_text(long.clone())]);
    let kinds = prefix[1].content_item_kinds().unwrap();
    assert_eq!(
        kinds,
        &[ContentItemKind::new(BASE_INSTRUCTIONS_SPEC.content_kind)][..]
    );
    assert_eq!(
        classify(role, &long, Some(kinds[0].as_str())).map(|info| info.name),
        Some("base_instructions")
    );
}
