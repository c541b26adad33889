use codex_prompts::TemplateSet;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::PreviousSectionArg;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::render_transition_cases;
use crate::context::world_state::world_state_diff_cli;
use crate::turn_context::UsageHintSource;

fn hint(text: &str) -> MultiAgentUsageHintSection {
    MultiAgentUsageHintSection::new(MultiAgentUsageHintSectionInputs {
        text: text.to_string(),
        source: UsageHintSource::Catalog,
    })
    .expect("non-empty hint")
}

fn section(
    mode: Option<MultiAgentMode>,
    usage_hint: Option<&MultiAgentUsageHintSection>,
) -> MultiAgentModeSection {
    MultiAgentModeSection::new(mode, usage_hint, &TemplateSet::embedded())
}

fn custom(text: &str) -> Option<MultiAgentMode> {
    Some(MultiAgentMode::Custom(text.to_string()))
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn snapshots() {
    let inactive = section(None, None);
    let explicit = section(Some(MultiAgentMode::ExplicitRequestOnly), None);
    let proactive = section(Some(MultiAgentMode::Proactive), None);
    let with_hint = section(
        Some(MultiAgentMode::Proactive),
        Some(&hint("Use explorers.")),
    );
    let custom_mode = section(custom("Delegate test runs to one worker."), None);
    let empty_custom = section(custom(""), None);
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &inactive),
        (Absent, &explicit),
        (Absent, &proactive),
        (Absent, &custom_mode),
        (Absent, &empty_custom),
        (Unknown, &inactive),
        (Unknown, &proactive),
        (Known(&inactive), &inactive),
        (Known(&proactive), &proactive),
        (Known(&explicit), &proactive),
        (Known(&proactive), &with_hint),
        (Known(&proactive), &custom_mode),
        (Known(&proactive), &inactive),
        (Known(&explicit), &inactive),
        (Known(&custom_mode), &inactive),
    ]));
}

#[test]
fn persisted_mode_is_restored_only_when_missing_from_history() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(Some(MultiAgentMode::Proactive), None))
        .expect("unique section");
    let baseline = world_state.snapshot();
    let block = renders(&world_state.render_full());
    assert_eq!(block.len(), 1);

    assert_eq!(
        renders(&world_state.render_history_diff(Some(&baseline), &[])),
        block
    );
    let retained = ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: vec![ContentItem::input_text(&block[0])],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    };
    assert!(
        world_state
            .render_history_diff(Some(&baseline), &[retained])
            .is_empty()
    );
}

#[test]
fn unchanged_mode_is_reemitted_after_usage_hint_migration() {
    let usage_hint = hint("Use explorers for searches.");
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(Some(MultiAgentMode::Proactive), Some(&usage_hint)))
        .expect("unique section");
    // Written before the usage hint was tracked: same mode, no hint fingerprint.
    let before_migration =
        WorldStateSnapshot::from_value(json!({"multi_agent_mode": {"mode": "proactive"}}))
            .expect("object");
    let proactive_text = renders(&world_state.render_diff(&WorldStateSnapshot::new()));

    assert_eq!(
        renders(&world_state.render_diff(&before_migration)),
        proactive_text
    );
    assert!(world_state.render_diff(&world_state.snapshot()).is_empty());
    assert_eq!(
        world_state.snapshot().into_value(),
        json!({"multi_agent_mode": {
            "mode": "proactive",
            "usage_hint_hash": usage_hint.fingerprint().as_str(),
        }})
    );
}

#[test]
fn catalog_role_updates_remain_separate_from_active_mode() {
    let build = |role_text: &str| {
        let usage_hint = hint(role_text);
        let mode = section(Some(MultiAgentMode::Proactive), Some(&usage_hint));
        let mut world_state = WorldState::new();
        world_state.add_section(usage_hint).expect("unique section");
        world_state.add_section(mode).expect("unique section");
        world_state
    };
    let before = build("Spawn explorers for searches.");
    let after = build("Spawn workers for builds.");

    let fragments = after.render_diff(&before.snapshot());
    assert_eq!(
        renders(&fragments),
        vec![
            "<multi_agent_role>\nSpawn workers for builds.\n</multi_agent_role>".to_string(),
            format!(
                "<multi_agent_mode>{}</multi_agent_mode>",
                TemplateSet::embedded().text(TemplateId::MultiAgentProactive)
            ),
        ]
    );
    // The role block never shares a message, so the two become two developer messages.
    assert_eq!(
        fragments
            .iter()
            .map(|fragment| (fragment.role(), fragment.requires_separate_message()))
            .collect::<Vec<_>>(),
        vec![("developer", true), ("developer", false)]
    );
}

