//! Instructions for one plugin the user mentioned this turn (its MCP servers, apps and skill
//! prefix), rendered by the plugin layer and recorded verbatim as a developer fragment.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const PLUGIN_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "plugins.instructions",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 4_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginInstructions {
    body: String,
}

impl PluginInstructions {
    pub fn new(text: &str, templates: &TemplateSet) -> Self {
        Self {
            body: cap_rendered_body(
                &PLUGIN_INSTRUCTIONS,
                text.to_string(),
                MAX_TOKENS,
                templates,
            ),
        }
    }
}

spec_fragment!(PluginInstructions, PLUGIN_INSTRUCTIONS);
