//! Developer-role fragments outside the guardian: render, recognition, and text that must not
//! be recognised.

use codex_context_fragments::ContextualUserFragment;
use codex_fragments::additional_context_developer::AdditionalContextDeveloper;
use codex_fragments::additional_context_user::AdditionalContextKey;
use codex_fragments::auto_compact_fallback_prompt::AutoCompactFallbackPrompt;
use codex_fragments::available_skills_instructions::AvailableSkillsInstructions;
use codex_fragments::available_skills_instructions::MAX_DESCRIPTION_CHARS;
use codex_fragments::available_skills_instructions::SkillEntry;
use codex_fragments::available_skills_instructions::SkillRoot;
use codex_fragments::available_skills_instructions::SkillUsageRules;
use codex_fragments::available_skills_instructions::listed_skills;
use codex_fragments::base_instructions::BaseInstructionsFragment;
use codex_fragments::current_time_reminder::CurrentTimeReminder;
use codex_fragments::developer_instructions::DeveloperInstructions;
use codex_fragments::hook_additional_context::HookAdditionalContext;
use codex_fragments::image_resize_notice::ImageResizeNotice;
use codex_fragments::image_resize_notice::ImageResizeSource;
use codex_fragments::image_resize_notice::ResizedImage;
use codex_fragments::network_rule_saved::NetworkRuleAction;
use codex_fragments::network_rule_saved::NetworkRuleSaved;
use codex_fragments::plugin_instructions::PluginInstructions;
use codex_fragments::rollout_budget::RolloutBudget;
use codex_fragments::sections::approved_prefix_saved_fragment;
use codex_fragments::token_budget_remaining::TokenBudgetRemaining;
use codex_fragments::token_budget_reminder::TokenBudgetReminder;
use codex_prompts::TemplateSet;
use codex_protocol::ResponseItem;
use insta::assert_snapshot;
use jiff::Timestamp;
use pretty_assertions::assert_eq;

use crate::support::classified_name;
use crate::support::render_and_recognise;

const DEVELOPER: &str = "developer";

#[test]
fn current_time_reminder() {
    let templates = TemplateSet::embedded();
    let now: Timestamp = "2026-08-21T17:04:05Z".parse().expect("timestamp");
    let fragment = CurrentTimeReminder::new(now, &templates);
    assert_snapshot!(render_and_recognise(&fragment, "current_time_reminder"));
    // Recorded under the developer role only; before the markers existed it was plain text.
    assert_eq!(classified_name("user", &fragment.render()), None);
    assert_eq!(
        classified_name(DEVELOPER, "It is 2026-08-21 17:04:05 UTC."),
        None
    );
}

#[test]
fn network_rule_saved_allow_and_deny() {
    let templates = TemplateSet::embedded();
    let allow = NetworkRuleSaved::new(NetworkRuleAction::Allow, "api.example.com", &templates);
    let deny = NetworkRuleSaved::new(NetworkRuleAction::Deny, "evil.example", &templates);
    assert_snapshot!(
        "network_rule_saved",
        format!(
            "{}\n{}",
            render_and_recognise(&allow, "network_rule_saved"),
            render_and_recognise(&deny, "network_rule_saved")
        )
    );
}

#[test]
fn approved_command_prefix_saved_is_the_world_state_notice() {
    let templates = TemplateSet::embedded();
    let fragment = approved_prefix_saved_fragment(
        &[vec!["cargo".to_string(), "test".to_string()]],
        &templates,
    )
    .expect("notice");
    let rendered = render_and_recognise(fragment.as_ref(), "approved_command_prefix_saved");
    assert!(rendered.starts_with("Approved command prefix saved:\n"));
    assert_eq!(
        classified_name(DEVELOPER, "  approved COMMAND prefix saved:\n- [\"ls\"]"),
        Some("approved_command_prefix_saved")
    );
    assert_eq!(
        classified_name(DEVELOPER, "Approved command prefixes:"),
        None
    );
}

