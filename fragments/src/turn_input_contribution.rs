//! `<turn_input_contribution name="…">`: what a configured turn-input contributor (an
//! extension that adds input to every turn, upstream's `TurnInputContributor`) adds after the
//! user's message: its text, rendered once for each environment the turn runs in, in selection
//! order. The text is the user's own; `{{ environment_id }}`, `{{ cwd }}` and `{{ primary }}`
//! stand for the environment's id, working directory (verbatim, a foreign path included) and
//! whether it is the primary one.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_tokens;

pub const TURN_INPUT_CONTRIBUTION: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "extension.turn_input",
    start_marker: "<turn_input_contribution",
    end_marker: "</turn_input_contribution>",
    placement: MessagePlacement::Separate,
};

/// Cap of the rendered text, in o200k tokens; a longer text keeps its beginning.
pub const MAX_TEXT_TOKENS: usize = 2_000;
/// Cap of the contributor's name; a longer name keeps its beginning.
pub const MAX_NAME_TOKENS: usize = 40;
/// Cap of the rendered fragment (text, name and tags).
pub const MAX_TOKENS: usize = MAX_TEXT_TOKENS + MAX_NAME_TOKENS + 24;
/// The placeholders a contributor's text may use.
pub const TEXT_VARIABLES: [&str; 3] = ["environment_id", "cwd", "primary"];

/// One environment as a contributor receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContributorEnvironment<'a> {
    pub id: &'a str,
    /// Working directory as the model sees it.
    pub cwd: &'a str,
    pub primary: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnInputContribution {
    body: String,
}

impl TurnInputContribution {
    /// `text` rendered for each of `environments`, one line each; `None` when that is blank
    /// (an empty text, or a turn without environments), as a contributor may add nothing.
    /// `name` is a contributor name as configuration checks it (no quotes or angle brackets).
    pub fn new(
        name: &str,
        text: &str,
        environments: &[ContributorEnvironment<'_>],
        templates: &TemplateSet,
    ) -> Option<Self> {
        let lines: Vec<String> = environments
            .iter()
            .map(|environment| {
                let primary = if environment.primary { "true" } else { "false" };
                codex_prompts::render(
                    text,
                    &[
                        ("environment_id", environment.id),
                        ("cwd", environment.cwd),
                        ("primary", primary),
                    ],
                )
            })
            .collect();
        let rendered = lines.join("\n");
        if rendered.trim().is_empty() {
            return None;
        }
        let rendered = cap_tokens(&rendered, MAX_TEXT_TOKENS, Keep::Head, templates);
        let name = cap_tokens(name, MAX_NAME_TOKENS, Keep::Head, templates);
        Some(Self {
            body: format!(" name=\"{name}\">\n{rendered}\n"),
        })
    }
}

spec_fragment!(TurnInputContribution, TURN_INPUT_CONTRIBUTION);