#[test]
fn custom_mode_is_bounded_before_snapshot_and_rendering() {
    // Multi-byte characters around the cut points must not be split.
    let long = format!("{}{}", "Délégue ".repeat(300), "fin.");
    assert!(estimate_tokens(&long) > CUSTOM_MODE_MAX_TOKENS);
    let bounded = section(custom(&long), None);

    let MultiAgentModeSnapshot {
        mode: Some(MultiAgentMode::Custom(stored)),
        ..
    } = bounded.snapshot()
    else {
        panic!("custom mode expected");
    };
    assert!(
        estimate_tokens(&stored) <= CUSTOM_MODE_MAX_TOKENS,
        "{}",
        stored.len()
    );
    assert!(stored.starts_with("Délégue Délégue "));
    assert!(stored.ends_with("Délégue fin."));
    let removed = estimate_tokens(&long) - estimate_tokens(&stored);
    assert!(stored.contains("tokens omitted…"));
    assert!(removed > 0);
    assert_eq!(
        bounded.render_diff(Absent).expect("custom block").render(),
        format!("<multi_agent_mode>{stored}</multi_agent_mode>")
    );

    let short = "Delegate test runs.";
    assert_eq!(
        bound_custom_mode_text(short, &TemplateSet::embedded()),
        short
    );
    let exactly_at_budget = "x".repeat(CUSTOM_MODE_MAX_TOKENS * 4);
    assert_eq!(
        bound_custom_mode_text(&exactly_at_budget, &TemplateSet::embedded()),
        exactly_at_budget
    );
    let one_over = "y".repeat(CUSTOM_MODE_MAX_TOKENS * 4 + 1);
    let cut = bound_custom_mode_text(&one_over, &TemplateSet::embedded());
    assert!(estimate_tokens(&cut) <= CUSTOM_MODE_MAX_TOKENS);
    assert!(cut.contains("…"));
}

#[test]
fn catalog_builds_the_mode_from_json_inputs() {
    let previous = PreviousSectionArg::parse(r#"{"mode": "proactive"}"#).expect("JSON inputs");
    let output = world_state_diff_cli(
        "multi_agent_mode",
        &previous,
        r#"{"mode": {"custom": "Ask before delegating."}, "usage_hint": {"text": "Hint.", "source": "configured"}}"#,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        output,
        "(role - developer)\n<multi_agent_mode>Ask before delegating.</multi_agent_mode>"
    );
    let ended = world_state_diff_cli(
        "multi_agent_mode",
        &previous,
        "{}",
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        ended,
        format!(
            "(role - developer)\n<multi_agent_mode>{}</multi_agent_mode>",
            TemplateSet::embedded().text(TemplateId::MultiAgentExplicitRequestOnly)
        )
    );
}

#[test]
fn a_recorded_catalog_hint_fingerprint_is_rederived_and_the_mode_stays() {
    let recorded = section(
        Some(MultiAgentMode::ExplicitRequestOnly),
        Some(&hint("the release's role text")),
    )
    .snapshot();
    let own_hint = hint("our role text");
    let own = section(Some(MultiAgentMode::ExplicitRequestOnly), Some(&own_hint));
    assert_eq!(own.rederive_recorded(&recorded), Some(own.snapshot()));
    // Without a hint, or with a configured one, the recorded snapshot stays.
    assert_eq!(section(None, None).rederive_recorded(&recorded), None);
    let configured = MultiAgentUsageHintSection::new(MultiAgentUsageHintSectionInputs {
        text: "configured".to_string(),
        source: UsageHintSource::Configured,
    })
    .expect("non-empty hint");
    assert_eq!(
        section(Some(MultiAgentMode::ExplicitRequestOnly), Some(&configured))
            .rederive_recorded(&recorded),
        None
    );
}
