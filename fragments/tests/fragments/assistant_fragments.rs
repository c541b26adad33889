//! Assistant-role fragments: messages between agents.

use codex_fragments::inter_agent_completion_message::AgentCompletion;
use codex_fragments::inter_agent_completion_message::InterAgentCompletionMessage;
use codex_fragments::inter_agent_message::InterAgentMessage;
use codex_fragments::inter_agent_message::InterAgentMessageType;
use codex_prompts::TemplateSet;
use insta::assert_snapshot;
use pretty_assertions::assert_eq;

use crate::support::classified_name;
use crate::support::render_and_recognise;

#[test]
fn inter_agent_messages() {
    let templates = TemplateSet::embedded();
    let new_task = InterAgentMessage::new(
        InterAgentMessageType::NewTask,
        "/root/tests",
        "/root",
        "Run the test suite and report failures.",
        &templates,
    );
    let message = InterAgentMessage::new(
        InterAgentMessageType::Message,
        "/root/tests",
        "/root",
        "Also check clippy.",
        &templates,
    );
    assert_snapshot!(
        "inter_agent_messages",
        [
            render_and_recognise(&new_task, "inter_agent_message"),
            render_and_recognise(&message, "inter_agent_message"),
        ]
        .join("\n---\n")
    );
}

#[test]
fn inter_agent_completion_messages() {
    let templates = TemplateSet::embedded();
    let outcomes = [
        AgentCompletion::FinalAnswer(Some("All 42 tests pass.".to_string())),
        AgentCompletion::FinalAnswer(None),
        AgentCompletion::Errored("sandbox denied write".to_string()),
        AgentCompletion::ShutDown,
        AgentCompletion::NotFound,
    ];
    let rendered: Vec<String> = outcomes
        .iter()
        .map(|outcome| {
            let fragment =
                InterAgentCompletionMessage::new("/root/tests", "/root/tests", outcome, &templates);
            render_and_recognise(&fragment, "inter_agent_completion_message")
        })
        .collect();
    assert!(rendered.iter().all(|text| text.contains("FINAL_ANSWER")));
    assert_snapshot!("inter_agent_completion_messages", rendered.join("\n---\n"));
    // Unmarked: an assistant's ordinary answer is never taken for one.
    assert_eq!(
        classified_name("assistant", "Message kind: FINAL_ANSWER"),
        None
    );
}
