//! Named permission profiles in scripted sessions: what the model and the rollout are told
//! about a profile that denies reads (`examples/sessions/permission_profile.json`), and a turn
//! that fails before any request because the profile denies its AGENTS.md
//! (`examples/sessions/failed_turn.json`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_script::ContextMode;
use codex_script::FailedTurn;
use codex_script::render_requests_layout;
use pretty_assertions::assert_eq;
use script_support::example;
use script_support::examples_dir;
use script_support::run;
use serde_json::Value;

/// `text` with the examples folder (which depends on the checkout) as `<EXAMPLES>`.
fn portable(text: &str) -> String {
    let dir = std::fs::canonicalize(examples_dir()).unwrap();
    text.replace(&dir.display().to_string(), "<EXAMPLES>")
}

/// The texts of a request's input messages, one block each.
fn input_texts(input: &[ResponseItem]) -> Vec<String> {
    input
        .iter()
        .filter_map(|item| match item {
            ResponseItem::Message { role, content, .. } => Some((role, content)),
            _ => None,
        })
        .flat_map(|(role, content)| {
            content.iter().filter_map(move |entry| match entry {
                ContentItem::InputText { text } | ContentItem::OutputText { text, .. } => {
                    Some(format!("[{role}]\n{text}"))
                }
                _ => None,
            })
        })
        .collect()
}

#[test]
fn a_profile_with_denied_reads_is_described_as_it_is_enforced() {
    let run = run(&example("permission_profile"), ContextMode::Diffs);
    let first = &run.requests[0].body;
    let texts = input_texts(&first.input);
    let permissions = texts
        .iter()
        .find(|text| text.contains("<permissions instructions>"))
        .expect("permissions text");
    let environment = texts
        .iter()
        .find(|text| text.contains("<environment_context>"))
        .expect("environment context");
    let turn_context = run
        .rollout
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .find(|line| line["type"] == "turn_context")
        .expect("turn_context line");
    let recorded: serde_json::Map<String, Value> = [
        "sandbox_policy",
        "permission_profile",
        "active_permission_profile",
        "file_system_sandbox_policy",
    ]
    .into_iter()
    .map(|key| (key.to_string(), turn_context["payload"][key].clone()))
    .collect();
    insta::assert_snapshot!(
        "permission_profile",
        portable(&format!(
            "{permissions}\n\n{environment}\n\n[turn_context]\n{}",
            serde_json::to_string_pretty(&recorded).unwrap()
        ))
    );
}

#[test]
fn a_turn_whose_agents_md_the_profile_denies_fails_before_any_request() {
    let script = example("failed_turn");
    let run = run(&script, ContextMode::Diffs);
    assert_eq!(run.requests.len(), 2, "the failed turn sends nothing");
    assert_eq!(
        run.failed_turns
            .iter()
            .map(|failure| FailedTurn {
                turn: failure.turn,
                error: portable(&failure.error),
            })
            .collect::<Vec<_>>(),
        vec![FailedTurn {
            turn: 1,
            error: "failed to load AGENTS.md instructions for environment `local`: reading \
                    `<EXAMPLES>/project/AGENTS.md` is denied by the permission profile"
                .to_string(),
        }]
    );
    let lines: Vec<String> = run
        .rollout
        .iter()
        .map(|line| serde_json::to_value(line).unwrap())
        .map(|line| {
            let kind = line["type"].as_str().unwrap_or_default().to_string();
            let payload = &line["payload"];
            match (kind.as_str(), payload["type"].as_str()) {
                ("event_msg", Some("task_complete")) => {
                    match payload["error"]["message"].as_str() {
                        Some(message) => format!("task_complete error: {}", portable(message)),
                        None => "task_complete".to_string(),
                    }
                }
                ("event_msg", Some(event)) => event.to_string(),
                ("response_item", _) => format!(
                    "response_item {}",
                    payload["role"].as_str().unwrap_or_default()
                ),
                (_, _) => kind,
            }
        })
        .collect();
    insta::assert_snapshot!("failed_turn_rollout", lines.join("\n"));
    insta::assert_snapshot!(
        "failed_turn",
        render_requests_layout(&run.requests).unwrap()
    );
}
