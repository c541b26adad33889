//! `<skills_instructions>`: the skills catalogue, a developer fragment listing every skill the
//! model may use (name, description, where its `SKILL.md` is), optionally preceded by a table
//! of root aliases and followed by rules for using skills. Entries that do not fit the cap are
//! counted in one closing line.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;
use super::size_cap::o200k_token_count;

pub const AVAILABLE_SKILLS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "skills.catalog",
    start_marker: "<skills_instructions>",
    end_marker: "</skills_instructions>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of one catalogue line.
pub const MAX_LINE_TOKENS: usize = 300;
/// Tokens kept free for the line counting left-out entries.
const OMISSION_LINE_RESERVE: usize = 40;

/// A short alias standing for a directory in skill paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRoot {
    pub alias: String,
    pub path: String,
}

/// One skill of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillEntry {
    pub name: String,
    pub description: String,
    /// Where the `SKILL.md` is (a path, possibly starting with a root alias).
    pub path: String,
}

/// Whether the catalogue ends with the rules for using skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillUsageRules {
    Include,
    Omit,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvailableSkillsInstructions {
    body: String,
}

impl AvailableSkillsInstructions {
    pub fn new(
        roots: &[SkillRoot],
        skills: &[SkillEntry],
        usage: SkillUsageRules,
        templates: &TemplateSet,
    ) -> Self {
        let line =
            |text: String| cap_tokens(&text, MAX_LINE_TOKENS, Keep::Head, templates).into_owned();
        let mut head = vec![
            templates
                .text(TemplateId::FragmentSkillsCatalogIntro)
                .to_string(),
        ];
        if !roots.is_empty() {
            head.push(
                templates
                    .text(TemplateId::FragmentSkillsCatalogRoots)
                    .to_string(),
            );
            head.extend(
                roots
                    .iter()
                    .map(|root| line(format!("- `{}`: {}", root.alias, root.path))),
            );
        }
        head.push(
            templates
                .text(TemplateId::FragmentSkillsCatalogAvailable)
                .to_string(),
        );
        let tail = match usage {
            SkillUsageRules::Include => Some(
                templates
                    .text(TemplateId::FragmentSkillsCatalogUsage)
                    .to_string(),
            ),
            SkillUsageRules::Omit => None,
        };
        let fixed_tokens = head
            .iter()
            .chain(tail.iter())
            .map(|text| o200k_token_count(text) + 1)
            .sum::<usize>();
        let mut available = MAX_TOKENS
            .saturating_sub(fixed_tokens)
            .saturating_sub(OMISSION_LINE_RESERVE + 16);
        let mut lines = head;
        let mut listed = 0;
        for skill in skills {
            let entry = line(format!(
                "- {}: {} (file: {})",
                skill.name, skill.description, skill.path
            ));
            let tokens = o200k_token_count(&entry) + 1;
            if tokens > available {
                break;
            }
            available -= tokens;
            lines.push(entry);
            listed += 1;
        }
        if listed < skills.len() {
            lines.push(templates.render(
                TemplateId::FragmentListOmitted,
                &[("count", &(skills.len() - listed).to_string())],
            ));
        }
        lines.extend(tail);
        let body = format!("\n{}\n", lines.join("\n"));
        Self {
            body: cap_rendered_body(&AVAILABLE_SKILLS_INSTRUCTIONS, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(AvailableSkillsInstructions, AVAILABLE_SKILLS_INSTRUCTIONS);
