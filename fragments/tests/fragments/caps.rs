//! Bounded size: every fragment type, rendered from oversized inputs and with
//! oversized templates, stays within its cap, and no injected item exceeds 10 000 o200k tokens.
//! Tokens are counted here with the o200k vocabulary directly, not with the code under test.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::time::Duration;

use codex_context_fragments::ContextualUserFragment;
use codex_fragments::FragmentOrigin;
use codex_fragments::MAX_INJECTED_ITEM_TOKENS;
use codex_fragments::SizeCap;
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
use codex_fragments::skill_instructions::SkillResourceAccess;
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
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use jiff::Timestamp;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Bytes of each oversized input.
const INPUT_BYTES: usize = 60_000;

/// Prose and code, about four and a half bytes per token.
fn prose(bytes: usize) -> String {
    let paragraph = "The harness records what the model was told, in order. \
        fn render(&self) -> String { format!(\"{}{}\", self.start, self.body) }\n\
        /repo/src/context/fragments/size_cap.rs:42: warning: unused variable `x`\n";
    let mut text = paragraph.repeat(bytes / paragraph.len() + 1);
    text.truncate(bytes);
    text
}

/// Characters outside the common vocabulary (supplementary planes, mixed with punctuation),
/// close to one token per byte: the worst case for a byte budget.
fn dense(bytes: usize) -> String {
    let mut state: u32 = 0x2545_f491;
    let mut text = String::with_capacity(bytes + 4);
    while text.len() < bytes {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let code = 0x10000 + state % 0x10000;
        text.push(char::from_u32(code).unwrap_or('\u{fffd}'));
        if state.is_multiple_of(7) {
            text.push(['<', '>', '&', '"', '/', '\n', '{'][((state >> 3) % 7) as usize]);
        }
    }
    text
}

