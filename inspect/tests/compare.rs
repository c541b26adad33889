//! `compare` on request bodies: identical inputs, altered copies, top-level fields, prose.

#![allow(clippy::expect_used)]

mod compare_support;

use codex_inspect::CompareReport;
use codex_inspect::Difference;
use codex_inspect::DifferenceDetail;
use codex_inspect::Position;
use codex_inspect::ProseDifference;
use codex_inspect::ProseMode;
use codex_inspect::Side;
use codex_inspect::compare_inputs;
use compare_support::*;
use pretty_assertions::assert_eq;
use serde_json::json;

fn report(differences: Vec<Difference>) -> CompareReport {
    CompareReport {
        requests_compared: 1,
        rollouts_compared: false,
        differences,
        prose_differences: Vec::new(),
    }
}

fn difference(position: Position, detail: DifferenceDetail) -> Difference {
    Difference {
        request: Some(1),
        position,
        detail,
    }
}

fn item(a: Option<usize>, b: Option<usize>) -> Position {
    Position::Item { a, b }
}

fn compare_one(a: serde_json::Value, b: serde_json::Value, prose: ProseMode) -> CompareReport {
    compare_inputs(&requests(vec![a]), &requests(vec![b]), prose)
}

fn labels(labels: &[&str]) -> Vec<String> {
    labels.iter().map(|label| label.to_string()).collect()
}

#[test]
fn identical_inputs_have_no_differences() {
    let report = compare_one(request_body(), request_body(), ProseMode::Ignore);

    assert_eq!(report, self::report(Vec::new()));
    assert_eq!(
        report.render_text(),
        "1 requests compared, 0 structural differences\n"
    );
}

#[test]
fn volatile_values_are_never_compared() {
    let mut altered = request_body();
    altered["prompt_cache_key"] = json!("thread-2");
    // Other values under the same keys, in another order.
    altered["client_metadata"] = json!({"turn_id": "turn-9", "session_id": "thread-2"});
    for item in input_mut(&mut altered) {
        if item.get("id").is_some() {
            item["id"] = json!("other-id");
        }
        if let Some(metadata) = item.get_mut("internal_chat_message_metadata_passthrough") {
            *metadata = json!({"turn_id": "turn-9", "create_time": 1.0});
        }
        if item.get("call_id").is_some() {
            item["call_id"] = json!("call_9");
        }
    }

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(Vec::new())
    );
}

#[test]
fn a_removed_item_is_reported_as_only_in_a() {
    let mut altered = request_body();
    input_mut(&mut altered).remove(1);

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(Some(1), None),
            DifferenceDetail::ItemOnlyIn {
                side: Side::A,
                shape: "message/user [agents_md, environment_context]".to_string(),
            },
        )])
    );
}

#[test]
fn an_added_item_is_reported_as_only_in_b() {
    let mut altered = request_body();
    input_mut(&mut altered).push(json!({
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "thanks"}]
    }));

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(None, Some(6)),
            DifferenceDetail::ItemOnlyIn {
                side: Side::B,
                shape: "message/user [user_text]".to_string(),
            },
        )])
    );
}

#[test]
fn a_changed_role_is_reported_alone() {
    let mut altered = request_body();
    input_mut(&mut altered)[2]["role"] = json!("developer");

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(Some(2), Some(2)),
            DifferenceDetail::RoleChanged {
                a: "user".to_string(),
                b: "developer".to_string(),
            },
        )])
    );
}

#[test]
fn fragments_reordered_inside_a_message_are_one_content_order_difference() {
    let mut altered = request_body();
    input_mut(&mut altered)[1]["content"]
        .as_array_mut()
        .expect("content")
        .reverse();

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(Some(1), Some(1)),
            DifferenceDetail::ContentOrder {
                a: labels(&["agents_md", "environment_context"]),
                b: labels(&["environment_context", "agents_md"]),
            },
        )])
    );
}