#[test]
fn image_resize_notice_is_a_separate_message() {
    let templates = TemplateSet::embedded();
    let images = [
        ResizedImage {
            number: 1,
            count: 2,
            original: (4032, 3024),
            prepared: (2048, 1536),
        },
        ResizedImage {
            number: 2,
            count: 2,
            original: (3000, 3000),
            prepared: (2048, 2048),
        },
    ];
    let user = ImageResizeNotice::new(ImageResizeSource::UserMessage, &images, &templates);
    let tool = ImageResizeNotice::new(ImageResizeSource::ToolOutput, &images[..1], &templates);
    assert!(user.requires_separate_message());
    assert_snapshot!(
        "image_resize_notice",
        format!(
            "{}\n{}",
            render_and_recognise(&user, "image_resize_notice"),
            render_and_recognise(&tool, "image_resize_notice")
        )
    );
    let many: Vec<ResizedImage> = (1..=70)
        .map(|number| ResizedImage {
            number,
            count: 70,
            original: (4000, 4000),
            prepared: (2000, 2000),
        })
        .collect();
    let capped = ImageResizeNotice::new(ImageResizeSource::ToolOutput, &many, &templates).render();
    assert_eq!(capped.lines().count(), 2 + 64 + 1);
    assert_eq!(classified_name(DEVELOPER, "<image_resize_notice>"), None);
}

#[test]
fn hook_and_plugin_texts_are_verbatim_and_unmarked() {
    let templates = TemplateSet::embedded();
    let hook = HookAdditionalContext::new("The linter reported 2 warnings.", &templates);
    let plugin =
        PluginInstructions::new("Plugin `docs` provides the `docs` MCP server.", &templates);
    assert_eq!(
        render_and_recognise(&hook, "hook_additional_context"),
        "The linter reported 2 warnings."
    );
    assert_eq!(
        render_and_recognise(&plugin, "plugin_instructions"),
        "Plugin `docs` provides the `docs` MCP server."
    );
}

#[test]
fn additional_context_developer_uses_the_key_as_tag() {
    let templates = TemplateSet::embedded();
    let key = AdditionalContextKey::new("app_state").expect("key");
    let fragment = AdditionalContextDeveloper::new(key, "dark mode", &templates);
    assert_eq!(
        render_and_recognise(&fragment, "additional_context_developer"),
        "<app_state>dark mode</app_state>"
    );
    assert_eq!(
        fragment.content_kind().as_str(),
        "additional_content.app_state"
    );
}

#[test]
fn additional_context_values_are_cut_to_a_thousand_tokens() {
    let templates = TemplateSet::embedded();
    let key = AdditionalContextKey::new("log").expect("key");
    let value = (0..5_000)
        .map(|line| format!("line {line}\n"))
        .collect::<String>();
    let rendered = AdditionalContextDeveloper::new(key, &value, &templates).render();
    let tokens = codex_fragments::o200k_token_count(&rendered);
    assert!(tokens <= 1_000 + 20, "{tokens} tokens");
    assert!(rendered.starts_with("<log>line 0\n"));
    assert!(rendered.ends_with("line 4999\n</log>"));
    assert!(rendered.contains("bytes left out"));
}

#[test]
fn token_budget_fragments() {
    let templates = TemplateSet::embedded();
    let known = TokenBudgetRemaining::new(Some(12_345), &templates);
    let unknown = TokenBudgetRemaining::new(None, &templates);
    let reminder = TokenBudgetReminder::new(
        "Only {n_remaining} tokens left; wrap up.",
        2_000,
        &templates,
    );
    let fallback = AutoCompactFallbackPrompt::new("Summarise your progress now.", &templates);
    let rollout = RolloutBudget::new(90_000, &templates);
    assert_eq!(
        render_and_recognise(&reminder, "token_budget_reminder"),
        "Only 2000 tokens left; wrap up."
    );
    assert_eq!(
        render_and_recognise(&fallback, "auto_compact_fallback_prompt"),
        "Summarise your progress now."
    );
    assert_snapshot!(
        "token_budget_fragments",
        [
            render_and_recognise(&known, "token_budget_remaining"),
            render_and_recognise(&unknown, "token_budget_remaining"),
            render_and_recognise(&rollout, "rollout_budget"),
        ]
        .join("\n---\n")
    );
    // The newlines belong to the rollout-budget markers.
    assert!(rollout.render().starts_with("<rollout_budget>\n"));
    assert!(rollout.render().ends_with("\n</rollout_budget>"));
    assert_eq!(classified_name(DEVELOPER, "<rollout_budget>"), None);
}

