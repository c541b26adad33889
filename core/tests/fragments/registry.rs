//! The registry's rows, the lists derived from it and the classifier.

use std::collections::BTreeSet;

use codex_core::context::contextual_user_message::is_contextual_text;
use codex_core::context::fragment_registry::ContentKindPattern;
use codex_core::context::fragment_registry::ContextualList;
use codex_core::context::fragment_registry::FragmentOrigin;
use codex_core::context::fragment_registry::Recognition;
use codex_core::context::fragment_registry::SizeCap;
use codex_core::context::fragment_registry::all_fragment_types;
use codex_core::context::fragment_registry::classify;
use codex_core::context::fragment_registry::contextual_developer_prefixes;
use codex_core::context::fragment_registry::contextual_user_fragment_types;
use codex_core::context::fragment_registry::fragment_type;
use codex_core::context::fragment_registry::is_contextual_developer_text;
use codex_core::context::fragment_registry::is_contextual_user_text;
use codex_core::context::fragments::MAX_INJECTED_ITEM_TOKENS;
use codex_core::context::world_state::sections::model::MODEL_SWITCH;
use codex_core::context::world_state::sections::realtime::REALTIME_END;
use pretty_assertions::assert_eq;

#[test]
fn rows_are_consistent() {
    let mut names = BTreeSet::new();
    for info in all_fragment_types() {
        assert!(names.insert(info.name), "duplicate name {}", info.name);
        let marked = !info.spec.start_marker.is_empty() && !info.spec.end_marker.is_empty();
        match info.recognition {
            Recognition::Markers => assert!(marked, "{} has no markers", info.name),
            Recognition::ContentKindOnly => assert_ne!(
                info.content_kind(),
                ContentKindPattern::Unassigned,
                "{} cannot be recognised at all",
                info.name
            ),
            Recognition::Prefix(_)
            | Recognition::ExactPrefixSuffix { .. }
            | Recognition::Custom(_) => {}
        }
        match (info.origin, info.cap) {
            (FragmentOrigin::Fragment, SizeCap::Tokens(cap)) => {
                assert!(cap <= MAX_INJECTED_ITEM_TOKENS, "{} cap {cap}", info.name)
            }
            (FragmentOrigin::Fragment, cap) => panic!("{} has cap {cap:?}", info.name),
            (
                FragmentOrigin::WorldStateSection(_)
                | FragmentOrigin::Extension(_)
                | FragmentOrigin::Protocol
                | FragmentOrigin::Historical,
                _,
            ) => {}
        }
        if info.contextual == ContextualList::Developer {
            assert!(
                info.contextual_developer_prefix().is_some(),
                "{} has no prefix",
                info.name
            );
        }
    }
    assert!(names.len() >= 60, "{} types", names.len());
}

#[test]
fn world_state_rows_point_at_the_section_specs() {
    assert_eq!(
        fragment_type("model_switch").map(|info| info.spec),
        Some(MODEL_SWITCH)
    );
    assert_eq!(
        fragment_type("realtime_end").map(|info| info.spec),
        Some(REALTIME_END)
    );
    assert_eq!(
        fragment_type("model_switch").map(|info| info.origin),
        Some(FragmentOrigin::WorldStateSection("model"))
    );
}

/// fragments.md §3.1: upstream's contextual user matchers, in order.
#[test]
fn contextual_user_list_matches_upstream_order() {
    let names: Vec<&str> = contextual_user_fragment_types()
        .map(|info| info.name)
        .collect();
    assert_eq!(
        names,
        [
            "agents_md",
            "environment_context",
            "additional_context_user",
            "skill_instructions",
            "user_shell_command",
            "turn_aborted",
            "subagent_notification",
            "internal_model_context",
            "recommended_plugins",
            "legacy_unified_exec_process_limit_warning",
            "legacy_apply_patch_exec_command_warning",
            "legacy_model_mismatch_warning",
            "hook_prompt",
        ]
    );
}