#[test]
fn reordered_items_are_reported_as_moved() {
    let mut altered = request_body();
    let moved = input_mut(&mut altered).remove(0);
    input_mut(&mut altered).insert(2, moved);

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(Some(0), Some(2)),
            DifferenceDetail::ItemMoved {
                shape: "message/developer [permissions]".to_string(),
            },
        )])
    );
}

#[test]
fn a_removed_fragment_changes_the_content_entry_count() {
    let mut altered = request_body();
    input_mut(&mut altered)[1]["content"]
        .as_array_mut()
        .expect("content")
        .remove(0);

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            item(Some(1), Some(1)),
            DifferenceDetail::ContentCount {
                a: labels(&["agents_md", "environment_context"]),
                b: labels(&["environment_context"]),
            },
        )])
    );
}

#[test]
fn a_replaced_entry_is_a_classification_difference() {
    let mut altered = request_body();
    input_mut(&mut altered)[2]["content"][0]["text"] = json!(ENVIRONMENT);

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            Position::Entry {
                a: 2,
                b: 2,
                entry: 0
            },
            DifferenceDetail::Classification {
                a: "user_text".to_string(),
                b: "environment_context".to_string(),
            },
        )])
    );
}

#[test]
fn several_alterations_are_reported_exactly_in_input_order() {
    let mut altered = request_body();
    let input = input_mut(&mut altered);
    input[1]["content"]
        .as_array_mut()
        .expect("content")
        .reverse();
    input[5]["role"] = json!("user");
    input.remove(2);

    let report = compare_one(request_body(), altered, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: input[1]: content order [agents_md, environment_context] != [environment_context, agents_md]
    request 1: input[2]: only in A (message/user [user_text])
    request 1: input A[5] B[4]: role assistant != user
    1 requests compared, 3 structural differences
    ");
}

#[test]
fn top_level_field_differences() {
    let mut altered = request_body();
    let body = altered.as_object_mut().expect("object");
    body.shift_remove("instructions");
    body.shift_remove("include");
    body["tools"] = json!([
        {"type": "web_search"},
        {"type": "function", "name": "exec_command"},
        {"type": "function", "name": "view_image"}
    ]);
    body["parallel_tool_calls"] = json!(false);
    body["reasoning"] = json!({"effort": "high"});
    body["store"] = json!(true);
    body["stream"] = json!(false);
    body["text"] = json!({"verbosity": "high"});
    body["model"] = json!("another-model");
    body["tool_choice"] = json!("none");

    let report = compare_one(request_body(), altered, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r#"
    request 1: instructions: present != absent
    request 1: tools: tool apply_patch only in A
    request 1: tools: tool view_image only in B
    request 1: tools: tool exec_command keys [name, parameters, type] != [name, type]
    request 1: parallel_tool_calls: true != false
    request 1: reasoning: {"effort":"medium"} != {"effort":"high"}
    request 1: include: present != absent
    request 1: store: false != true
    request 1: stream: true != false
    request 1: text: {"verbosity":"low"} != {"verbosity":"high"}
    1 requests compared, 10 structural differences
    "#);
}

#[test]
fn tools_in_another_order_are_one_difference() {
    let mut altered = request_body();
    altered["tools"].as_array_mut().expect("tools").swap(0, 1);

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![difference(
            Position::Field {
                field: "tools".to_string()
            },
            DifferenceDetail::ToolOrder {
                a: labels(&["exec_command", "apply_patch", "web_search"]),
                b: labels(&["apply_patch", "exec_command", "web_search"]),
            },
        )])
    );
}

