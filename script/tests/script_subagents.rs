//! `subagents.json`: `spawn_agent` calls start sub-agents, each a thread of its own with its own
//! rollout; a fresh one starts from the parent's settings alone, a forked one from the parent's
//! history without what only the parent's model produced; a completed one tells the parent's
//! turn, which samples once more. (Not in `EXAMPLES`: one script turn sends several requests.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_protocol::RolloutLine;
use codex_script::ContextMode;
use codex_script::Script;
use codex_script::render_requests_layout;
use pretty_assertions::assert_eq;
use script_support::*;
use serde_json::Value;

fn body(request: &codex_script::ScriptRequest) -> Value {
    serde_json::to_value(&request.body).unwrap()
}

fn turn_metadata(body: &Value) -> Value {
    serde_json::from_str(
        body["client_metadata"]["x-codex-turn-metadata"]
            .as_str()
            .unwrap(),
    )
    .unwrap()
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            tool["name"]
                .as_str()
                .or(tool["type"].as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Each line's type (events by their payload type; `session_meta` with its thread, parent and
/// fork origin; `world_state` with the sections it touches).
/// Threads are named by when `ids` (shared by every rollout shown) first saw them.
fn shape(lines: &[RolloutLine], ids: &mut Vec<String>) -> String {
    let mut name = |id: &str| -> String {
        let index = ids.iter().position(|seen| seen == id).unwrap_or_else(|| {
            ids.push(id.to_string());
            ids.len() - 1
        });
        format!("thread-{index}")
    };
    lines
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .map(|line| {
            let payload = &line["payload"];
            match line["type"].as_str().unwrap() {
                "event_msg" => payload["type"].as_str().unwrap().to_string(),
                "session_meta" => {
                    let id = name(payload["id"].as_str().unwrap());
                    let parent = payload["parent_thread_id"].as_str().map(&mut name);
                    let forked = payload["forked_from_id"].as_str().map(&mut name);
                    format!(
                        "session_meta {id} parent {} forked_from {} nickname {} source {}",
                        parent.as_deref().unwrap_or("-"),
                        forked.as_deref().unwrap_or("-"),
                        payload["agent_nickname"].as_str().unwrap_or("-"),
                        payload["thread_source"].as_str().unwrap_or("-"),
                    )
                }
                "world_state" => {
                    let sections: Vec<&String> =
                        payload["state"].as_object().unwrap().keys().collect();
                    format!("world_state full={} {sections:?}", payload["full"])
                }
                other => other.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn subagents_layout() {
    let script = example("subagents");
    let run = run(&script, ContextMode::Diffs);
    // Parent: turn 1; turn 2's call, Ada's turn, the follow-up, Grace's turn, the notice's
    // step; turn 3.
    assert_eq!(run.requests.len(), 7);
    assert_eq!(run.agents.len(), 2);
    insta::assert_snapshot!("subagents", render_requests_layout(&run.requests).unwrap());
    let mut ids = Vec::new();
    let mut rollouts = vec![shape(&run.rollout, &mut ids)];
    rollouts.extend(run.agents.iter().map(|lines| shape(lines, &mut ids)));
    insta::assert_snapshot!("subagents_rollouts", rollouts.join("\n---\n"));

    let bodies: Vec<Value> = run.requests.iter().map(body).collect();
    let parent_id = bodies[0]["prompt_cache_key"].as_str().unwrap().to_string();
    for (index, body) in bodies.iter().enumerate() {
        // Every agent of the tree shares the root thread's session and cache key.
        assert_eq!(
            body["prompt_cache_key"],
            parent_id.as_str(),
            "request {index}"
        );
        assert_eq!(turn_metadata(body)["session_id"], parent_id.as_str());
    }
    let spawned_turn = turn_metadata(&bodies[1])["turn_id"].clone();
    for child in [&bodies[2], &bodies[4]] {
        let metadata = turn_metadata(child);
        assert_eq!(
            child["client_metadata"]["x-openai-subagent"],
            "collab_spawn"
        );
        assert_eq!(
            child["client_metadata"]["x-codex-parent-thread-id"],
            parent_id.as_str()
        );
        assert_eq!(metadata["parent_thread_id"], parent_id.as_str());
        assert_eq!(metadata["parent_turn_id"], spawned_turn);
        assert_eq!(metadata["root_turn_id"], spawned_turn);
        assert_eq!(metadata["subagent_kind"], "thread_spawn");
        assert_eq!(metadata["thread_source"], "subagent");
        // At `agents.max_depth` (1), a sub-agent is offered no multi-agent tools.
        assert!(!tool_names(child).contains(&"tool_search".to_string()));
    }
    assert!(tool_names(&bodies[0]).contains(&"tool_search".to_string()));
    assert_eq!(
        turn_metadata(&bodies[4])["forked_from_thread_id"],
        parent_id.as_str()
    );
    assert!(
        turn_metadata(&bodies[2])
            .get("forked_from_thread_id")
            .is_none()
    );
}

#[test]
fn agents_max_depth_offers_sub_agents_the_multi_agent_tools() {
    let text = std::fs::read_to_string(examples_dir().join("subagents.json")).unwrap();
    let text = text.replace(
        "\"seed\": 17",
        "\"seed\": 17, \"agents\": {\"max_depth\": 2}",
    );
    let script = Script::parse(&text, "subagents.json", &examples_dir()).unwrap();
    let run = run(&script, ContextMode::Diffs);
    assert!(tool_names(&body(&run.requests[2])).contains(&"tool_search".to_string()));
}

/// Resuming after the turn that spawned the agents gives the straight run's last request and
/// lines: the resumed thread still lists its agents.
#[test]
fn resuming_after_the_spawn_matches_the_straight_run() {
    let script = example("subagents");
    let straight = run(&script, ContextMode::Diffs);
    let first_part = run(&truncated(&script, 2), ContextMode::Diffs);
    let rollout = reload(&first_part.rollout);
    let rest = resume(&script, &rollout, 2);
    assert_eq!(
        rest.requests[..],
        straight.requests[straight.requests.len() - 1..]
    );
    assert_eq!(
        rest.rollout,
        straight.rollout[first_part.rollout.len()..],
        "the resumed turn writes the rest of the straight rollout"
    );
}

#[test]
fn agent_mistakes_are_named_with_their_place() {
    let error = |call: &str| -> String {
        let text = format!(r#"{{"turns": [{{"user": "a", "tool_calls": [{call}]}}]}}"#);
        Script::parse(&text, "script.json", &examples_dir())
            .expect_err("the script is rejected")
            .to_string()
    };
    let spawn = r#""name": "spawn_agent", "namespace": "multi_agent_v1""#;
    let cases = [
        (
            r#"{"name": "exec_command", "agent": {}}"#.to_string(),
            "script.json: turns[0].tool_calls[0].agent: only a \"spawn_agent\" call (namespace \
             \"multi_agent_v1\") starts an agent",
        ),
        (
            format!(
                r#"{{{spawn}, "arguments": {{"message": "m"}}, "output": "x", "agent": {{}}}}"#
            ),
            "script.json: turns[0].tool_calls[0].output: a call that starts an agent answers \
             with the agent's id: no \"output\"",
        ),
        (
            format!(r#"{{{spawn}, "arguments": {{"fork_context": true}}, "agent": {{}}}}"#),
            "script.json: turns[0].tool_calls[0].arguments: spawn_agent takes {\"message\", \
             \"fork_context\"?}: missing field `message` at line 1 column 21",
        ),
        (
            format!(
                r#"{{{spawn}, "arguments": {{"message": "m"}}, "agent": {{"runs": "later"}}}}"#
            ),
            "script.json: turns[0].tool_calls[0].agent.runs: must be \"before_follow_up\" or \
             \"after_follow_up\"",
        ),
        (
            format!(r#"{{{spawn}, "arguments": {{"message": "m"}}, "agent": {{"reply": "x"}}}}"#),
            "script.json: turns[0].tool_calls[0].agent: unknown key \"reply\" (expected one of: \
             assistant, nickname, runs, ends, notice_reply)",
        ),
        (
            format!(
                r#"{{{spawn}, "arguments": {{"message": "m"}}, "agent": {{"notice_reply": {{"error": "e", "attempts": 0}}}}}}"#
            ),
            "script.json: turns[0].tool_calls[0].agent.notice_reply.attempts: must be a positive \
             number of requests",
        ),
    ];
    for (call, expected) in cases {
        assert_eq!(error(&call), expected, "{call}");
    }
}
