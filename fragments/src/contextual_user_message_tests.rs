use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::USER_TEXT_KIND;
use crate::contextual_user_fragment_types;

fn message(role: &str, texts: &[&str], kinds: Option<&[&str]>) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: role.to_string(),
        content: texts
            .iter()
            .map(|text| ContentItem::input_text(*text))
            .collect(),
        phase: None,
        internal_chat_message_metadata_passthrough: kinds.map(|kinds| {
            InternalChatMessageMetadataPassthrough {
                content_item_kinds: Some(
                    kinds
                        .iter()
                        .map(|kind| ContentItemKind::new(*kind))
                        .collect(),
                ),
                ..InternalChatMessageMetadataPassthrough::default()
            }
        }),
    }
}

/// One sample text per contextual user type of the registry, in upstream's recogniser order.
const USER_SAMPLES: [(&str, &str); 13] = [
    (
        "agents_md",
        "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe kind\n</INSTRUCTIONS>",
    ),
    (
        "environment_context",
        "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
    ),
    (
        "additional_context_user",
        "<external_ticket>ABC-1</external_ticket>",
    ),
    ("skill_instructions", "<skill>\n<name>x</name>\n</skill>"),
    (
        "user_shell_command",
        "<user_shell_command>\nls\n</user_shell_command>",
    ),
    (
        "turn_aborted",
        "<turn_aborted>\ninterrupted\n</turn_aborted>",
    ),
    (
        "subagent_notification",
        "<subagent_notification>\n{}\n</subagent_notification>",
    ),
    (
        "internal_model_context",
        "<codex_internal_context source=\"goal\">\nx\n</codex_internal_context>",
    ),
    (
        "recommended_plugins",
        "<recommended_plugins>\n- a\n</recommended_plugins>",
    ),
    (
        "legacy_unified_exec_process_limit_warning",
        "Warning: The maximum number of unified exec processes you can keep open is 8.",
    ),
    (
        "legacy_apply_patch_exec_command_warning",
        "Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of exec_command.",
    ),
    (
        "legacy_model_mismatch_warning",
        "Warning: Your account was flagged for potentially high-risk cyber activity.",
    ),
    (
        "hook_prompt",
        "<hook_prompt hook_run_id=\"run-1\">check</hook_prompt>",
    ),
];

#[test]
fn every_contextual_user_type_recognises_its_sample_and_only_it() {
    for (name, text) in USER_SAMPLES {
        let matched: Vec<&str> = contextual_user_fragment_types()
            .filter(|info| info.hides_text(text))
            .map(|info| info.name)
            .collect();
        assert_eq!(matched, vec![name], "sample {text:?}");
        assert!(
            !is_contextual_text(DEVELOPER_ROLE, text),
            "{name} is user-only"
        );
    }
}

#[test]
fn samples_cover_the_contextual_user_types_in_order() {
    let names: Vec<&str> = contextual_user_fragment_types()
        .map(|info| info.name)
        .collect();
    let expected: Vec<&str> = USER_SAMPLES.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected);
}

#[test]
fn marker_rule_ignores_case_and_surrounding_whitespace() {
    assert!(is_contextual_text(
        USER_ROLE,
        "  \n<ENVIRONMENT_CONTEXT>x</Environment_Context>\n "
    ));
    assert!(!is_contextual_text(USER_ROLE, "<environment_context>x"));
    assert!(!is_contextual_text(
        USER_ROLE,
        "see <environment_context>x</environment_context>"
    ));
}

#[test]
fn arbitrary_tags_and_unlisted_fragments_stay_user_text() {
    for text in [
        "<project_context>x</project_context>",
        "<realtime_delegation>\n  <input>hi</input>\n</realtime_delegation>",
        "<external_a>x</external_b>",
        "<codex_internal_context source=\"Goal\">x</codex_internal_context>",
        "<codex_internal_context source=\"\">x</codex_internal_context>",
        "<hook_prompt hook_run_id=\" \">x</hook_prompt>",
        "<hook_prompt>x</hook_prompt>",
        "Warning: apply_patch was requested via exec_command.",
        "hello",
    ] {
        assert!(!is_contextual_text(USER_ROLE, text), "{text:?}");
    }
}

#[test]
fn legacy_goal_context_is_internal_context() {
    assert!(is_contextual_text(
        USER_ROLE,
        "<goal_context>\nship it\n</goal_context>"
    ));
    // The legacy form is matched case-sensitively.
    assert!(!is_contextual_text(
        USER_ROLE,
        "<GOAL_CONTEXT>x</GOAL_CONTEXT>"
    ));
}

#[test]
fn developer_prefixes_are_case_insensitive_after_leading_whitespace() {
    assert!(is_contextual_text(
        DEVELOPER_ROLE,
        "\n<PERMISSIONS INSTRUCTIONS>\nread-only"
    ));
    assert!(is_contextual_text(
        DEVELOPER_ROLE,
        "approved command prefix saved:\n- [\"ls\"]"
    ));
    assert!(is_contextual_text(
        DEVELOPER_ROLE,
        "<context_window>\nAgent name: /root\n</context_window>"
    ));
    assert!(!is_contextual_text(
        DEVELOPER_ROLE,
        "Always answer in French."
    ));
    assert!(!is_contextual_text(
        DEVELOPER_ROLE,
        "<current_time_reminder>x</current_time_reminder>"
    ));
    assert!(!is_contextual_text(
        USER_ROLE,
        "<permissions instructions>x</permissions instructions>"
    ));
}

