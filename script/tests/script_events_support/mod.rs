//! The `inspect` fixture with every fragment type: the `events` example's rollout (real turn
//! events) followed by a turn that records one rendering of every other registered type.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::time::Duration;

use codex_context_fragments::ContextualUserFragment;
use codex_fragments::ContentKindPattern;
use codex_fragments::FragmentTypeInfo;
use codex_fragments::Recognition;
use codex_fragments::additional_context_developer::AdditionalContextDeveloper;
use codex_fragments::additional_context_user::AdditionalContextKey;
use codex_fragments::additional_context_user::AdditionalContextUser;
use codex_fragments::all_fragment_types;
use codex_fragments::auto_compact_fallback_prompt::AutoCompactFallbackPrompt;
use codex_fragments::available_skills_instructions::AvailableSkillsInstructions;
use codex_fragments::available_skills_instructions::SkillEntry;
use codex_fragments::available_skills_instructions::SkillRoot;
use codex_fragments::available_skills_instructions::SkillUsageRules;
use codex_fragments::base_instructions::BaseInstructionsFragment;
use codex_fragments::classify;
use codex_fragments::compaction_prompt::CompactionPrompt;
use codex_fragments::compaction_summary::CompactionSummary;
use codex_fragments::current_time_reminder::CurrentTimeReminder;
use codex_fragments::developer_instructions::DeveloperInstructions;
use codex_fragments::guardian_approved_action::GuardianApprovedAction;
use codex_fragments::guardian_followup_review_reminder::GuardianFollowupReviewReminder;
use codex_fragments::guardian_node_repl_policy::GuardianNodeReplPolicy;
use codex_fragments::guardian_policy::GuardianPolicy;
use codex_fragments::guardian_review_evidence::GuardianReview;
use codex_fragments::guardian_review_evidence::GuardianReviewEvidence;
use codex_fragments::hook_additional_context::HookAdditionalContext;
use codex_fragments::image_resize_notice::ImageResizeNotice;
use codex_fragments::image_resize_notice::ImageResizeSource;
use codex_fragments::image_resize_notice::ResizedImage;
use codex_fragments::inter_agent_completion_message::AgentCompletion;
use codex_fragments::inter_agent_completion_message::InterAgentCompletionMessage;
use codex_fragments::inter_agent_message::InterAgentMessage;
use codex_fragments::inter_agent_message::InterAgentMessageType;
use codex_fragments::internal_model_context::InternalContextSource;
use codex_fragments::internal_model_context::InternalModelContext;
use codex_fragments::network_rule_saved::NetworkRuleAction;
use codex_fragments::network_rule_saved::NetworkRuleSaved;
use codex_fragments::node_repl_review_evidence::NodeReplResponse;
use codex_fragments::node_repl_review_evidence::NodeReplReviewEvidence;
use codex_fragments::plugin_instructions::PluginInstructions;
use codex_fragments::realtime_delegation::RealtimeDelegation;
use codex_fragments::realtime_delegation::RealtimeDelegationSource;
use codex_fragments::recommended_plugins::RecommendedPlugin;
use codex_fragments::recommended_plugins::RecommendedPlugins;
use codex_fragments::rollout_budget::RolloutBudget;
use codex_fragments::skill_instructions::SkillInstructions;
use codex_fragments::subagent_notification::AgentStatus;
use codex_fragments::subagent_notification::SubagentNotification;
use codex_fragments::token_budget_remaining::TokenBudgetRemaining;
use codex_fragments::token_budget_reminder::TokenBudgetReminder;
use codex_fragments::turn_aborted::TurnAborted;
use codex_fragments::turn_aborted::TurnAbortedAudience;
use codex_fragments::turn_input_contribution::ContributorEnvironment;
use codex_fragments::turn_input_contribution::TurnInputContribution;
use codex_fragments::unsupported_media::UnsupportedMedia;
use codex_fragments::unsupported_media::UnsupportedModality;
use codex_fragments::user_shell_command::UserShellCommand;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use serde_json::json;

