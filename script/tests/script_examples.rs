//! Every example under `examples/sessions/`: its layout snapshot, and the properties a scripted
//! session must keep (resume equivalence at every turn, prefix stability, unchanged turns that
//! add only the user's message, world-state records that replay to the baselines).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_core::WorldStateSnapshot;
use codex_protocol::RolloutItem;
use codex_rollout::reconstruct;
use codex_script::ContextMode;
use codex_script::ReadBack;
use codex_script::ScriptSink;
use codex_script::ScriptStart;
use codex_script::ScriptedReplies;
use codex_script::SessionContinuity;
use codex_script::render_requests_layout;
use codex_script::run_script;
use pretty_assertions::assert_eq;
use script_support::*;
use serde_json::Value;

#[test]
fn example_layouts() {
    for name in EXAMPLES {
        let script = example(name);
        let run = run(&script, ContextMode::Diffs);
        assert_eq!(run.requests.len(), script.turns.len(), "{name}");
        insta::assert_snapshot!(name, render_requests_layout(&run.requests).unwrap());
    }
}

#[test]
fn runs_are_reproducible() {
    for name in EXAMPLES {
        let script = example(name);
        assert_eq!(
            run(&script, ContextMode::Diffs),
            run(&script, ContextMode::Diffs),
            "{name}"
        );
    }
}

/// Running to turn k, resuming from that rollout and running the rest gives the requests of
/// the straight run, for every example and every k.
#[test]
fn resuming_at_any_turn_matches_the_straight_run() {
    for name in EXAMPLES {
        let script = example(name);
        let straight = run(&script, ContextMode::Diffs);
        for k in 1..script.turns.len() {
            let first_part = run(&truncated(&script, k), ContextMode::Diffs);
            assert_eq!(
                first_part.rollout,
                straight.rollout[..first_part.rollout.len()],
                "{name}: the first {k} turns write a prefix of the straight rollout"
            );
            let rollout = reload(&first_part.rollout);
            let rest = resume(&script, &rollout, k);
            assert_eq!(
                rest.requests,
                straight.requests[k..],
                "{name}: resumed at turn {k}"
            );
            assert_eq!(
                rest.rollout,
                straight.rollout[first_part.rollout.len()..],
                "{name}: resumed at turn {k} writes the rest of the straight rollout"
            );
        }
    }
}

/// Each request extends the one before it (plus the reply) unless history was compacted or
/// rolled back in between; instructions never change, tools only with the model or the
/// environments (without one there are no shell, patch or image tools).
#[test]
fn requests_keep_their_prefix() {
    for name in EXAMPLES {
        let script = example(name);
        let run = run(&script, ContextMode::Diffs);
        for (turn, pair) in run.requests.windows(2).enumerate() {
            let (before, after) = (&pair[0].body, &pair[1].body);
            assert_eq!(
                after.instructions,
                before.instructions,
                "{name} turn {}",
                turn + 1
            );
            let next = &script.turns[turn + 1];
            let environments_set = next.set.iter().any(|layer| layer.sets("environments"));
            if after.model == before.model && !environments_set {
                assert_eq!(after.tools, before.tools, "{name} turn {}", turn + 1);
            }
            if next.compact.is_none() && next.rollback.is_none() {
                assert_eq!(
                    after.input[..before.input.len()],
                    before.input[..],
                    "{name}: request {} extends request {}",
                    turn + 2,
                    turn + 1
                );
            }
        }
    }
}

