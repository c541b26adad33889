//! A three-turn session as snapshots (first turn
//! in `/repo`, a cwd change, an unchanged turn) — its rollout lines and its three requests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../core/tests/session_support/mod.rs"]
mod session_support;

use codex_core::TurnContext;
use codex_inspect::LayoutOptions;
use codex_inspect::render_layout;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use serde_json::Value;
use session_support::*;

/// Request input in upstream's layout-snapshot format, base instructions replaced.
fn layout(items: &[ResponseItem], turn: &TurnContext) -> String {
    let values: Vec<Value> = items
        .iter()
        .map(|item| serde_json::to_value(item).expect("serialize item"))
        .collect();
    let options = LayoutOptions {
        known_texts: vec![(
            turn.base_instructions.model_instructions().to_string(),
            "<MODEL_INSTRUCTIONS>".to_string(),
        )],
        ..LayoutOptions::default()
    };
    render_layout(&values, &options)
}

#[test]
fn three_turn_session_rollout_and_requests() {
    let ids = seeded_ids();
    let first = first_turn_context(&ids);
    let mut session = new_session(&ids, &first);
    let mut requests = vec![play_turn(&mut session, &first, "hi", "Hello!")];
    let mut second = next_turn_context(&first, &ids);
    set_cwd(&mut second, "/repo2");
    requests.push(play_turn(&mut session, &second, "list the files", "Done."));
    let third = next_turn_context(&second, &ids);
    requests.push(play_turn(&mut session, &third, "thanks", "You're welcome."));

    let mut report = String::from("## rollout\n");
    for (index, line) in lines(&session).iter().enumerate() {
        report.push_str(&format!("{index:02} {}\n", line_label(line)));
        if let RolloutItem::WorldState(state) = &line.item
            && !state.full
        {
            report.push_str(&format!(
                "   {}\n",
                serde_json::to_string(&state.state).unwrap()
            ));
        }
    }
    for (index, request) in requests.iter().enumerate() {
        report.push_str(&format!("\n## request {}\n", index + 1));
        report.push_str(&layout(request, &first));
        report.push('\n');
    }
    insta::assert_snapshot!(report);
}