#[test]
fn skills_catalogue() {
    let templates = TemplateSet::embedded();
    let roots = [SkillRoot {
        alias: "u".to_string(),
        path: "/home/me/.codex/skills".to_string(),
    }];
    let skills = [
        SkillEntry {
            name: "pdf".to_string(),
            description: "Read and fill PDF forms.".to_string(),
            path: "u/pdf/SKILL.md".to_string(),
        },
        SkillEntry {
            name: "slides".to_string(),
            description: "Build slide decks.".to_string(),
            path: "u/slides/SKILL.md".to_string(),
        },
    ];
    let with_rules =
        AvailableSkillsInstructions::new(&roots, &skills, SkillUsageRules::Include, &templates);
    let bare =
        AvailableSkillsInstructions::new(&[], &skills[..1], SkillUsageRules::Omit, &templates);
    assert_snapshot!(
        "skills_catalogue_with_rules",
        render_and_recognise(&with_rules, "available_skills_instructions")
    );
    assert_snapshot!(
        "skills_catalogue_bare",
        render_and_recognise(&bare, "available_skills_instructions")
    );
    assert_eq!(classified_name(DEVELOPER, "## Skills\n- pdf"), None);
}

#[test]
fn skills_catalogue_with_absolute_paths_as_the_release_lists_them() {
    let templates = TemplateSet::embedded();
    let skills = [
        SkillEntry {
            name: "imagegen".to_string(),
            description: format!("Make images. {}", "Very long. ".repeat(100)),
            path: "/home/me/.codex/skills/.system/imagegen/SKILL.md".to_string(),
        },
        SkillEntry {
            name: "db-migrate".to_string(),
            description: String::new(),
            path: "/work/repo/.agents/skills/db-migrate/SKILL.md".to_string(),
        },
    ];
    let catalogue =
        AvailableSkillsInstructions::new(&[], &skills, SkillUsageRules::Include, &templates);
    let rendered = catalogue.render();
    assert_snapshot!(
        "skills_catalogue_absolute_paths",
        render_and_recognise(&catalogue, "available_skills_instructions")
    );
    // The line shape is what another renderer's catalogue is read back by.
    let listed = listed_skills(&rendered);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].description.chars().count(), MAX_DESCRIPTION_CHARS);
    assert!(listed[0].description.ends_with("..."));
    assert_eq!(listed[1], skills[1]);
}

#[test]
fn developer_and_base_instructions_are_verbatim() {
    let templates = TemplateSet::embedded();
    let developer = DeveloperInstructions::new("Prefer small commits.", &templates);
    let base = BaseInstructionsFragment::new("You are a coding agent.", &templates);
    assert_eq!(
        render_and_recognise(&developer, "developer_instructions"),
        "Prefer small commits."
    );
    assert_eq!(
        render_and_recognise(&base, "base_instructions"),
        "You are a coding agent."
    );
    assert!(base.requires_separate_message());
    assert!(!developer.requires_separate_message());
    let ResponseItem::Message {
        role,
        internal_chat_message_metadata_passthrough: Some(metadata),
        ..
    } = base.into_response_item()
    else {
        panic!("a message with metadata");
    };
    assert_eq!(role, DEVELOPER);
    assert_eq!(
        metadata.content_item_kinds.map(|kinds| kinds
            .into_iter()
            .map(|kind| kind.into_string())
            .collect::<Vec<_>>()),
        Some(vec!["model.base_instructions".to_string()])
    );
}
