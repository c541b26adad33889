//! `<recommended_plugins>`: plugins the user could install, listed in the contextual user
//! message of the initial context (at most 50).

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const RECOMMENDED_PLUGINS: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "plugins.recommendations",
    start_marker: "<recommended_plugins>",
    end_marker: "</recommended_plugins>",
    placement: MessagePlacement::Mergeable,
};

/// Plugins listed at most; the rest are dropped, as upstream does.
pub const MAX_RECOMMENDED_PLUGINS: usize = 50;
/// Cap of one plugin's name and of its id.
pub const MAX_FIELD_TOKENS: usize = 64;
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 8_000;

/// One plugin that is available but not installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecommendedPlugin {
    pub name: String,
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecommendedPlugins {
    body: String,
}

impl RecommendedPlugins {
    /// `None` when there is nothing to recommend.
    pub fn from_plugins(plugins: &[RecommendedPlugin], templates: &TemplateSet) -> Option<Self> {
        if plugins.is_empty() {
            return None;
        }
        let field = |text| cap_tokens(text, MAX_FIELD_TOKENS, Keep::Head, templates);
        let lines: Vec<String> = plugins
            .iter()
            .take(MAX_RECOMMENDED_PLUGINS)
            .map(|plugin| format!("- {} ({})", field(&plugin.name), field(&plugin.id)))
            .collect();
        let intro = templates.text(TemplateId::FragmentRecommendedPlugins);
        let body = format!("\n{intro}\n\n{}\n", lines.join("\n"));
        Some(Self {
            body: cap_rendered_body(&RECOMMENDED_PLUGINS, body, MAX_TOKENS, templates),
        })
    }
}

spec_fragment!(RecommendedPlugins, RECOMMENDED_PLUGINS);