#[test]
fn fragment_prose_is_ignored_by_default_and_shown_as_a_unified_diff() {
    let mut altered = request_body();
    input_mut(&mut altered)[0]["content"][0]["text"] = json!(PERMISSIONS.replace(
        "Approvals are never asked for.",
        "Approvals are asked for on request."
    ));

    assert_eq!(
        compare_one(request_body(), altered.clone(), ProseMode::Ignore),
        report(Vec::new())
    );
    let shown = compare_one(request_body(), altered, ProseMode::Show);
    assert_eq!(
        shown,
        CompareReport {
            prose_differences: vec![ProseDifference {
                request: 1,
                position: Position::Entry {
                    a: 0,
                    b: 0,
                    entry: 0
                },
                classification: "permissions".to_string(),
                diff: "--- A\n+++ B\n@@ -1,4 +1,4 @@\n <permissions instructions>\n The sandbox is read-only.\n-Approvals are never asked for.\n+Approvals are asked for on request.\n </permissions instructions>\n\\ No newline at end of file\n".to_string(),
            }],
            ..report(Vec::new())
        }
    );
    insta::assert_snapshot!(shown.render_text(), @r"
    request 1: input[0].content[0]: prose differs (permissions)
    --- A
    +++ B
    @@ -1,4 +1,4 @@
     <permissions instructions>
     The sandbox is read-only.
    -Approvals are never asked for.
    +Approvals are asked for on request.
     </permissions instructions>
    \ No newline at end of file
    1 requests compared, 0 structural differences
    ");
}

#[test]
fn changed_user_text_is_structural_and_its_diff_is_shown_on_request() {
    let mut altered = request_body();
    input_mut(&mut altered)[2]["content"][0]["text"] = json!("hello there");

    let text_changed = |diff: Option<&str>| {
        report(vec![difference(
            Position::Entry {
                a: 2,
                b: 2,
                entry: 0,
            },
            DifferenceDetail::TextChanged {
                classification: "user_text".to_string(),
                diff: diff.map(str::to_string),
            },
        )])
    };
    assert_eq!(
        compare_one(request_body(), altered.clone(), ProseMode::Ignore),
        text_changed(None)
    );
    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Show),
        text_changed(Some(
            "--- A\n+++ B\n@@ -1 +1 @@\n-hello\n\\ No newline at end of file\n+hello there\n\\ No newline at end of file\n"
        ))
    );
}

