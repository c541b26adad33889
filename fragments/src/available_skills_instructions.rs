//! `<skills_instructions>`: the skills catalogue, a developer fragment listing every skill the
//! model may use (name, description, where its `SKILL.md` is), optionally preceded by a table
//! of root aliases and followed by rules for using skills. Each skill is one line
//! `- NAME: DESCRIPTION (file: PATH)` (`codex-rs/ext/skills/src/render.rs`), its description cut
//! to [`MAX_DESCRIPTION_CHARS`] characters ending in `...`. Entries that do not fit the cap are
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
/// Cap of one catalogue line: room for the longest line upstream renders (a name, a
/// [`MAX_DESCRIPTION_CHARS`]-character description and a 1,024-byte path), so the cap only
/// ever cuts lines no release would send.
pub const MAX_LINE_TOKENS: usize = 1_200;
/// Longest description in a catalogue line, in characters (`...` included).
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// What ends a cut description.
const CUT_DESCRIPTION_SUFFIX: &str = "...";
/// Where a catalogue line's locator starts.
const FILE_LOCATOR_OPEN: &str = " (file: ";
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
        let entries: Vec<String> = skills
            .iter()
            .map(|skill| line(catalogue_line(skill)))
            .collect();
        let budget = MAX_TOKENS.saturating_sub(OMISSION_LINE_RESERVE + 16);
        // Every token covers at least one byte: when the bytes fit the budget, so do the tokens,
        // and nothing needs counting (or the vocabulary loading).
        let bytes: usize = head
            .iter()
            .chain(tail.iter())
            .chain(&entries)
            .map(|text| text.len() + 1)
            .sum();
        let count: fn(&str) -> usize = match bytes <= budget {
            true => str::len,
            false => o200k_token_count,
        };
        let fixed_tokens = head
            .iter()
            .chain(tail.iter())
            .map(|text| count(text) + 1)
            .sum::<usize>();
        let mut available = budget.saturating_sub(fixed_tokens);
        let mut lines = head;
        let mut listed = 0;
        for entry in entries {
            let tokens = count(&entry) + 1;
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

/// The catalogue line of `skill`.
fn catalogue_line(skill: &SkillEntry) -> String {
    let description = cut_description(&skill.description);
    if description.is_empty() {
        format!("- {}:{FILE_LOCATOR_OPEN}{})", skill.name, skill.path)
    } else {
        format!(
            "- {}: {description}{FILE_LOCATOR_OPEN}{})",
            skill.name, skill.path
        )
    }
}

/// `description` cut to [`MAX_DESCRIPTION_CHARS`] characters, the last three `...`.
fn cut_description(description: &str) -> std::borrow::Cow<'_, str> {
    if description.chars().nth(MAX_DESCRIPTION_CHARS).is_none() {
        return std::borrow::Cow::Borrowed(description);
    }
    let keep = MAX_DESCRIPTION_CHARS - CUT_DESCRIPTION_SUFFIX.chars().count();
    let mut cut: String = description.chars().take(keep).collect();
    cut.push_str(CUT_DESCRIPTION_SUFFIX);
    std::borrow::Cow::Owned(cut)
}

/// The skills a rendered catalogue (any renderer's: the line shape is the protocol) lists, in
/// order: every line `- NAME: DESCRIPTION (file: PATH)`. Root aliases are left as written.
pub fn listed_skills(text: &str) -> Vec<SkillEntry> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- ")?.strip_suffix(')')?;
            let (head, path) = rest.rsplit_once(FILE_LOCATOR_OPEN)?;
            let (name, description) = head.split_once(':')?;
            Some(SkillEntry {
                name: name.to_string(),
                description: description.trim_start().to_string(),
                path: path.to_string(),
            })
        })
        .collect()
}

/// The root aliases a rendered catalogue (any renderer's) defines, in order: every line
/// ``- `ALIAS`: PATH`` (this project's) or ``- `ALIAS` = `PATH` `` (the release's).
pub fn listed_roots(text: &str) -> Vec<SkillRoot> {
    text.lines()
        .filter_map(|line| {
            let (alias, rest) = line.strip_prefix("- `")?.split_once('`')?;
            let path = match rest.strip_prefix(" = `") {
                Some(quoted) => quoted.strip_suffix('`')?,
                None => rest.strip_prefix(": ")?,
            };
            Some(SkillRoot {
                alias: alias.to_string(),
                path: path.to_string(),
            })
        })
        .collect()
}

spec_fragment!(AvailableSkillsInstructions, AVAILABLE_SKILLS_INSTRUCTIONS);
