//! `inspect` on the rollout of every example under `examples/sessions/`: it finds exactly the
//! requests the run sent, with the same input. Shell tasks and interrupted turns end without a
//! model call, so their trailing notices must not count as requests; input before such a notice
//! that got no answer still does.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_inspect::InspectOptions;
use codex_inspect::inspect_rollout;
use codex_inspect::rebuild_requests;
use codex_models_manager::ModelCatalog;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_script::ContextMode;
use pretty_assertions::assert_eq;
use script_support::example;
use script_support::examples_dir;
use script_support::reload;
use script_support::run;
use serde_json::json;

/// Every `*.json` script under `examples/sessions/`, by file stem, sorted.
fn example_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(examples_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| path.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn inspect_finds_the_requests_each_example_sent() {
    let catalog = ModelCatalog::bundled().unwrap();
    let options = InspectOptions::new(&catalog);
    let names = example_names();
    assert!(names.iter().any(|name| name == "events"), "{names:?}");
    for name in &names {
        let run = run(&example(name), ContextMode::Diffs);
        if !run.forks.is_empty() {
            forked_threads_hold_their_requests(name, run, &options);
            continue;
        }
        if !run.agents.is_empty() {
            agents_hold_their_requests(name, run, &options);
            continue;
        }
        let loaded = reload(&run.rollout);
        let inspection = inspect_rollout(&loaded, &options).unwrap();
        assert_eq!(
            inspection.requests.len(),
            run.requests.len(),
            "{name}: inspected requests"
        );
        let rebuilt: Vec<_> = rebuild_requests(&loaded, &options)
            .unwrap()
            .into_iter()
            .map(|request| request.body.input)
            .collect();
        let sent: Vec<_> = run
            .requests
            .into_iter()
            .map(|request| request.body.input)
            .collect();
        assert_eq!(rebuilt, sent, "{name}: request inputs");
    }
}

/// A script that forks sends its requests from several threads: the first thread's rollout
/// holds the requests sent before the first fork, and the last thread's (which copied its
/// ancestors' lines) ends with the last request sent.
fn forked_threads_hold_their_requests(
    name: &str,
    run: codex_script::ScriptRun,
    options: &InspectOptions<'_>,
) {
    let inputs = |lines: &[RolloutLine]| -> Vec<_> {
        rebuild_requests(&reload(lines), options)
            .unwrap()
            .into_iter()
            .map(|request| request.body.input)
            .collect()
    };
    let sent: Vec<_> = run
        .requests
        .into_iter()
        .map(|request| request.body.input)
        .collect();
    let first = inputs(&run.rollout);
    assert!(!first.is_empty(), "{name}: the first thread sent requests");
    assert_eq!(
        first,
        sent[..first.len()],
        "{name}: the first thread's requests"
    );
    let last = inputs(run.forks.last().unwrap());
    assert_eq!(
        last.last(),
        sent.last(),
        "{name}: the last thread's last request"
    );
}

/// A script that spawns sub-agents sends requests from several threads: the first thread's
/// rollout holds exactly its own, and each agent's (a forked one copied its parent's lines
/// first) ends with the agent's.
fn agents_hold_their_requests(
    name: &str,
    run: codex_script::ScriptRun,
    options: &InspectOptions<'_>,
) {
    let inputs = |lines: &[RolloutLine]| -> Vec<_> {
        rebuild_requests(&reload(lines), options)
            .unwrap()
            .into_iter()
            .map(|request| request.body.input)
            .collect()
    };
    let sent_by = |agent: Option<usize>| -> Vec<_> {
        run.requests
            .iter()
            .filter(|request| request.agent == agent)
            .map(|request| request.body.input.clone())
            .collect()
    };
    assert_eq!(
        inputs(&run.rollout),
        sent_by(None),
        "{name}: the first thread's requests"
    );
    for (index, lines) in run.agents.iter().enumerate() {
        let sent = sent_by(Some(index + 1));
        assert!(
            !sent.is_empty(),
            "{name}: agent {} sent requests",
            index + 1
        );
        let rebuilt = inputs(lines);
        assert!(
            rebuilt.ends_with(&sent),
            "{name}: agent {}'s requests",
            index + 1
        );
    }
}

/// A turn interrupted before any model output: its user message went out in a request with an
/// empty answer, the `<turn_aborted>` notice recorded after it did not.
#[test]
fn input_before_an_interrupt_notice_is_a_request_without_the_notice() {
    let events = run(&example("events"), ContextMode::Diffs).rollout;
    let first_turn_end = events
        .iter()
        .position(|line| line.item.event_msg_type() == Some("task_complete"))
        .unwrap();
    let notice = events
        .iter()
        .find(|line| {
            matches!(&line.item, RolloutItem::ResponseItem(ResponseItem::Message { content, .. })
                if content.iter().any(|part| part.text().is_some_and(|text| text.starts_with("<turn_aborted>"))))
        })
        .unwrap()
        .clone();
    let event = |payload: serde_json::Value| -> RolloutLine {
        serde_json::from_value(json!({
            "timestamp": "2026-11-30T09:00:00.000Z",
            "type": "event_msg",
            "payload": payload,
        }))
        .unwrap()
    };
    let user = ResponseItem::message("user", vec![ContentItem::input_text("Never mind.")]);
    let mut lines = events[..=first_turn_end].to_vec();
    lines.push(event(
        json!({"type": "task_started", "turn_id": "aborted-turn"}),
    ));
    lines.push(RolloutLine::new(
        "2026-11-30T09:00:00.001Z",
        RolloutItem::ResponseItem(user.clone()),
    ));
    lines.push(notice);
    lines.push(event(
        json!({"type": "turn_aborted", "turn_id": "aborted-turn", "reason": "interrupted"}),
    ));

    let catalog = ModelCatalog::bundled().unwrap();
    let rebuilt = rebuild_requests(&reload(&lines), &InspectOptions::new(&catalog)).unwrap();
    assert_eq!(rebuilt.len(), 2);
    let assistant = events[..first_turn_end]
        .iter()
        .rev()
        .find_map(|line| match &line.item {
            RolloutItem::ResponseItem(item @ ResponseItem::Message { role, .. })
                if role == "assistant" =>
            {
                Some(item.clone())
            }
            _ => None,
        })
        .unwrap();
    let mut expected = rebuilt[0].body.input.clone();
    expected.extend([assistant, user]);
    assert_eq!(rebuilt[1].body.input, expected);
}