/// fragments.md §3.1: upstream's `CONTEXTUAL_DEVELOPER_PREFIXES`, in order.
#[test]
fn contextual_developer_prefixes_match_upstream() {
    assert_eq!(
        contextual_developer_prefixes(),
        [
            "<permissions instructions>",
            "Approved command prefix saved:",
            "<model_switch>",
            "<managed_developer_instructions>",
            "<apps_instructions>",
            "<collaboration_mode>",
            "<multi_agent_role>",
            "<multi_agent_mode>",
            "<environments_instructions>",
            "<git_attribution>",
            "<plugins_instructions>",
            "<realtime_conversation>",
            "<skills_instructions>",
            "<tools>",
            "<personality_spec>",
            "<token_budget>",
            "<context_window>",
            "<context_window_guidance>",
            "<rollout_budget>",
        ]
    );
}

/// The recogniser table in `contextual_user_message` can be generated from the registry: both
/// give the same verdict on every text of this corpus.
#[test]
fn derived_rules_agree_with_the_contextual_message_table() {
    let user_texts = [
        "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>",
        "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        "<external_k>v</external_k>",
        "<external_k>v</external_j>",
        "<SKILL>\n<name>pdf</name>\n</skill>",
        "<user_shell_command>\nls\n</user_shell_command>",
        "<turn_aborted>\nstop\n</turn_aborted>",
        "<subagent_notification>{}</subagent_notification>",
        "<codex_internal_context source=\"goal\">\nx\n</codex_internal_context>",
        "<codex_internal_context source=\"Goal\">\nx\n</codex_internal_context>",
        "<goal_context>\nx\n</goal_context>",
        "<recommended_plugins>\n- a (b)\n</recommended_plugins>",
        "Warning: The maximum number of unified exec processes you can keep open is 8.",
        "<hook_prompt hook_run_id=\"r\">x</hook_prompt>",
        "<realtime_delegation>\n  <input>x</input>\n</realtime_delegation>",
        "<project_context>x</project_context>",
        "hello",
    ];
    for text in user_texts {
        assert_eq!(
            is_contextual_user_text(text),
            is_contextual_text("user", text),
            "user text {text:?}"
        );
    }
    let developer_texts = [
        "<permissions instructions>\nx\n</permissions instructions>",
        "approved command prefix saved:\n- [\"ls\"]",
        "<realtime_conversation>\nx\n</realtime_conversation>",
        "<token_budget>\nx\n</token_budget>",
        "<rollout_budget>\nx\n</rollout_budget>",
        "<git_attribution>\nx\n</git_attribution>",
        "<current_time_reminder>It is now.</current_time_reminder>",
        "<image_resize_notice>\nx\n</image_resize_notice>",
        "Prefer small commits.",
    ];
    for text in developer_texts {
        assert_eq!(
            is_contextual_developer_text(text),
            is_contextual_text("developer", text),
            "developer text {text:?}"
        );
    }
}

#[test]
fn classify_trusts_recorded_kinds() {
    let realtime = "<realtime_conversation>\nbye\n</realtime_conversation>";
    // Text alone cannot tell start from end; the kind can.
    assert_eq!(
        classify("developer", realtime, None).map(|info| info.name),
        Some("realtime_start")
    );
    assert_eq!(
        classify(
            "developer",
            realtime,
            Some("realtime_conversation.end_instructions")
        )
        .map(|info| info.name),
        Some("realtime_end")
    );
    // What the user typed is never a fragment, however it looks.
    assert_eq!(
        classify(
            "user",
            "<environment_context>\n</environment_context>",
            Some("user.text")
        )
        .map(|info| info.name),
        None
    );
    // Per-instance kinds.
    assert_eq!(
        classify("user", "anything", Some("additional_content.editor")).map(|info| info.name),
        Some("additional_context_user")
    );
    assert_eq!(
        classify("developer", "anything", Some("additional_content.editor")).map(|info| info.name),
        Some("additional_context_developer")
    );
    assert_eq!(
        classify("user", "x", Some("goal.internal_context")).map(|info| info.name),
        Some("internal_model_context")
    );
    // Unknown, unregistered and role-mismatched kinds fall back to the text.
    for kind in ["unknown", "", "future.kind", "model.base_instructions"] {
        assert_eq!(
            classify("user", "<turn_aborted>\nx\n</turn_aborted>", Some(kind))
                .map(|info| info.name),
            Some("turn_aborted"),
            "kind {kind:?}"
        );
    }
    assert!(classify("user", "hello", Some("future.kind")).is_none());
}