#[test]
fn pasted_environment_context_with_user_kind_is_not_context() {
    let pasted = "<environment_context>\n  <cwd>/etc</cwd>\n</environment_context>";
    let typed = message(USER_ROLE, &[pasted], Some(&[USER_TEXT_KIND]));
    assert!(!is_contextual_user_message(&typed));
    assert!(is_user_turn_boundary(&typed));

    let without_kinds = message(USER_ROLE, &[pasted], None);
    assert!(is_contextual_user_message(&without_kinds));
    assert!(!is_user_turn_boundary(&without_kinds));
}

#[test]
fn listed_kind_marks_context_even_without_markers() {
    let item = message(
        USER_ROLE,
        &["no markers here"],
        Some(&["environments.environment_context"]),
    );
    assert!(is_contextual_user_message(&item));
    let internal = message(USER_ROLE, &["x"], Some(&["goal.internal_context"]));
    assert!(is_contextual_user_message(&internal));
    let external = message(USER_ROLE, &["x"], Some(&["additional_content.ticket"]));
    assert!(is_contextual_user_message(&external));
}

#[test]
fn unlisted_kind_is_not_context_even_with_markers() {
    let delegation = message(
        USER_ROLE,
        &["<environment_context>x</environment_context>"],
        Some(&["realtime_conversation.delegation"]),
    );
    assert!(!is_contextual_user_message(&delegation));
}

#[test]
fn unknown_or_misaligned_kinds_fall_back_to_markers() {
    let env = "<environment_context>x</environment_context>";
    for kinds in [
        Some(&["unknown"][..]),
        Some(&[""][..]),
        Some(&[USER_TEXT_KIND, USER_TEXT_KIND][..]),
    ] {
        let item = message(USER_ROLE, &[env], kinds);
        assert!(is_contextual_user_message(&item), "{kinds:?}");
    }
}

#[test]
fn one_injected_part_makes_the_user_message_contextual() {
    let item = message(
        USER_ROLE,
        &["hello", "<turn_aborted>x</turn_aborted>"],
        Some(&[USER_TEXT_KIND, "generic.turn_aborted"]),
    );
    assert!(is_contextual_user_message(&item));
}

#[test]
fn developer_bundles_can_mix_context_and_configured_instructions() {
    let bundle = message(
        DEVELOPER_ROLE,
        &[
            "<permissions instructions>x</permissions instructions>",
            "Be terse.",
        ],
        Some(&["permissions.instructions", "generic.developer_instructions"]),
    );
    assert!(is_contextual_developer_message(&bundle));
    assert!(has_non_contextual_developer_content(&bundle));
    assert!(is_context_update(&bundle));

    let pure = message(
        DEVELOPER_ROLE,
        &["<collaboration_mode>x</collaboration_mode>"],
        None,
    );
    assert!(is_contextual_developer_message(&pure));
    assert!(!has_non_contextual_developer_content(&pure));

    // A configured instruction that merely starts like a fragment is judged by its kind.
    let configured = message(
        DEVELOPER_ROLE,
        &["<permissions instructions> are mine"],
        Some(&["generic.developer_instructions"]),
    );
    assert!(!is_contextual_developer_message(&configured));
}

#[test]
fn output_text_and_other_roles_are_never_context() {
    let assistant = ResponseItem::message(
        "assistant",
        vec![ContentItem::output_text(
            "<environment_context>x</environment_context>",
        )],
    );
    assert!(!is_context_update(&assistant));
    assert!(!is_user_turn_boundary(&assistant));
}

#[test]
fn summaries_are_recognised_by_kind_then_by_either_prefix() {
    let own = "Earlier work, summarised:";
    let by_kind = message(
        USER_ROLE,
        &["anything"],
        Some(&[COMPACTION_SUMMARY.content_kind]),
    );
    assert!(is_compaction_summary(&by_kind, own));
    let typed = message(
        USER_ROLE,
        &[&format!("{own}\nsummary")],
        Some(&[USER_TEXT_KIND]),
    );
    assert!(!is_compaction_summary(&typed, own));
    let own_text = message(USER_ROLE, &[&format!("{own}\nsummary")], None);
    assert!(is_compaction_summary(&own_text, own));
    let upstream = message(
        USER_ROLE,
        &[&format!("{UPSTREAM_SUMMARY_PREFIX}\nsummary")],
        None,
    );
    assert!(is_compaction_summary(&upstream, own));
    let no_newline = message(USER_ROLE, &[&format!("{own} summary")], None);
    assert!(!is_compaction_summary(&no_newline, own));
    // A summary is still a real user message, so it stays a turn boundary.
    assert!(is_user_turn_boundary(&upstream));
}