/// A turn that changes no setting adds the previous reply and its own message, nothing else.
#[test]
fn unchanged_turns_add_only_the_conversation() {
    let mut checked = 0;
    for name in EXAMPLES {
        let script = example(name);
        let run = run(&script, ContextMode::Diffs);
        for (index, turn) in script.turns.iter().enumerate().skip(1) {
            if !turn.set.is_empty() || turn.compact.is_some() || turn.rollback.is_some() {
                continue;
            }
            let before = &run.requests[index - 1].body.input;
            let added: Vec<String> = run.requests[index].body.input[before.len()..]
                .iter()
                .map(|item| serde_json::to_value(item).unwrap())
                .map(|item| match item["type"].as_str().unwrap() {
                    "reasoning" => format!(
                        "reasoning: {}",
                        item["summary"][0]["text"].as_str().unwrap()
                    ),
                    _ => format!(
                        "{}: {}",
                        item["role"].as_str().unwrap(),
                        item["content"][0]["text"].as_str().unwrap()
                    ),
                })
                .collect();
            let previous = &script.turns[index - 1];
            let previous_reply = match &previous.assistant {
                codex_script::AssistantReply::Scripted(text) => text.clone(),
                codex_script::AssistantReply::Absent => unreachable!("examples reply"),
            };
            let mut expected: Vec<String> = previous
                .reasoning
                .iter()
                .map(|reasoning| format!("reasoning: {}", reasoning.summary[0]))
                .collect();
            expected.push(format!("assistant: {previous_reply}"));
            expected.push(format!("user: {}", turn.user));
            assert_eq!(added, expected, "{name} turn {index}");
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} unchanged turns checked");
}

/// Replaying the `world_state` lines written up to the end of each turn (full records replace,
/// patches merge, compactions reset) gives that turn's baseline, and so does reconstruction.
#[test]
fn world_state_records_replay_to_each_baseline() {
    for name in EXAMPLES {
        let script = example(name);
        let run = run(&script, ContextMode::Diffs);
        let prefixes = turn_prefixes(&run.rollout);
        assert_eq!(prefixes.len(), run.requests.len(), "{name}");
        for (prefix, request) in prefixes.iter().zip(&run.requests) {
            let mut replayed: Option<WorldStateSnapshot> = None;
            for line in *prefix {
                match &line.item {
                    RolloutItem::WorldState(state) if state.full => {
                        replayed = Some(state.state.clone().into_iter().collect());
                    }
                    RolloutItem::WorldState(state) => {
                        let patch = Value::Object(state.state.clone().into_iter().collect());
                        replayed
                            .as_mut()
                            .expect("a patch follows a full record")
                            .apply_merge_patch(&patch)
                            .unwrap();
                    }
                    RolloutItem::Compacted(_) => replayed = None,
                    RolloutItem::SessionMeta(_)
                    | RolloutItem::ResponseItem(_)
                    | RolloutItem::TurnContext(_)
                    | RolloutItem::Other { .. } => {}
                }
            }
            assert!(
                request.world_state.is_some(),
                "{name} turn {}",
                request.turn
            );
            assert_eq!(
                replayed, request.world_state,
                "{name} turn {}",
                request.turn
            );
            let reconstructed: Option<WorldStateSnapshot> = reconstruct(&reload(prefix))
                .world_state_baseline
                .map(|baseline| baseline.into_iter().collect());
            assert_eq!(
                reconstructed, request.world_state,
                "{name} turn {}",
                request.turn
            );
        }
    }
}

/// `"resume": true` turns rebuild the session from its rollout; dropping the flag changes
/// nothing the model sees.
#[test]
fn resume_turns_are_invisible_to_the_model() {
    let script = example("resume_after_model_change");
    assert!(
        script
            .turns
            .iter()
            .any(|turn| matches!(turn.continuity, SessionContinuity::ResumeFromRollout { .. }))
    );
    let mut without = script.clone();
    for turn in &mut without.turns {
        turn.continuity = SessionContinuity::Continue;
    }
    assert_eq!(
        run(&script, ContextMode::Diffs),
        run(&without, ContextMode::Diffs)
    );
}

/// A sink that keeps its lines in a temporary file for `resume` turns to re-read (what
/// `session run` uses) plays every example as the in-memory sink does, straight through and
/// resumed at any turn (the earlier lines then come from the rollout, the later ones from the
/// file).
#[test]
fn a_temporary_file_copy_replays_as_the_in_memory_one() {
    for name in EXAMPLES {
        let script = example(name);
        let env = environment(&script);
        let straight = run(&script, ContextMode::Diffs);
        for k in 0..script.turns.len() {
            let (start, rollout);
            let expected = match k {
                0 => {
                    start = ScriptStart::Beginning;
                    &straight.requests[..]
                }
                _ => {
                    rollout = reload(&run(&truncated(&script, k), ContextMode::Diffs).rollout);
                    start = ScriptStart::Resume {
                        rollout: &rollout,
                        turn: k,
                    };
                    &straight.requests[k..]
                }
            };
            let spooled = run_script(
                &script,
                &env,
                start,
                ScriptSink::new(ReadBack::TemporaryFile).unwrap(),
                ContextMode::Diffs,
                &mut ScriptedReplies,
            )
            .unwrap();
            assert_eq!(spooled.requests, expected, "{name}: from turn {k}");
            assert_eq!(
                spooled.rollout,
                Vec::new(),
                "{name}: no line kept in memory"
            );
        }
    }
}

/// A `rollback` turn's request is the request of the turn it replaces, up to the user's
/// message: the dropped turns' context updates come back, diffed against what the turns left
/// had told the model.
#[test]
fn a_rollback_replays_the_context_updates_of_the_dropped_turn() {
    let script = example("rollback");
    let run = run(&script, ContextMode::Diffs);
    let (dropped, follow_up) = (&run.requests[1].body.input, &run.requests[2].body.input);
    assert!(script.turns[2].rollback.is_some());
    assert_eq!(dropped.len(), follow_up.len());
    assert_eq!(
        dropped[..dropped.len() - 1]
            .iter()
            .map(|item| serde_json::to_value(item).unwrap()["content"].clone())
            .collect::<Vec<_>>(),
        follow_up[..follow_up.len() - 1]
            .iter()
            .map(|item| serde_json::to_value(item).unwrap()["content"].clone())
            .collect::<Vec<_>>()
    );
    let types: Vec<String> = run
        .rollout
        .iter()
        .filter_map(|line| match &line.item {
            RolloutItem::Other { payload, .. } => payload["type"].as_str().map(str::to_string),
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Compacted(_) => None,
        })
        .filter(|kind| kind == "thread_rolled_back" || kind == "token_count")
        .collect();
    // Each rollback recounts the usage, then records itself.
    assert_eq!(
        types
            .windows(2)
            .filter(|pair| pair[1] == "thread_rolled_back")
            .count(),
        2
    );
    assert!(
        types
            .windows(2)
            .filter(|pair| pair[1] == "thread_rolled_back")
            .all(|pair| pair[0] == "token_count")
    );
}

/// `compaction_task.json`: the compaction task's own request (the summarization prompt after the
/// history, no tools) comes between the first and second turns' requests, and the turns after
/// it start from the user's messages and the summary with full context again. (Not in
/// `EXAMPLES`: the properties there pair each request with one script turn.)
#[test]
fn compaction_task_layout() {
    let script = example("compaction_task");
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(run.requests.len(), script.turns.len() + 1);
    let compaction = &run.requests[1].body;
    assert!(compaction.tools.as_ref().is_none_or(Vec::is_empty));
    insta::assert_snapshot!(
        "compaction_task",
        render_requests_layout(&run.requests).unwrap()
    );
    let lines: Vec<String> = run
        .rollout
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .filter_map(|line| {
            let kind = line["type"].as_str()?.to_string();
            match line["payload"]["type"].as_str() {
                Some(payload) if kind == "event_msg" => Some(payload.to_string()),
                _ => Some(kind),
            }
        })
        .collect();
    insta::assert_snapshot!("compaction_task_rollout", lines.join("\n"));

    // The compaction's own request still runs in the first context window; the turns after it
    // run in the window it opened (number 1, the id its `compacted` line records), as do the
    // turns of the thread resumed from that rollout.
    let opened = run
        .rollout
        .iter()
        .find_map(|line| match &line.item {
            RolloutItem::Compacted(compacted) => compacted.window_id().map(str::to_string),
            _ => None,
        })
        .unwrap();
    let windows = |requests: &[codex_script::ScriptRequest]| -> Vec<(String, String)> {
        requests
            .iter()
            .map(|request| {
                let body = serde_json::to_value(&request.body).unwrap();
                let metadata = body["client_metadata"]["x-codex-turn-metadata"]
                    .as_str()
                    .unwrap();
                let metadata: Value = serde_json::from_str(metadata).unwrap();
                let number = metadata["window_id"].as_str().unwrap();
                let number = number.rsplit(':').next().unwrap().to_string();
                let id = metadata["context_window_id"].as_str().unwrap().to_string();
                (number, id)
            })
            .collect()
    };
    let straight = windows(&run.requests);
    let numbers: Vec<&str> = straight.iter().map(|(number, _)| number.as_str()).collect();
    assert_eq!(numbers, ["0", "0", "1", "1"]);
    assert_eq!(straight[0].1, straight[1].1);
    assert_eq!(straight[2].1, opened);
    assert_eq!(straight[3].1, opened);
    let first_part = script_support::run(&truncated(&script, 2), ContextMode::Diffs);
    let rollout = reload(&first_part.rollout);
    let rest = resume(&script, &rollout, 2);
    assert_eq!(windows(&rest.requests), straight[3..]);
}

/// `fork.json`: each `fork` step ends the current thread's rollout and starts a new thread
/// whose rollout opens with its own `session_meta` (naming its parent) and the parent's kept
/// lines; the turn after the forks continues the second fork's history. (Not in `EXAMPLES`:
/// a fork-only step sends no request.)
#[test]
fn fork_layout() {
    let script = example("fork");
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(run.requests.len(), 3);
    assert_eq!(run.forks.len(), 2);
    let shape = |lines: &[codex_protocol::RolloutLine]| -> Vec<String> {
        lines
            .iter()
            .map(|line| serde_json::to_value(line).unwrap())
            .map(|line| {
                let kind = line["type"].as_str().unwrap_or_default().to_string();
                match (kind.as_str(), &line["payload"]) {
                    ("event_msg", payload) => payload["type"].as_str().unwrap_or_default().into(),
                    ("session_meta", payload) => format!(
                        "session_meta {} forked_from {}",
                        payload["id"].as_str().unwrap_or_default(),
                        payload["forked_from_id"].as_str().unwrap_or("-")
                    ),
                    _ => kind,
                }
            })
            .collect()
    };
    let mut rollouts = vec![shape(&run.rollout).join("\n")];
    rollouts.extend(run.forks.iter().map(|lines| shape(lines).join("\n")));
    insta::assert_snapshot!("fork_rollouts", rollouts.join("\n---\n"));
    insta::assert_snapshot!("fork", render_requests_layout(&run.requests).unwrap());
    // A forked thread's requests name the thread it was forked from, as upstream's do.
    let forked_from = |request: &codex_core::ResponsesRequest| -> Option<String> {
        let body = serde_json::to_value(request).unwrap();
        let metadata = body["client_metadata"]["x-codex-turn-metadata"].as_str()?;
        let metadata: serde_json::Value = serde_json::from_str(metadata).unwrap();
        metadata["forked_from_thread_id"]
            .as_str()
            .map(str::to_string)
    };
    let session_id = |lines: &[codex_protocol::RolloutLine]| -> Option<String> {
        let first = serde_json::to_value(&lines[0]).unwrap();
        first["payload"]["id"].as_str().map(str::to_string)
    };
    let forked: Vec<Option<String>> = run
        .requests
        .iter()
        .map(|request| forked_from(&request.body))
        .collect();
    // The third request runs on the second fork, which branched off the first.
    assert_eq!(forked, vec![None, None, session_id(&run.forks[0])]);
    assert!(forked[2].is_some());
}

/// `paginated_fork.json`: a thread in paginated history mode numbers its rollout lines from 0
/// and records its messages and reasoning as `item_completed` turn items; the fork keeps the
/// mode (its rollout numbered from 0 again, the copied lines included) and the resumed fork
/// goes on with the numbering. Resuming the parent from its rollout continues its numbering as
/// the straight run does. (Not in `EXAMPLES`: a fork ends the first thread's rollout.)
#[test]
fn paginated_fork_layout() {
    let script = example("paginated_fork");
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(run.requests.len(), 4);
    assert_eq!(run.forks.len(), 1);
    let shape = |lines: &[codex_protocol::RolloutLine]| -> Vec<String> {
        lines
            .iter()
            .map(|line| serde_json::to_value(line).unwrap())
            .map(|line| {
                let ordinal = line["ordinal"]
                    .as_u64()
                    .map_or("-".into(), |n| n.to_string());
                let kind = line["type"].as_str().unwrap_or_default().to_string();
                let what = match (kind.as_str(), &line["payload"]) {
                    ("event_msg", payload) if payload["type"] == "item_completed" => {
                        format!(
                            "item_completed {}",
                            payload["item"]["type"].as_str().unwrap()
                        )
                    }
                    ("event_msg", payload) => payload["type"].as_str().unwrap_or_default().into(),
                    ("session_meta", payload) => format!(
                        "session_meta history_mode {}",
                        payload["history_mode"].as_str().unwrap_or("-")
                    ),
                    _ => kind,
                };
                format!("{ordinal} {what}")
            })
            .collect()
    };
    let mut rollouts = vec![shape(&run.rollout).join("\n")];
    rollouts.extend(run.forks.iter().map(|lines| shape(lines).join("\n")));
    insta::assert_snapshot!("paginated_fork_rollouts", rollouts.join("\n---\n"));
    for lines in std::iter::once(&run.rollout).chain(&run.forks) {
        let ordinals: Vec<Option<u64>> = lines.iter().map(|line| line.ordinal).collect();
        let expected: Vec<Option<u64>> = (0..lines.len() as u64).map(Some).collect();
        assert_eq!(ordinals, expected);
    }

    // The parent resumed after its first turn writes what the straight run wrote next.
    let first_part = script_support::run(&truncated(&script, 1), ContextMode::Diffs);
    let rollout = reload(&first_part.rollout);
    let rest = resume(&truncated(&script, 2), &rollout, 1);
    assert_eq!(rest.rollout, run.rollout[first_part.rollout.len()..]);
}

/// `environments.json`: a thread whose environments are of another platform (their paths and
/// workspace roots shown verbatim, nothing on this host read through them) with turn-input
/// contributors that receive those environments, then a turn without any environment (no
/// working directory, no shell, patch or image tools, and nothing contributed). The snapshot
/// holds every text the model is sent besides the base instructions and the permissions, the
/// tools of each request, and the workspace roots each `turn_context` line records.
#[test]
fn environments_texts() {
    let script = example("environments");
    let run = run(&script, ContextMode::Diffs);
    let mut out = Vec::new();
    for (position, request) in run.requests.iter().enumerate() {
        let body = serde_json::to_value(&request.body).unwrap();
        out.push(format!("## Request {}", position + 1));
        let tools: Vec<&str> = body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().or(tool["type"].as_str()).unwrap())
            .collect();
        out.push(format!("tools: {}", tools.join(", ")));
        for item in body["input"].as_array().unwrap() {
            for content in item["content"].as_array().into_iter().flatten() {
                let text = content["text"].as_str().unwrap_or_default();
                if !text.starts_with("<permissions instructions>") {
                    out.push(format!("{}: {text}", item["role"].as_str().unwrap()));
                }
            }
        }
    }
    for line in &run.rollout {
        let line = serde_json::to_value(line).unwrap();
        if line["type"] == "turn_context" {
            out.push(format!(
                "turn_context workspace_roots: {}",
                line["payload"]["workspace_roots"]
            ));
        }
    }
    insta::assert_snapshot!("environments_texts", out.join("\n"));
}
