//! `multi_agent_mode`: whether the model should delegate to sub-agents only on request,
//! proactively, or as a custom text says. The mode is restated when it changes and when the
//! usage hint it follows changes.

use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::SectionFragment;
use codex_fragments::sections::MULTI_AGENT_MODE;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde::Deserialize;
use serde::Serialize;

use super::multi_agent_usage_hint::MultiAgentUsageHintSection;
use crate::context::world_state::CatalogSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldStateError;
use crate::context::world_state::WorldStateSection;
use crate::context::world_state_for_step::StepSection;
use crate::context::world_state_for_step::template_source;
use crate::turn_context::MultiAgentMode;
use crate::turn_context::MultiAgentUsageHintSectionInputs;
use crate::turn_context::TurnContext;
use crate::turn_context::UsageHintSource;

/// A custom mode text is cut to this many estimated tokens before it is stored or shown.
pub const CUSTOM_MODE_MAX_TOKENS: usize = 400;
/// Token estimate used for that bound: one token per four bytes, rounded up.
const BYTES_PER_TOKEN: usize = 4;

/// Snapshot of the `multi_agent_mode` section; `{}` while no mode is active.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MultiAgentModeSnapshot {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<MultiAgentMode>,
    /// Fingerprint of the usage hint the mode was last stated after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_hint_hash: Option<FragmentFingerprint>,
}

/// Inputs of the `multi_agent_mode` section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiAgentModeSectionInputs {
    #[serde(default)]
    pub mode: Option<MultiAgentMode>,
    /// The usage hint registered in the same world state, if any.
    #[serde(default)]
    pub usage_hint: Option<MultiAgentUsageHintSectionInputs>,
}

#[derive(Clone, Debug)]
pub struct MultiAgentModeSection {
    snapshot: MultiAgentModeSnapshot,
    /// Where the usage hint of `usage_hint_hash` comes from; `None` without a hint (or when
    /// the section was rebuilt from a snapshot).
    usage_hint_source: Option<UsageHintSource>,
    explicit_request_only: String,
    proactive: String,
}

/// Estimated tokens of `text`: bytes divided by four, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(BYTES_PER_TOKEN)
}

/// Cuts `text` to [`CUSTOM_MODE_MAX_TOKENS`] estimated tokens, keeping its start and end and
/// putting the truncation marker (with the estimated number of tokens left out) in between.
pub fn bound_custom_mode_text(text: &str, templates: &TemplateSet) -> String {
    let budget = CUSTOM_MODE_MAX_TOKENS * BYTES_PER_TOKEN;
    if text.len() <= budget {
        return text.to_string();
    }
    let marker_template = templates.text(TemplateId::MultiAgentCustomModeTruncated);
    let marker_for = |tokens: usize| render(marker_template, &[("tokens", &tokens.to_string())]);
    // The final count never has more digits than this upper bound, so the marker never grows
    // past the space reserved for it.
    let reserved = marker_for(estimate_tokens(text)).len();
    let kept = budget.saturating_sub(reserved);
    let mut head_end = kept / 2;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - (kept - head_end);
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    let removed = estimate_tokens(&text[head_end..tail_start]);
    format!(
        "{}{}{}",
        &text[..head_end],
        marker_for(removed),
        &text[tail_start..]
    )
}

impl MultiAgentModeSection {
    /// `usage_hint` is the usage hint section of the same world state, if one is registered.
    pub fn new(
        mode: Option<MultiAgentMode>,
        usage_hint: Option<&MultiAgentUsageHintSection>,
        templates: &TemplateSet,
    ) -> Self {
        let mode = mode.map(|mode| match mode {
            MultiAgentMode::Custom(text) => {
                MultiAgentMode::Custom(bound_custom_mode_text(&text, templates))
            }
            MultiAgentMode::ExplicitRequestOnly | MultiAgentMode::Proactive => mode,
        });
        Self {
            snapshot: MultiAgentModeSnapshot {
                mode,
                usage_hint_hash: usage_hint.map(|hint| hint.fingerprint().clone()),
            },
            usage_hint_source: usage_hint.map(MultiAgentUsageHintSection::source),
            explicit_request_only: templates
                .text(TemplateId::MultiAgentExplicitRequestOnly)
                .to_string(),
            proactive: templates.text(TemplateId::MultiAgentProactive).to_string(),
        }
    }