/// Stands for the examples folder in the fixture, so it does not depend on the checkout.
pub const EXAMPLES_DIR_PLACEHOLDER: &str = "/sandbox/examples/sessions";

/// Turn id of the catalogue turn.
const CATALOGUE_TURN_ID: &str = "01a22b00-0000-7000-8000-00000000ca7a";

/// One content entry as a rollout records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub role: String,
    pub text: String,
    /// `None` for types older than content kinds.
    pub kind: Option<String>,
}

/// A rendering of `info`'s type: the fragment itself for this project's fragment types, text
/// shaped by the type's recognition rule otherwise (world-state sections render elsewhere;
/// historical types are only ever read).
pub fn sample(info: &FragmentTypeInfo, templates: &TemplateSet) -> Sample {
    match rendered_fragment(info.name, templates) {
        Some(fragment) => Sample {
            role: fragment.role().to_string(),
            text: fragment.render(),
            kind: Some(fragment.content_kind().as_str().to_string()),
        },
        None => Sample {
            role: info.role().to_string(),
            text: shaped_text(info),
            kind: match info.content_kind() {
                ContentKindPattern::Exact(kind) => Some(kind.to_string()),
                ContentKindPattern::Prefix(prefix) => Some(format!("{prefix}sample")),
                ContentKindPattern::Suffix(suffix) => Some(format!("sample{suffix}")),
                ContentKindPattern::Unassigned => None,
            },
        },
    }
}

fn shaped_text(info: &FragmentTypeInfo) -> String {
    let words = format!("Sample {} text.", info.name);
    match info.recognition {
        Recognition::Markers => format!(
            "{}\n{words}\n{}",
            info.spec.start_marker, info.spec.end_marker
        ),
        Recognition::Prefix(prefix) => format!("{prefix}\n{words}"),
        Recognition::ExactPrefixSuffix { prefix, suffix } => format!("{prefix} {words} {suffix}"),
        Recognition::Custom(_) => match info.name {
            "hook_prompt" => format!("<hook_prompt hook_run_id=\"run-1\">{words}</hook_prompt>"),
            other => panic!("no sample text for the custom rule of {other}"),
        },
        Recognition::ContentKindOnly => words,
    }
}

