//! The model-visible layout rendering (`--format layout`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../core/tests/request_support/mod.rs"]
mod request_support;
#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use codex_config::Features;
use codex_core::BuiltinToolsConfig;
use codex_core::ResponsesRequestInputs;
use codex_core::build_responses_request;
use codex_core::builtin_tools;
use codex_inspect::LayoutOptions;
use codex_inspect::LayoutText;
use codex_inspect::render_layout;
use codex_inspect::render_request_layout;
use codex_protocol::WebSearchMode;
use pretty_assertions::assert_eq;
use request_support::BASE_INSTRUCTIONS;
use request_support::captured_requests;
use request_support::first_turn_input;
use request_support::lite_model;
use request_support::seeded;
use request_support::standard_model;
use serde_json::json;

fn lite_request_layout(options: &LayoutOptions) -> String {
    let model = lite_model();
    let input = first_turn_input(&seeded(2), "turn");
    let tools = builtin_tools(
        &BuiltinToolsConfig::for_model(&model, WebSearchMode::Cached, &Features::default()),
        &codex_prompts::TemplateSet::embedded(),
    )
    .unwrap();
    let request = build_responses_request(ResponsesRequestInputs::new(
        &model,
        BASE_INSTRUCTIONS,
        &input,
        &tools,
        "thread",
    ))
    .unwrap();
    render_request_layout(&request, options).unwrap()
}

#[test]
fn first_turn_layout_with_placeholders() {
    let options = LayoutOptions {
        known_texts: vec![(
            BASE_INSTRUCTIONS.to_string(),
            "<MODEL_INSTRUCTIONS>".to_string(),
        )],
        ..LayoutOptions::default()
    };
    assert_eq!(
        lite_request_layout(&options),
        "00:additional_tools[3]:
    [01] namespace/functions
    [02] tool_search
    [03] web_search
01:message/developer:<MODEL_INSTRUCTIONS>
02:message/developer:<PERMISSIONS_INSTRUCTIONS>
03:message/user[2]:
    [01] <AGENTS_MD>
    [02] <ENVIRONMENT_CONTEXT:cwd=<CWD>>
04:message/user:hello 1"
    );
}

#[test]
fn full_text_layout_cuts_long_texts() {
    let options = LayoutOptions {
        text: LayoutText::Full,
        ..LayoutOptions::default()
    };
    insta::assert_snapshot!(lite_request_layout(&options));
    let standard = {
        let model = standard_model();
        let input = first_turn_input(&seeded(2), "turn");
        let request = build_responses_request(ResponsesRequestInputs::new(
            &model,
            "base",
            &input,
            &[],
            "thread",
        ))
        .unwrap();
        render_request_layout(&request, &options).unwrap()
    };
    assert!(
        standard.starts_with(
            "instructions:base\ntools:<NONE>\n00:message/developer:<permissions instructions>\\n"
        ),
        "{standard}"
    );
}

#[test]
fn text_is_normalised_then_cut_at_the_character_limit() {
    let long = "é".repeat(79) + "\r\nxyz";
    let items = [
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": long}]}),
    ];
    let expected_prefix = "é".repeat(79) + "\\";
    assert_eq!(
        render_layout(&items, &LayoutOptions::default()),
        format!("00:message/user:{expected_prefix}...")
    );
    let unlimited = LayoutOptions {
        max_chars: None,
        ..LayoutOptions::default()
    };
    assert_eq!(
        render_layout(&items, &unlimited),
        format!("00:message/user:{}\\nxyz", "é".repeat(79))
    );
    let exactly = [
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a".repeat(80)}]}),
    ];
    assert_eq!(
        render_layout(&exactly, &LayoutOptions::default()),
        format!("00:message/user:{}", "a".repeat(80))
    );
}