/// The longest prefix of `text` of at most `bytes` bytes.
fn head(text: &str, bytes: usize) -> &str {
    let mut end = bytes.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// An overlay where every template a fragment uses is followed by `filler`.
fn oversized_templates(filler: &str) -> (tempfile::TempDir, TemplateSet) {
    let dir = tempfile::tempdir().expect("temp dir");
    for id in TemplateId::ALL {
        let path = id.path();
        if !(path.starts_with("fragments/") || path == "compaction/summary_prefix.md") {
            continue;
        }
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("template dir");
        let text = format!("{}\n{filler}\n", id.embedded_file().trim_end());
        std::fs::write(&file, text).expect("template file");
    }
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    (dir, templates)
}

/// Every fragment type of the catalogue rendered from `input`, by registry name.
fn render_all(input: &str, templates: &TemplateSet) -> Vec<(&'static str, String)> {
    let key = AdditionalContextKey::new("k".repeat(64)).expect("key");
    let source = InternalContextSource::new("goal").expect("source");
    let plugins: Vec<RecommendedPlugin> = (0..80)
        .map(|_| RecommendedPlugin {
            name: input.to_string(),
            id: input.to_string(),
        })
        .collect();
    let roots: Vec<SkillRoot> = (0..20)
        .map(|_| SkillRoot {
            alias: input.to_string(),
            path: input.to_string(),
        })
        .collect();
    let skills: Vec<SkillEntry> = (0..60)
        .map(|_| SkillEntry {
            name: input.to_string(),
            description: input.to_string(),
            path: input.to_string(),
        })
        .collect();
    let images: Vec<ResizedImage> = (0..5_000)
        .map(|number| ResizedImage {
            number: usize::MAX - number,
            count: usize::MAX,
            original: (u32::MAX, u32::MAX),
            prepared: (u32::MAX, u32::MAX),
        })
        .collect();
    let responses: Vec<NodeReplResponse> = (0..40)
        .map(|sequence| NodeReplResponse {
            sequence: u64::MAX - sequence,
            provenance: input.to_string(),
            text: head(input, input.len() / 4).to_string(),
        })
        .collect();
    let access = SkillResourceAccess {
        authority: input.to_string(),
        package: input.to_string(),
        main_resource: input.to_string(),
    };
    let review = GuardianReview {
        decision: Value::String(input.to_string()),
        correlation: Value::String(input.to_string()),
        action: input.to_string(),
        rationale: Some(input.to_string()),
    };
    let fragments: Vec<(&'static str, Box<dyn ContextualUserFragment>)> = vec![
        (
            "additional_context_user",
            Box::new(AdditionalContextUser::new(key.clone(), input, templates)),
        ),
        (
            "additional_context_developer",
            Box::new(AdditionalContextDeveloper::new(key, input, templates)),
        ),
        (
            "skill_instructions",
            Box::new(SkillInstructions::new(
                input,
                input,
                input,
                Some(&access),
                templates,
            )),
        ),
        (
            "user_shell_command",
            Box::new(UserShellCommand::new(
                input,
                i32::MIN,
                Duration::MAX,
                input,
                templates,
            )),
        ),
        (
            "turn_aborted",
            Box::new(TurnAborted::new(TurnAbortedAudience::User, templates)),
        ),
        (
            "turn_aborted_developer",
            Box::new(TurnAborted::new(TurnAbortedAudience::Developer, templates)),
        ),
        (
            "subagent_notification",
            Box::new(SubagentNotification::new(
                input,
                &AgentStatus::Completed(Some(input.to_string())),
                templates,
            )),
        ),
        (
            "subagent_notification",
            Box::new(SubagentNotification::new(
                input,
                &AgentStatus::Errored(input.to_string()),
                templates,
            )),
        ),
        (
            "internal_model_context",
            Box::new(InternalModelContext::new(source, input, templates)),
        ),
        (
            "turn_input_contribution",
            Box::new(
                TurnInputContribution::new(
                    input,
                    &format!("{input} {{{{ cwd }}}}"),
                    &[ContributorEnvironment {
                        id: input,
                        cwd: input,
                        primary: true,
                    }],
                    templates,
                )
                .expect("a contribution"),
            ),
        ),
        (
            "recommended_plugins",
            Box::new(RecommendedPlugins::from_plugins(&plugins, templates).expect("plugins")),
        ),
        (
            "available_skills_instructions",
            Box::new(AvailableSkillsInstructions::new(
                &roots,
                &skills,
                SkillUsageRules::Include,
                templates,
            )),
        ),
        (
            "rollout_budget",
            Box::new(RolloutBudget::new(i64::MIN, templates)),
        ),
        (
            "current_time_reminder",
            Box::new(CurrentTimeReminder::new(Timestamp::MAX, templates)),
        ),
        (
            "network_rule_saved",
            Box::new(NetworkRuleSaved::new(
                NetworkRuleAction::Deny,
                input,
                templates,
            )),
        ),
        (
            "image_resize_notice",
            Box::new(ImageResizeNotice::new(
                ImageResizeSource::ToolOutput,
                &images,
                templates,
            )),
        ),
        (
            "hook_additional_context",
            Box::new(HookAdditionalContext::new(input, templates)),
        ),
        (
            "realtime_delegation",
            Box::new(RealtimeDelegation::new(
                input,
                Some(input),
                RealtimeDelegationSource::TranscriptTailFlush,
            )),
        ),
        (
            "token_budget_remaining",
            Box::new(TokenBudgetRemaining::new(Some(i64::MIN), templates)),
        ),
        (
            "token_budget_reminder",
            Box::new(TokenBudgetReminder::new(input, i64::MIN, templates)),
        ),
        (
            "auto_compact_fallback_prompt",
            Box::new(AutoCompactFallbackPrompt::new(input, templates)),
        ),
        (
            "plugin_instructions",
            Box::new(PluginInstructions::new(input, templates)),
        ),
        (
            "inter_agent_message",
            Box::new(InterAgentMessage::new(
                InterAgentMessageType::NewTask,
                input,
                input,
                input,
                templates,
            )),
        ),
        (
            "inter_agent_completion_message",
            Box::new(InterAgentCompletionMessage::new(
                input,
                input,
                &AgentCompletion::FinalAnswer(Some(input.to_string())),
                templates,
            )),
        ),
        (
            "inter_agent_completion_message",
            Box::new(InterAgentCompletionMessage::new(
                input,
                input,
                &AgentCompletion::Errored(input.to_string()),
                templates,
            )),
        ),
        (
            "guardian_policy",
            Box::new(GuardianPolicy::new(input, templates)),
        ),
        (
            "guardian_followup_review_reminder",
            Box::new(GuardianFollowupReviewReminder::new(templates)),
        ),
        (
            "guardian_node_repl_policy",
            Box::new(GuardianNodeReplPolicy::new(templates)),
        ),
        (
            "guardian_review_evidence",
            Box::new(GuardianReviewEvidence::new(&review, templates)),
        ),
        (
            "node_repl_review_evidence",
            Box::new(NodeReplReviewEvidence::new(&responses, u64::MAX, templates)),
        ),
        (
            "guardian_approved_action",
            Box::new(GuardianApprovedAction::new(input, templates)),
        ),
        (
            "compaction_summary",
            Box::new(CompactionSummary::new(input, templates)),
        ),
        (
            "compaction_prompt",
            Box::new(CompactionPrompt::new(templates)),
        ),
        (
            "unsupported_image",
            Box::new(UnsupportedMedia::new(UnsupportedModality::Image, templates)),
        ),
        (
            "unsupported_audio",
            Box::new(UnsupportedMedia::new(UnsupportedModality::Audio, templates)),
        ),
        (
            "developer_instructions",
            Box::new(DeveloperInstructions::new(input, templates)),
        ),
        (
            "base_instructions",
            Box::new(BaseInstructionsFragment::new(input, templates)),
        ),
    ];
    fragments
        .into_iter()
        .map(|(name, fragment)| (name, fragment.render()))
        .collect()
}

#[test]
fn every_fragment_type_stays_within_its_cap() {
    let o200k = tiktoken_rs::o200k_base().expect("o200k vocabulary");
    let caps: BTreeMap<&str, usize> = all_fragment_types()
        .iter()
        .filter_map(|info| match (info.origin, info.cap) {
            (FragmentOrigin::Fragment, SizeCap::Tokens(cap)) => Some((info.name, cap)),
            _ => None,
        })
        .collect();
    let inputs = [prose(INPUT_BYTES), dense(INPUT_BYTES)];
    let mut largest: BTreeMap<&str, usize> = BTreeMap::new();
    for input in &inputs {
        let filler = head(input, input.len() / 2);
        let (_dir, oversized) = oversized_templates(filler);
        for templates in [TemplateSet::embedded(), oversized] {
            for (name, rendered) in render_all(input, &templates) {
                let tokens = o200k.encode_ordinary(&rendered).len();
                let cap = caps
                    .get(name)
                    .copied()
                    .expect("registered with a token cap");
                assert!(
                    tokens <= cap && cap <= MAX_INJECTED_ITEM_TOKENS,
                    "{name}: {tokens} tokens, cap {cap}"
                );
                let entry = largest.entry(name).or_default();
                *entry = (*entry).max(tokens);
            }
        }
    }
    // Every capped type of the registry was rendered.
    assert_eq!(
        largest.keys().copied().collect::<BTreeSet<_>>(),
        caps.keys().copied().collect::<BTreeSet<_>>()
    );
    for (name, tokens) in &largest {
        println!("{name:<36} {tokens:>6} / {}", caps[name]);
    }
}