    /// The block stating `mode`; an empty custom text states nothing.
    fn mode_fragment(&self, mode: &MultiAgentMode) -> Option<SectionFragment> {
        let text = match mode {
            MultiAgentMode::ExplicitRequestOnly => &self.explicit_request_only,
            MultiAgentMode::Proactive => &self.proactive,
            MultiAgentMode::Custom(text) if text.trim().is_empty() => return None,
            MultiAgentMode::Custom(text) => text,
        };
        Some(MULTI_AGENT_MODE.fragment(text.clone()))
    }
}

impl WorldStateSection for MultiAgentModeSection {
    const ID: &'static str = "multi_agent_mode";
    type Snapshot = MultiAgentModeSnapshot;

    fn snapshot(&self) -> MultiAgentModeSnapshot {
        self.snapshot.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        MULTI_AGENT_MODE.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        MULTI_AGENT_MODE.recognises(role, text)
    }

    /// The recorded fingerprint of a usage hint from the catalog (or this project's bundled
    /// text) is replaced by this
    /// section's, as `multi_agent_usage_hint` replaces its own; the mode is a setting and stays.
    fn rederive_recorded(
        &self,
        recorded: &MultiAgentModeSnapshot,
    ) -> Option<MultiAgentModeSnapshot> {
        match (self.usage_hint_source, &recorded.usage_hint_hash) {
            (
                Some(
                    UsageHintSource::Catalog
                    | UsageHintSource::CatalogRoleWithUsage
                    | UsageHintSource::Bundled,
                ),
                Some(_),
            ) => Some(MultiAgentModeSnapshot {
                mode: recorded.mode.clone(),
                usage_hint_hash: self.snapshot.usage_hint_hash.clone(),
            }),
            (
                Some(
                    UsageHintSource::Catalog
                    | UsageHintSource::CatalogRoleWithUsage
                    | UsageHintSource::Configured
                    | UsageHintSource::Bundled,
                )
                | None,
                _,
            ) => None,
        }
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, MultiAgentModeSnapshot>,
    ) -> Option<SectionFragment> {
        match (&self.snapshot.mode, previous) {
            // A changed usage hint re-emits the unchanged mode so that it follows the hint.
            (Some(_), PreviousSectionState::Known(previous)) if previous == &self.snapshot => None,
            (Some(mode), _) => self.mode_fragment(mode),
            // Leaving proactive mode (or an unknown earlier mode) must withdraw the permission
            // to delegate; other endings need no notice.
            (None, PreviousSectionState::Known(previous))
                if previous.mode == Some(MultiAgentMode::Proactive) =>
            {
                self.mode_fragment(&MultiAgentMode::ExplicitRequestOnly)
            }
            (None, PreviousSectionState::Unknown) => {
                self.mode_fragment(&MultiAgentMode::ExplicitRequestOnly)
            }
            (None, PreviousSectionState::Known(_) | PreviousSectionState::Absent) => None,
        }
    }
}

impl CatalogSection for MultiAgentModeSection {
    type Inputs = MultiAgentModeSectionInputs;

    fn from_inputs(
        inputs: MultiAgentModeSectionInputs,
        templates: &TemplateSet,
    ) -> Result<Self, WorldStateError> {
        let usage_hint = inputs
            .usage_hint
            .map(MultiAgentUsageHintSection::new)
            .transpose()?;
        Ok(Self::new(inputs.mode, usage_hint.as_ref(), templates))
    }

    fn from_snapshot(
        snapshot: MultiAgentModeSnapshot,
        templates: &TemplateSet,
    ) -> Result<Self, &'static str> {
        Ok(Self {
            snapshot,
            usage_hint_source: None,
            explicit_request_only: templates
                .text(TemplateId::MultiAgentExplicitRequestOnly)
                .to_string(),
            proactive: templates.text(TemplateId::MultiAgentProactive).to_string(),
        })
    }
}

impl StepSection for MultiAgentModeSection {
    fn for_step(
        turn: &TurnContext,
        templates: &TemplateSet,
    ) -> Result<Option<Self>, WorldStateError> {
        let usage_hint = MultiAgentUsageHintSection::for_step(turn, templates)?;
        Ok(Some(MultiAgentModeSection::new(
            turn.multi_agent.mode.clone(),
            usage_hint.as_ref(),
            templates,
        )))
    }

    fn built_from(_turn: &TurnContext) -> Vec<String> {
        vec![
            template_source(TemplateId::MultiAgentExplicitRequestOnly),
            template_source(TemplateId::MultiAgentProactive),
        ]
    }
}

#[cfg(test)]
#[path = "multi_agent_mode_tests.rs"]
mod tests;