#[test]
fn every_item_kind_has_a_line() {
    let items = [
        json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}),
        json!({"type": "message", "role": "user", "content": []}),
        json!({"type": "message", "role": "user", "content": [
            {"type": "input_image", "image_url": "data:", "detail": "high"},
            {"type": "input_text", "text": "<model_switch>\nnew model"},
            {"kind": "odd"},
        ]}),
        json!({"type": "function_call", "name": "exec_command", "arguments": "{}", "call_id": "c"}),
        json!({"type": "function_call_output", "call_id": "c", "output": "line 1\nline 2"}),
        json!({"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "x"}]}),
        json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": "d", "input": "*** Begin Patch"}),
        json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}], "encrypted_content": "abc"}),
        json!({"type": "reasoning", "summary": [], "encrypted_content": null}),
        json!({"type": "compaction", "encrypted_content": "zzz"}),
        json!({"type": "web_search_call", "status": "completed"}),
        json!({"role": "user"}),
    ];
    assert_eq!(
        render_layout(&items, &LayoutOptions::default()),
        "00:message/assistant:done
01:message/user:<NO_TEXT>
02:message/user[3]:
    [01] <input_image:detail,image_url>
    [02] <model_switch>\\nnew model
    [03] <UNKNOWN_CONTENT_ITEM>
03:function_call/exec_command
04:function_call_output:line 1\\nline 2
05:function_call_output:<NON_STRING_OUTPUT>
06:custom_tool_call/apply_patch
07:reasoning:summary=thinking:encrypted=true
08:reasoning:summary=<NO_SUMMARY>:encrypted=false
09:compaction:encrypted=true
10:web_search_call
11:<MISSING_TYPE>"
    );
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn captured_requests_render_one_header_per_item() {
    let captures = upstream_fixtures::captures();
    for (path, body) in captured_requests(&captures) {
        let items = body["input"].as_array().unwrap();
        let layout = render_layout(items, &LayoutOptions::default());
        let headers: Vec<&str> = layout
            .lines()
            .filter(|line| !line.starts_with("    ["))
            .collect();
        assert_eq!(headers.len(), items.len(), "{}", path.display());
        for (index, header) in headers.iter().enumerate() {
            assert!(
                header.starts_with(&format!("{index:02}:")),
                "{header} in {}",
                path.display()
            );
        }
        // The first request of a thread starts with the permissions block.
        if path.ends_with("request-01.json") && headers[0].starts_with("00:message/developer") {
            assert!(
                layout.contains("<PERMISSIONS_INSTRUCTIONS>"),
                "{}",
                path.display()
            );
        }
        for line in layout.lines().filter(|line| line.starts_with("    [")) {
            let text = line.split_once("] ").map_or("", |(_, text)| text);
            assert!(text.chars().count() <= 83, "{line}");
            assert!(!text.contains('\n'));
        }
    }
}

#[test]
fn only_recognised_context_blocks_become_placeholders() {
    let message = |role: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]});
    let items = [
        // Typed by a user: they start like context blocks but are not whole fragments.
        message(
            "user",
            "<environment_context> is what the agent sends, right?",
        ),
        message(
            "user",
            "# AGENTS.md instructions for /repo\nplease read them",
        ),
        // A developer fragment's text in a user message is not that fragment either.
        message(
            "user",
            "<permissions instructions>\nx\n</permissions instructions>",
        ),
        // Whole fragments of the right role are.
        message(
            "user",
            "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        ),
        message(
            "developer",
            "<permissions instructions>\nx\n</permissions instructions>",
        ),
        // Control bytes never reach the terminal raw.
        message("user", "bell\u{7} escape\u{1b}[31m tab\there"),
    ];
    assert_eq!(
        render_layout(&items, &LayoutOptions::default()),
        "00:message/user:<environment_context> is what the agent sends, right?
01:message/user:# AGENTS.md instructions for /repo\\nplease read them
02:message/user:<permissions instructions>\\nx\\n</permissions instructions>
03:message/user:<ENVIRONMENT_CONTEXT:cwd=<CWD>>
04:message/developer:<PERMISSIONS_INSTRUCTIONS>
05:message/user:bell\\u{7} escape\\u{1b}[31m tab\\there"
    );
}
