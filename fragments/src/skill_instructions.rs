//! `<skill>`: the `SKILL.md` of a skill the user invoked or mentioned, with its name and path
//! (and, for packaged skills, how to read its resources), in the contextual user message.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;
use serde_json::json;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const SKILL_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "skills.selected_skill_instructions",
    start_marker: "<skill>",
    end_marker: "</skill>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the name and of the path.
pub const MAX_LABEL_TOKENS: usize = 256;
/// Cap of the `SKILL.md` contents; longer contents keep their beginning.
pub const MAX_CONTENTS_TOKENS: usize = 8_500;

/// How a packaged skill's other resources are read: `authority` is the tool authority's wire
/// name (e.g. `executor`), `package` and `main_resource` are locators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillResourceAccess {
    pub authority: String,
    pub package: String,
    pub main_resource: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillInstructions {
    body: String,
}

impl SkillInstructions {
    pub fn new(
        name: &str,
        path: &str,
        contents: &str,
        resource_access: Option<&SkillResourceAccess>,
        templates: &TemplateSet,
    ) -> Self {
        let label = |text| cap_tokens(text, MAX_LABEL_TOKENS, Keep::Head, templates);
        let contents = cap_tokens(contents, MAX_CONTENTS_TOKENS, Keep::Head, templates);
        let resource_access = resource_access
            .map(|access| {
                let metadata = json!({
                    "authority": label(&access.authority),
                    "package": label(&access.package),
                    "main_resource": label(&access.main_resource),
                });
                format!("\n<resource_access>{metadata}</resource_access>")
            })
            .unwrap_or_default();
        let body = format!(
            "\n<name>{}</name>\n<path>{}</path>{resource_access}\n{contents}\n",
            label(name),
            label(path),
        );
        Self {
            body: cap_rendered_body(&SKILL_INSTRUCTIONS, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(SkillInstructions, SKILL_INSTRUCTIONS);