/// This project's fragment types, rendered from ordinary inputs.
fn rendered_fragment(
    name: &str,
    templates: &TemplateSet,
) -> Option<Box<dyn ContextualUserFragment>> {
    let key = || AdditionalContextKey::new("browser").expect("key");
    Some(match name {
        "additional_context_user" => Box::new(AdditionalContextUser::new(
            key(),
            "Tab: release notes",
            templates,
        )),
        "additional_context_developer" => Box::new(AdditionalContextDeveloper::new(
            key(),
            "The browser extension is connected.",
            templates,
        )),
        "skill_instructions" => Box::new(SkillInstructions::new(
            "pdf",
            "skills/pdf/SKILL.md",
            "Convert documents with the pdf tool.",
            None,
            templates,
        )),
        "user_shell_command" => Box::new(UserShellCommand::new(
            "ls",
            0,
            Duration::from_millis(12),
            "Cargo.toml",
            templates,
        )),
        "turn_aborted" => Box::new(TurnAborted::new(TurnAbortedAudience::User, templates)),
        "turn_aborted_developer" => {
            Box::new(TurnAborted::new(TurnAbortedAudience::Developer, templates))
        }
        "subagent_notification" => Box::new(SubagentNotification::new(
            "/root/worker",
            &AgentStatus::Running,
            templates,
        )),
        "internal_model_context" => Box::new(InternalModelContext::new(
            InternalContextSource::new("goal").expect("source"),
            "Keep the release on schedule.",
            templates,
        )),
        "turn_input_contribution" => Box::new(
            TurnInputContribution::new(
                "environment-note",
                "{{ environment_id }} works in {{ cwd }}",
                &[ContributorEnvironment {
                    id: "local",
                    cwd: r"C:\workspace",
                    primary: true,
                }],
                templates,
            )
            .expect("a contribution"),
        ),
        "recommended_plugins" => Box::new(
            RecommendedPlugins::from_plugins(
                &[RecommendedPlugin {
                    name: "Linear".to_string(),
                    id: "linear@openai".to_string(),
                }],
                templates,
            )
            .expect("one plugin"),
        ),
        "available_skills_instructions" => Box::new(AvailableSkillsInstructions::new(
            &[SkillRoot {
                alias: "s".to_string(),
                path: "/home/user/.codex/skills".to_string(),
            }],
            &[SkillEntry {
                name: "pdf".to_string(),
                description: "Work with PDF files.".to_string(),
                path: "s/pdf/SKILL.md".to_string(),
            }],
            SkillUsageRules::Include,
            templates,
        )),
        "rollout_budget" => Box::new(RolloutBudget::new(120_000, templates)),
        "current_time_reminder" => Box::new(CurrentTimeReminder::new(
            "2026-11-30T12:00:00Z".parse().expect("timestamp"),
            templates,
        )),
        "network_rule_saved" => Box::new(NetworkRuleSaved::new(
            NetworkRuleAction::Deny,
            "tracker.example.com",
            templates,
        )),
        "image_resize_notice" => Box::new(ImageResizeNotice::new(
            ImageResizeSource::UserMessage,
            &[ResizedImage {
                number: 1,
                count: 1,
                original: (4000, 3000),
                prepared: (2048, 1536),
            }],
            templates,
        )),
        "hook_additional_context" => Box::new(HookAdditionalContext::new(
            "The pre-commit hook formats Rust files.",
            templates,
        )),
        "realtime_delegation" => Box::new(RealtimeDelegation::new(
            "Open the failing test.",
            Some("user: can you open the failing test"),
            RealtimeDelegationSource::TranscriptTailFlush,
        )),
        "token_budget_remaining" => Box::new(TokenBudgetRemaining::new(Some(50_000), templates)),
        "token_budget_reminder" => Box::new(TokenBudgetReminder::new(
            "Only {n_remaining} tokens are left.",
            8_000,
            templates,
        )),
        "auto_compact_fallback_prompt" => Box::new(AutoCompactFallbackPrompt::new(
            "Summarize the work so far.",
            templates,
        )),
        "plugin_instructions" => Box::new(PluginInstructions::new(
            "The linear plugin provides the linear MCP server.",
            templates,
        )),
        "inter_agent_message" => Box::new(InterAgentMessage::new(
            InterAgentMessageType::NewTask,
            "review",
            "/root",
            "Review the index change.",
            templates,
        )),
        "inter_agent_completion_message" => Box::new(InterAgentCompletionMessage::new(
            "review",
            "/root/reviewer",
            &AgentCompletion::FinalAnswer(Some("Looks good.".to_string())),
            templates,
        )),
        "guardian_policy" => Box::new(GuardianPolicy::new(
            "Deny network access to unknown hosts.",
            templates,
        )),
        "guardian_followup_review_reminder" => {
            Box::new(GuardianFollowupReviewReminder::new(templates))
        }
        "guardian_node_repl_policy" => Box::new(GuardianNodeReplPolicy::new(templates)),
        "guardian_review_evidence" => Box::new(GuardianReviewEvidence::new(
            &GuardianReview {
                decision: json!({"status": "approved", "risk_level": "low"}),
                correlation: json!({"review_id": "r-1"}),
                action: "cargo test".to_string(),
                rationale: Some("Tests only read the workspace.".to_string()),
            },
            templates,
        )),
        "node_repl_review_evidence" => Box::new(NodeReplReviewEvidence::new(
            &[NodeReplResponse {
                sequence: 1,
                provenance: "tool".to_string(),
                text: "42".to_string(),
            }],
            0,
            templates,
        )),
        "guardian_approved_action" => Box::new(GuardianApprovedAction::new(
            "{\"command\":[\"cargo\",\"publish\"]}",
            templates,
        )),
        "compaction_summary" => Box::new(CompactionSummary::new(
            "The user asked for an index.",
            templates,
        )),
        "compaction_prompt" => Box::new(CompactionPrompt::new(templates)),
        "unsupported_image" => {
            Box::new(UnsupportedMedia::new(UnsupportedModality::Image, templates))
        }
        "unsupported_audio" => {
            Box::new(UnsupportedMedia::new(UnsupportedModality::Audio, templates))
        }
        "developer_instructions" => Box::new(DeveloperInstructions::new(
            "Prefer small commits.",
            templates,
        )),
        "base_instructions" => Box::new(BaseInstructionsFragment::new(
            "You are a coding agent.",
            templates,
        )),
        _ => return None,
    })
}

