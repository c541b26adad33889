//! `ContextMode::ResendFullContext` against the normal diffs: the same conversation and the
//! same world state the model ends up with, but full context instead of updates on every turn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_inspect::LayoutOptions;
use codex_inspect::LayoutText;
use codex_inspect::render_layout;
use codex_script::AssistantReply;
use codex_script::Compaction;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::ScriptRequest;
use pretty_assertions::assert_eq;
use script_support::*;
use serde_json::Value;

/// The whole text of the items `range` of `request`, one layout line per item.
fn texts(request: &ScriptRequest, range: std::ops::Range<usize>) -> String {
    let items: Vec<Value> = request.body.input[range]
        .iter()
        .map(|item| serde_json::to_value(item).unwrap())
        .collect();
    let options = LayoutOptions {
        text: LayoutText::Full,
        max_chars: None,
        known_texts: Vec::new(),
    };
    render_layout(&items, &options)
        .lines()
        .map(|line| match line.split_once(':') {
            Some((index, rest)) if index.chars().all(|c| c.is_ascii_digit()) => rest,
            Some(_) | None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// User and assistant texts the script wrote, in request order.
fn conversation(request: &ScriptRequest, script: &Script) -> Vec<String> {
    let written: Vec<&str> = script
        .turns
        .iter()
        .flat_map(|turn| {
            let reply = match &turn.assistant {
                AssistantReply::Scripted(text) => Some(text.as_str()),
                AssistantReply::Absent => None,
            };
            [Some(turn.user.as_str()), reply].into_iter().flatten()
        })
        .collect();
    request
        .body
        .input
        .iter()
        .map(|item| serde_json::to_value(item).unwrap())
        .filter_map(|item| item["content"][0]["text"].as_str().map(str::to_string))
        .filter(|text| written.contains(&text.as_str()))
        .collect()
}

#[test]
fn resending_full_context_differs_from_diffs_only_in_the_context_blocks() {
    for name in EXAMPLES {
        let script = example(name);
        let diffs = run(&script, ContextMode::Diffs);
        let full = run(&script, ContextMode::ResendFullContext);
        assert_eq!(full.requests.len(), diffs.requests.len(), "{name}");
        assert_eq!(
            full.requests[0], diffs.requests[0],
            "{name}: the first request"
        );
        for (index, (full_request, diff_request)) in full
            .requests
            .iter()
            .zip(&diffs.requests)
            .enumerate()
            .skip(1)
        {
            let label = format!("{name} request {}", index + 1);
            assert_eq!(
                conversation(full_request, &script),
                conversation(diff_request, &script),
                "{label}: the same conversation"
            );
            assert_eq!(
                full_request.world_state, diff_request.world_state,
                "{label}: the model ends up told the same state"
            );
            assert_eq!(
                full_request.body.instructions,
                diff_request.body.instructions
            );
            assert_eq!(full_request.body.tools, diff_request.body.tools);
            // What this turn added: the previous reply (after its reasoning items), a full
            // context block, the user's message. The block is what a thread without a baseline sends, which is also what
            // the diff run sends right after a compaction at this turn.
            if script.turns[index].compact.is_some() || script.turns[index].rollback.is_some() {
                continue;
            }
            let previous_len = full.requests[index - 1].body.input.len();
            let input_len = full_request.body.input.len();
            let previous_output = script.turns[index - 1].reasoning.len() + 1;
            let resent = texts(full_request, previous_len + previous_output..input_len - 1);
            let mut compacted_here = script.clone();
            compacted_here.turns[index].compact = Some(Compaction::Rewrite("summary".to_string()));
            let compacted = run(&compacted_here, ContextMode::Diffs);
            let after_compaction = &compacted.requests[index];
            let summary_at = after_compaction
                .body
                .input
                .iter()
                .position(|item| {
                    serde_json::to_value(item).unwrap()["content"][0]["text"]
                        .as_str()
                        .is_some_and(|text| text.ends_with("\nsummary"))
                })
                .expect("the summary is in the request");
            let reinjected = texts(
                after_compaction,
                summary_at + 1..after_compaction.body.input.len() - 1,
            );
            assert_eq!(
                resent, reinjected,
                "{label}: the resent block is full context"
            );
            assert!(resent.contains("<permissions instructions>"), "{label}");
            assert!(
                full_request.body.input.len() >= diff_request.body.input.len(),
                "{label}: resending never sends less"
            );
        }
    }
}
