use codex_config::AgentsMdDiscovery;
use codex_config::AgentsMdWarning;
use codex_config::EnvironmentRole;
use codex_config::GlobalInstructions;
use codex_config::ProjectDoc;
use codex_core::FirstTurnOptions;
use codex_core::IdGenerator;
use codex_core::build_first_turn_request;
use codex_prompts::TemplateSet;
use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;

use super::*;

/// Index, role and `(kind, source, bytes)` per entry of one explained item.
type ItemSummary = (usize, Option<String>, Vec<(String, String, usize)>);

fn turn() -> TurnContext {
    let mut model = ModelInfo::with_defaults("test-model");
    model.model_messages = Some(codex_protocol::ModelMessages {
        instructions_template: Some("Be a careful engineer.".to_string()),
        ..codex_protocol::ModelMessages::default()
    });
    let mut turn = TurnContext::for_model("thread", "turn", model, "/work/project");
    turn.current_date = "2026-11-30".to_string();
    turn.developer_instructions = Some("Use tabs.".to_string());
    turn.agents_md = Some(AgentsMdDiscovery {
        global: Some(GlobalInstructions {
            path: "/home/user/.codex/AGENTS.md".into(),
            text: "Be brief.".to_string(),
        }),
        project_docs: vec![ProjectDoc {
            path: "/work/project/AGENTS.md".into(),
            text: "Run tes".to_string(),
            bytes_used: 7,
            truncated_bytes: 5,
            environment_id: "local".to_string(),
            environment_cwd: "/work/project".into(),
            environment_role: EnvironmentRole::Primary,
        }],
        internal_guidance: None,
        primary_cwd: Some("/work/project".into()),
        project_docs_policy: codex_config::ProjectDocsPolicy::Discover,
        warnings: vec![AgentsMdWarning::Truncated {
            path: "/work/project/AGENTS.md".into(),
            kept_bytes: 7,
            dropped_bytes: 5,
        }],
    });
    turn
}

#[test]
fn explanation_lists_every_entry_with_kind_source_and_agents_md_truncation() {
    let turn = turn();
    let ids = IdGenerator::seeded(1, "2026-11-30T07:02:00Z".parse().expect("timestamp"));
    let first = build_first_turn_request(
        &turn,
        Vec::new(),
        &TemplateSet::embedded(),
        &ids,
        FirstTurnOptions {
            user_message: Some("hi"),
            ..FirstTurnOptions::default()
        },
    )
    .expect("request");
    let explanation = explain_first_turn(&turn, &first);

    let summary: Vec<ItemSummary> = explanation
        .items
        .iter()
        .map(|item| {
            (
                item.index,
                item.role.clone(),
                item.entries
                    .iter()
                    .map(|entry| (entry.kind.clone(), entry.source.clone(), entry.bytes))
                    .collect(),
            )
        })
        .collect();
    let developer = &first.request.input[0];
    let ResponseItem::Message { content, .. } = developer else {
        panic!("developer message first");
    };
    let permissions_bytes = content[1].text().expect("text").len();
    let environment_bytes = match &first.request.input[1] {
        ResponseItem::Message { content, .. } => content[1].text().expect("text").len(),
        other => panic!("unexpected {other:?}"),
    };
    assert_eq!(
        summary,
        vec![
            (
                0,
                Some("developer".to_string()),
                vec![
                    (
                        "generic.developer_instructions".to_string(),
                        "configuration".to_string(),
                        "Use tabs.".len()
                    ),
                    (
                        "permissions.instructions".to_string(),
                        "world-state section `permissions`".to_string(),
                        permissions_bytes
                    ),
                ]
            ),
            (
                1,
                Some("user".to_string()),
                vec![
                    (
                        "agents_md.instructions".to_string(),
                        "world-state section `agents_md`".to_string(),
                        "# AGENTS.md instructions for /work/project\n\n<INSTRUCTIONS>\nBe brief.\n\n--- project-doc ---\n\nRun tes\n</INSTRUCTIONS>".len()
                    ),
                    (
                        "environments.environment_context".to_string(),
                        "world-state section `environments`".to_string(),
                        environment_bytes
                    ),
                ]
            ),
            (
                2,
                Some("user".to_string()),
                vec![("user.text".to_string(), "user message".to_string(), 2)]
            ),
        ]
    );
    assert_eq!(
        explanation.items[1].entries[0].built_from,
        vec![
            "/home/user/.codex/AGENTS.md".to_string(),
            "/work/project/AGENTS.md".to_string()
        ]
    );
    assert_eq!(
        explanation.items[2].entries[0].fingerprint,
        fingerprint("user", "hi")
    );
    assert_eq!(
        explanation.agents_md,
        vec![
            AgentsMdFile {
                scope: "global",
                path: "/home/user/.codex/AGENTS.md".to_string(),
                bytes_used: 9,
                truncated_bytes: 0,
            },
            AgentsMdFile {
                scope: "project",
                path: "/work/project/AGENTS.md".to_string(),
                bytes_used: 7,
                truncated_bytes: 5,
            },
        ]
    );
    assert_eq!(
        explanation.warnings,
        vec!["Project doc `/work/project/AGENTS.md` exceeds the remaining project_doc_max_bytes budget: kept 7 bytes, dropped 5 bytes.".to_string()]
    );
    insta::assert_snapshot!(explanation.render_text());
}