/// The registry names `lines` already holds entries of (by the registry's own classifier).
pub fn types_present(lines: &[RolloutLine]) -> BTreeSet<&'static str> {
    let mut present = BTreeSet::new();
    for line in lines {
        let RolloutItem::ResponseItem(item) = &line.item else {
            continue;
        };
        let ResponseItem::Message { role, content, .. } = item else {
            continue;
        };
        let kinds = item.content_item_kinds();
        for (position, part) in content.iter().enumerate() {
            let Some(text) = part.text() else {
                continue;
            };
            let kind = kinds
                .and_then(|kinds| kinds.get(position))
                .map(ContentItemKind::as_str);
            if let Some(info) = classify(role, text, kind) {
                present.insert(info.name);
            }
        }
    }
    present
}

/// `events_rollout` followed by a turn that records every registered type it lacks, one
/// message each, in registry order.
pub fn every_fragment_type_rollout(
    events_rollout: &[RolloutLine],
    templates: &TemplateSet,
) -> Vec<RolloutLine> {
    let present = types_present(events_rollout);
    let mut lines = events_rollout.to_vec();
    let timestamp = lines.last().expect("a rollout").timestamp.clone();
    let event = |payload| {
        RolloutLine::new(
            timestamp.clone(),
            RolloutItem::Other {
                line_type: EVENT_MSG_LINE_TYPE.to_string(),
                payload,
            },
        )
    };
    lines.push(event(json!({
        "type": "task_started",
        "turn_id": CATALOGUE_TURN_ID,
        "started_at": 1_796_018_400,
        "model_context_window": 258_400,
        "collaboration_mode_kind": "default",
    })));
    let mut turn_context = events_rollout
        .iter()
        .rev()
        .find_map(|line| {
            let RolloutItem::TurnContext(item) = &line.item else {
                return None;
            };
            Some(item.clone())
        })
        .expect("the events rollout records turn contexts");
    turn_context.turn_id = Some(CATALOGUE_TURN_ID.to_string());
    lines.push(RolloutLine::new(
        timestamp.clone(),
        RolloutItem::TurnContext(turn_context),
    ));
    for info in all_fragment_types() {
        if present.contains(info.name) {
            continue;
        }
        let sample = sample(info, templates);
        let message = ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: sample.role,
            content: vec![ContentItem::input_text(sample.text)],
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    turn_id: Some(CATALOGUE_TURN_ID.to_string()),
                    content_item_kinds: sample.kind.map(|kind| vec![ContentItemKind::new(kind)]),
                    ..InternalChatMessageMetadataPassthrough::default()
                },
            ),
        };
        lines.push(RolloutLine::new(
            timestamp.clone(),
            RolloutItem::ResponseItem(message),
        ));
    }
    lines.push(event(json!({
        "type": "task_complete",
        "turn_id": CATALOGUE_TURN_ID,
        "last_agent_message": null,
        "started_at": 1_796_018_400,
        "completed_at": 1_796_018_400,
    })));
    lines
}
