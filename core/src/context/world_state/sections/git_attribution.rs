//! `git_attribution`: an extension-owned section (built as a
//! [`WorldStateSectionContribution`]) asking the model to end commit messages with a
//! `Co-authored-by:` trailer while commit attribution is on, and telling it once when the
//! policy is turned off.

use codex_fragments::sections::GIT_ATTRIBUTION;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde::Deserialize;
use serde_json::Value;

use crate::context::world_state::PreviousWorldStateSection;
use crate::context::world_state::RenderedWorldStateFragment;
use crate::context::world_state::WorldStateSectionContribution;

/// Section ID of the git-attribution extension.
pub const GIT_ATTRIBUTION_SECTION_ID: &str = "git_attribution";
/// Git's trailer key for co-authors.
const TRAILER_KEY: &str = "Co-authored-by:";
/// Attribution used when none is configured.
pub const DEFAULT_ATTRIBUTION: &str = "Codex <noreply@openai.com>";

/// Inputs of the git-attribution extension.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GitAttributionInputs {
    /// Whether commit attribution is switched on.
    #[serde(default)]
    pub enabled: bool,
    /// `Name <email>` for the trailer; unset means [`DEFAULT_ATTRIBUTION`], blank turns
    /// attribution off.
    #[serde(default)]
    pub attribution: Option<String>,
}

/// The trailer line, or `None` when attribution is off.
pub fn attribution_trailer(inputs: &GitAttributionInputs) -> Option<String> {
    if !inputs.enabled {
        return None;
    }
    let value = match inputs.attribution.as_deref().map(str::trim) {
        None => DEFAULT_ATTRIBUTION,
        Some("") => return None,
        Some(value) => value,
    };
    Some(format!("{TRAILER_KEY} {value}"))
}

/// Whether `text` is a `<git_attribution>` block (developer role, markers ignoring case and
/// surrounding whitespace) whose body contains `required`.
fn is_git_attribution_block(role: &str, text: &str, required: &str) -> bool {
    GIT_ATTRIBUTION.recognises(role, text) && text.contains(required)
}

/// The `git_attribution` contribution. Snapshot: whether attribution is on. On: the policy
/// block is sent unless the model has seen it (Known `true`, or a policy block in history);
/// it is trusted only while that block is retained. Off: a notice is sent only if the model
/// may have seen the policy (Known `true`, or a policy block in history).
pub fn git_attribution_contribution(
    inputs: &GitAttributionInputs,
    templates: &TemplateSet,
) -> WorldStateSectionContribution {
    let trailer = attribution_trailer(inputs);
    let enabled = trailer.is_some();
    let body = match &trailer {
        Some(trailer) => render(
            templates.text(TemplateId::GitAttributionEnabled),
            &[("trailer", trailer)],
        ),
        None => templates
            .text(TemplateId::GitAttributionDisabled)
            .to_string(),
    };
    let renderer = move |previous: PreviousWorldStateSection<'_>| {
        let previously_enabled = match previous {
            PreviousWorldStateSection::Known(Value::Bool(value)) => *value,
            PreviousWorldStateSection::Unknown => true,
            PreviousWorldStateSection::Known(_) | PreviousWorldStateSection::Absent => false,
        };
        (enabled != previously_enabled).then(|| RenderedWorldStateFragment {
            role: GIT_ATTRIBUTION.role,
            markers: GIT_ATTRIBUTION.markers(),
            body: format!("\n{body}\n"),
        })
    };
    let contribution = WorldStateSectionContribution::new(
        GIT_ATTRIBUTION_SECTION_ID,
        Value::Bool(enabled),
        renderer,
    );
    match trailer {
        Some(trailer) => {
            let legacy_trailer = trailer.clone();
            contribution
                .with_legacy_matcher(move |role, text| {
                    is_git_attribution_block(role, text, &legacy_trailer)
                })
                .with_retained_fragment_matcher(move |role, text| {
                    is_git_attribution_block(role, text, &trailer)
                })
        }
        None => contribution
            .with_legacy_matcher(|role, text| is_git_attribution_block(role, text, TRAILER_KEY)),
    }
}

#[cfg(test)]
#[path = "git_attribution_tests.rs"]
mod tests;
