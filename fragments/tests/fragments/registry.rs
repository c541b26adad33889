//! The registry's rows, the lists derived from it and the classifier.

use std::collections::BTreeSet;

use codex_fragments::ContentKindPattern;
use codex_fragments::ContextualList;
use codex_fragments::FragmentOrigin;
use codex_fragments::FragmentTypeInfo;
use codex_fragments::MAX_INJECTED_ITEM_TOKENS;
use codex_fragments::Recognition;
use codex_fragments::SizeCap;
use codex_fragments::USER_CONTENT_KIND_PREFIX;
use codex_fragments::USER_TEXT_KIND;
use codex_fragments::all_fragment_types;
use codex_fragments::classify;
use codex_fragments::contextual_developer_prefixes;
use codex_fragments::contextual_user_fragment_types;
use codex_fragments::fragment_roles;
use codex_fragments::fragment_type;
use codex_fragments::is_contextual_content;
use codex_fragments::is_contextual_text;
use codex_fragments::sections::MODEL_SWITCH;
use codex_fragments::sections::REALTIME_END;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
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

/// Upstream's contextual user matchers (`codex-rs/core/src/context/contextual_user_message.rs`),
/// in order.
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

/// Upstream's `CONTEXTUAL_DEVELOPER_PREFIXES` (`codex-rs/core/src/event_mapping.rs`), in order.
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

/// A text that `info`'s recognition rule accepts, where the rule has a general form.
fn sample_text(info: &FragmentTypeInfo) -> Option<String> {
    match info.recognition {
        Recognition::Markers => Some(format!(
            "{}\nsample\n{}",
            info.spec.start_marker, info.spec.end_marker
        )),
        Recognition::Prefix(prefix) => Some(format!("{prefix}\nsample")),
        Recognition::ExactPrefixSuffix { prefix, suffix } => {
            Some(format!("{prefix} sample {suffix}"))
        }
        Recognition::Custom(_) | Recognition::ContentKindOnly => None,
    }
}

/// A content kind that `info`'s kind pattern accepts.
fn sample_kind(info: &FragmentTypeInfo) -> Option<String> {
    match info.content_kind() {
        ContentKindPattern::Exact(kind) => Some(kind.to_string()),
        ContentKindPattern::Prefix(prefix) => Some(format!("{prefix}sample")),
        ContentKindPattern::Suffix(suffix) => Some(format!("sample{suffix}")),
        ContentKindPattern::Unassigned => None,
    }
}

/// The per-item verdicts sessions, history and rollouts use are derived from the registry:
/// every row's text and kind are judged injected context exactly when the row is listed, so a
/// new row changes them without any other edit.
#[test]
fn contextual_verdicts_follow_every_registry_row() {
    let mut judged_by_text = Vec::new();
    let mut judged_by_kind = Vec::new();
    for info in all_fragment_types() {
        let listed = info.contextual != ContextualList::NotListed;
        if let Some(text) = sample_text(info) {
            judged_by_text.push((info.name, is_contextual_text(info.role(), &text)));
            let other_role = if info.role() == "user" {
                "developer"
            } else {
                "user"
            };
            assert!(
                !listed || !is_contextual_text(other_role, &text),
                "{} is hidden under {other_role} too",
                info.name
            );
        }
        if let Some(kind) = sample_kind(info) {
            let content = ContentItem::input_text("plain words");
            let kind = ContentItemKind::new(kind);
            judged_by_kind.push((
                info.name,
                is_contextual_content(info.role(), &content, Some(&kind)),
            ));
        }
        assert_eq!(
            info.role(),
            match info.contextual {
                ContextualList::User => "user",
                ContextualList::Developer => "developer",
                ContextualList::NotListed => info.role(),
            },
            "{} is listed under the other role",
            info.name
        );
    }
    let expected = |judged: &[(&'static str, bool)]| -> Vec<(&'static str, bool)> {
        judged
            .iter()
            .map(|(name, _)| {
                let listed = fragment_type(name)
                    .is_some_and(|info| info.contextual != ContextualList::NotListed);
                (*name, listed)
            })
            .collect()
    };
    assert_eq!(judged_by_text, expected(&judged_by_text));
    assert_eq!(judged_by_kind, expected(&judged_by_kind));
}

/// A recorded kind decides before the text: the git-attribution extension's registered kind
/// hides its fragment, a configured instruction's kind does not, and only without kinds does
/// the prefix rule apply. Text people wrote never counts, whatever it looks like.
#[test]
fn registry_kinds_decide_before_text() {
    let attribution = ContentItem::input_text("<git_attribution>\nx\n</git_attribution>");
    let configured = ContentItemKind::new("generic.developer_instructions");
    let registered = ContentItemKind::new("git_attribution.instructions");
    assert!(is_contextual_content(
        "developer",
        &attribution,
        Some(&registered)
    ));
    assert!(!is_contextual_content(
        "developer",
        &attribution,
        Some(&configured)
    ));
    assert!(is_contextual_content("developer", &attribution, None));

    let pasted = ContentItem::input_text("<environment_context>\nx\n</environment_context>");
    assert!(USER_TEXT_KIND.starts_with(USER_CONTENT_KIND_PREFIX));
    assert!(!is_contextual_content(
        "user",
        &pasted,
        Some(&ContentItemKind::new(USER_TEXT_KIND))
    ));
    assert!(is_contextual_content("user", &pasted, None));
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

#[test]
fn fragment_roles_are_the_registry_roles_in_first_appearance_order() {
    assert_eq!(fragment_roles(), vec!["user", "developer", "assistant"]);
}