#[test]
fn instructions_and_tool_call_prose_are_shown_but_not_counted() {
    let mut altered = request_body();
    altered["instructions"] = json!("You are a careful coding agent.\nWork in large steps.");
    input_mut(&mut altered)[3]["arguments"] = json!("{\"cmd\":\"ls -a\"}");

    let report = compare_one(request_body(), altered, ProseMode::Show);

    insta::assert_snapshot!(report.render_text(), @r#"
    request 1: instructions: prose differs (instructions)
    --- A
    +++ B
    @@ -1,2 +1,2 @@
     You are a careful coding agent.
    -Work in small steps.
    \ No newline at end of file
    +Work in large steps.
    \ No newline at end of file
    request 1: input[3]: prose differs (function_call exec_command)
    --- A
    +++ B
    @@ -1 +1 @@
    -{"cmd":"ls"}
    \ No newline at end of file
    +{"cmd":"ls -a"}
    \ No newline at end of file
    1 requests compared, 0 structural differences
    "#);
}

#[test]
fn environment_context_tags_are_compared_under_ignored_prose() {
    let mut altered = request_body();
    input_mut(&mut altered)[1]["content"][1]["text"] = json!(
        ENVIRONMENT
            .replace("  <shell>bash</shell>\n", "")
            .replace(
                "<cwd>/repo</cwd>",
                "<cwd>/elsewhere</cwd>\n  <timezone>UTC</timezone>"
            )
            .replace("type=\"disabled\"", "type=\"disabled\" mode=\"x\"")
    );

    let report = compare_one(request_body(), altered, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: input[1].content[1]: environment_context: tag environment_context/shell only in A
    request 1: input[1].content[1]: environment_context: tag environment_context/filesystem/permission_profile[type] only in A
    request 1: input[1].content[1]: environment_context: tag environment_context/timezone only in B
    request 1: input[1].content[1]: environment_context: tag environment_context/filesystem/permission_profile[type,mode] only in B
    1 requests compared, 4 structural differences
    ");
}

#[test]
fn agents_md_header_and_wrapper_are_compared_under_ignored_prose() {
    let mut altered = request_body();
    input_mut(&mut altered)[1]["content"][0]["text"] =
        json!("# AGENTS.md instructions\n\nKeep answers short.\n</INSTRUCTIONS>");

    assert_eq!(
        compare_one(request_body(), altered, ProseMode::Ignore),
        report(vec![
            difference(
                Position::Entry {
                    a: 1,
                    b: 1,
                    entry: 0
                },
                DifferenceDetail::Header {
                    classification: "agents_md".to_string(),
                    a: "# AGENTS.md instructions for <dir>".to_string(),
                    b: "# AGENTS.md instructions".to_string(),
                },
            ),
            difference(
                Position::Entry {
                    a: 1,
                    b: 1,
                    entry: 0
                },
                DifferenceDetail::Wrapper {
                    classification: "agents_md".to_string(),
                    wrapper: "<INSTRUCTIONS>…</INSTRUCTIONS>".to_string(),
                    a: true,
                    b: false,
                },
            ),
        ])
    );
}

#[test]
fn a_permissions_wrapper_is_checked_when_the_content_kind_names_the_fragment() {
    let kind = codex_fragments::fragment_type("permissions")
        .expect("registered")
        .spec
        .content_kind;
    let mut original = request_body();
    input_mut(&mut original)[0]["internal_chat_message_metadata_passthrough"]["content_item_kinds"] =
        json!([kind]);
    let mut altered = original.clone();
    input_mut(&mut altered)[0]["content"][0]["text"] = json!("The sandbox is read-only.");

    assert_eq!(
        compare_one(original, altered, ProseMode::Ignore),
        report(vec![difference(
            Position::Entry {
                a: 0,
                b: 0,
                entry: 0
            },
            DifferenceDetail::Wrapper {
                classification: "permissions".to_string(),
                wrapper: "<permissions instructions>…</permissions instructions>".to_string(),
                a: true,
                b: false,
            },
        )])
    );
}

#[test]
fn unpaired_requests_are_reported_and_only_pairs_are_counted() {
    let report = compare_inputs(
        &requests(vec![request_body(), request_body(), request_body()]),
        &requests(vec![request_body()]),
        ProseMode::Ignore,
    );

    insta::assert_snapshot!(report.render_text(), @r"
    request 2: only in A
    request 3: only in A
    1 requests compared, 2 structural differences
    ");
}

#[test]
fn a_renamed_tool_call_is_one_removed_and_one_added_item() {
    let mut altered = request_body();
    input_mut(&mut altered)[3]["name"] = json!("shell");

    let report = compare_one(request_body(), altered, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: input[3]: only in A (function_call exec_command)
    request 1: input[3]: only in B (function_call shell)
    1 requests compared, 2 structural differences
    ");
}

#[test]
fn the_json_report_names_positions_and_kinds() {
    let mut altered = request_body();
    input_mut(&mut altered)[2]["role"] = json!("developer");

    let report = compare_one(request_body(), altered, ProseMode::Ignore);

    insta::assert_json_snapshot!(report, @r#"
    {
      "requests_compared": 1,
      "rollouts_compared": false,
      "differences": [
        {
          "request": 1,
          "position": {
            "at": "item",
            "a": 2,
            "b": 2
          },
          "kind": "role_changed",
          "a": "user",
          "b": "developer"
        }
      ],
      "prose_differences": []
    }
    "#);
}

#[test]
fn tool_schemas_are_compared_inside_namespaces_without_descriptions() {
    let namespace = |tools: serde_json::Value| json!([{"type": "namespace", "name": "functions", "description": "d", "tools": tools}]);
    let mut a = request_body();
    a["tools"] = namespace(json!([
        {"type": "function", "name": "exec_command", "description": "Runs.",
         "parameters": {"type": "object", "properties": {"cmd": {}, "workdir": {}}}},
        {"type": "custom", "name": "apply_patch", "format": {}},
        {"type": "function", "name": "get_goal", "parameters": {"type": "object"}}
    ]));
    let mut b = request_body();
    b["tools"] = namespace(json!([
        {"type": "function", "name": "exec_command", "description": "Runs a command.",
         "parameters": {"type": "object", "properties": {"cmd": {}}}, "strict": false},
        {"type": "function", "name": "apply_patch", "parameters": {"type": "object"}}
    ]));

    let report = compare_one(a, b, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: tools: tool functions/get_goal only in A
    request 1: tools: tool functions/exec_command keys [name, parameters, type] != [name, parameters, strict, type]
    request 1: tools: tool functions/exec_command parameters [cmd, workdir] != [cmd]
    request 1: tools: tool functions/apply_patch type [custom] != [function]
    1 requests compared, 4 structural differences
    ");
}

#[test]
fn ids_client_metadata_keys_and_key_order_are_structure() {
    let mut altered = request_body();
    let body = altered.as_object_mut().expect("object");
    let cache_key = body.shift_remove("prompt_cache_key").expect("cache key");
    body.insert("prompt_cache_key".to_string(), cache_key);
    body["client_metadata"] = json!({
        "session_id": "s",
        "x-codex-turn-metadata": "{\"turn_id\":\"t\",\"sandbox\":\"none\"}"
    });
    let mut original = request_body();
    original["client_metadata"]["x-codex-turn-metadata"] = json!("{\"turn_id\":\"t\"}");
    input_mut(&mut altered)[1]
        .as_object_mut()
        .expect("item")
        .shift_remove("id");

    let report = compare_one(original, altered, ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: key order [model, instructions, input, tools, tool_choice, parallel_tool_calls, reasoning, store, stream, include, prompt_cache_key, text, client_metadata] != [model, instructions, input, tools, tool_choice, parallel_tool_calls, reasoning, store, stream, include, text, client_metadata, prompt_cache_key]
    request 1: client_metadata: keys [turn_id] only in A
    request 1: client_metadata.x-codex-turn-metadata: keys [sandbox] only in B
    request 1: input[1]: id present != absent
    1 requests compared, 4 structural differences
    ");
}

#[test]
fn base_instructions_in_a_developer_message_are_prose() {
    let lite = |text: &str| {
        let mut body = request_body();
        let object = body.as_object_mut().expect("object");
        object.shift_remove("instructions");
        object.shift_remove("tools");
        input_mut(&mut body).insert(
            0,
            json!({"type": "message", "role": "developer",
                   "content": [{"type": "input_text", "text": text}]}),
        );
        body
    };

    let report = compare_one(
        lite("You are one agent."),
        lite("You are another agent."),
        ProseMode::Show,
    );

    assert_eq!(report.differences, Vec::new());
    assert_eq!(
        report
            .prose_differences
            .iter()
            .map(|prose| prose.classification.as_str())
            .collect::<Vec<_>>(),
        ["base_instructions"]
    );
    let with_instructions = compare_one(
        request_body(),
        lite("You are one agent."),
        ProseMode::Ignore,
    );
    insta::assert_snapshot!(with_instructions.render_text(), @r"
    request 1: instructions: present != absent
    request 1: tools: present != absent
    request 1: input[0]: only in B (message/developer [base_instructions])
    1 requests compared, 3 structural differences
    ");
}

#[test]
fn base_instructions_messages_pair_only_with_each_other() {
    let mut spliced = request_body();
    let object = spliced.as_object_mut().expect("object");
    object.shift_remove("instructions");
    input_mut(&mut spliced).insert(
        0,
        json!({"type": "message", "role": "developer",
               "content": [{"type": "input_text", "text": "You are an agent."}]}),
    );

    let report = compare_one(spliced, request_body(), ProseMode::Ignore);

    insta::assert_snapshot!(report.render_text(), @r"
    request 1: instructions: absent != present
    request 1: input[0]: only in A (message/developer [base_instructions])
    1 requests compared, 2 structural differences
    ");
}
