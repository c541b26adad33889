//! Which base instructions a session sends, and where they came from.
//!
//! The text is the first of (as `get_base_instructions` in `codex-rs/core/src/session/mod.rs`
//! chooses it):
//! 1. an explicit override (`base_instructions`, `model_instructions_file` or `--instructions`);
//! 2. the base instructions recorded in the `session_meta` of the session being resumed or
//!    forked;
//! 3. the current model's instructions template rendered for the chosen personality.
//!
//! The provenance kept with the text decides what later model switches do: `custom` text
//! survives them unchanged, `model{slug}` text names the model it was generated for, so a
//! different current model can be told about the switch.

use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::Personality;
use codex_protocol::openai_models::ModelInfo;

/// Which of the three priority levels supplied the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseInstructionsSource {
    /// `base_instructions`, `model_instructions_file` or `--instructions`.
    Configured,
    /// The `session_meta` line of the session being resumed or forked.
    RecordedSession,
    /// The current model's catalog template.
    ModelTemplate,
}

impl BaseInstructionsSource {
    /// A short human-readable label (used by `explain`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Configured => "config (base_instructions / model_instructions_file)",
            Self::RecordedSession => "recorded session_meta.base_instructions",
            Self::ModelTemplate => "model instructions template",
        }
    }
}

/// What base instructions are resolved from.
#[derive(Debug, Clone, Copy)]
pub struct BaseInstructionsInputs<'a> {
    /// An explicit override. Without a provenance it counts as `custom`; spawned agents pass
    /// their parent's provenance along with the text.
    pub configured: Option<&'a BaseInstructions>,
    /// Base instructions recorded by the session being resumed or forked (`None` for a new or
    /// cleared session).
    pub recorded: Option<&'a BaseInstructions>,
    /// The model sampling the turn, with configuration already applied.
    pub model: &'a ModelInfo,
    pub personality: Option<Personality>,
}

/// The session's base instructions, their source, and the current model's own instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBaseInstructions {
    instructions: BaseInstructions,
    source: BaseInstructionsSource,
    model_instructions: String,
}

impl ResolvedBaseInstructions {
    /// The text and provenance, as `session_meta.base_instructions` records them.
    pub fn instructions(&self) -> &BaseInstructions {
        &self.instructions
    }

    pub fn text(&self) -> &str {
        &self.instructions.text
    }

    pub fn provenance(&self) -> Option<&BaseInstructionsProvenance> {
        self.instructions.provenance.as_ref()
    }

    pub fn source(&self) -> BaseInstructionsSource {
        self.source
    }

    /// The current model's template rendered for the current personality (what a
    /// `<model_switch>` notice repeats). Empty when the model has no template.
    pub fn model_instructions(&self) -> &str {
        &self.model_instructions
    }

    /// The model a `model{slug}` provenance names when the text is not the current model's own
    /// instructions: the conversation then moved here from that model.
    pub fn generated_for_other_model(&self) -> Option<&str> {
        match &self.instructions.provenance {
            Some(BaseInstructionsProvenance::Model { model })
                if self.instructions.text != self.model_instructions =>
            {
                Some(model)
            }
            Some(BaseInstructionsProvenance::Model { .. })
            | Some(BaseInstructionsProvenance::Custom)
            | None => None,
        }
    }
}

/// Resolves the base instructions by the three-level priority and computes their provenance.
pub fn resolve_base_instructions(inputs: BaseInstructionsInputs<'_>) -> ResolvedBaseInstructions {
    let model = inputs.model;
    let model_instructions = model.get_model_instructions(inputs.personality);
    let generated_here = || BaseInstructionsProvenance::Model {
        model: model.slug.clone(),
    };
    let (instructions, source) = if let Some(configured) = inputs.configured {
        let instructions = BaseInstructions {
            text: configured.text.clone(),
            provenance: Some(
                configured
                    .provenance
                    .clone()
                    .unwrap_or(BaseInstructionsProvenance::Custom),
            ),
        };
        (instructions, BaseInstructionsSource::Configured)
    } else if let Some(recorded) = inputs.recorded {
        // Rollouts written before provenance existed: the text can only be attributed to the
        // current model when it is exactly that model's rendering.
        let provenance = recorded
            .provenance
            .clone()
            .or_else(|| (recorded.text == model_instructions).then(generated_here));
        let instructions = BaseInstructions {
            text: recorded.text.clone(),
            provenance,
        };
        (instructions, BaseInstructionsSource::RecordedSession)
    } else {
        let instructions = BaseInstructions {
            text: model_instructions.clone(),
            provenance: Some(generated_here()),
        };
        (instructions, BaseInstructionsSource::ModelTemplate)
    };
    ResolvedBaseInstructions {
        instructions,
        source,
        model_instructions,
    }
}

#[cfg(test)]
#[path = "base_instructions_tests.rs"]
mod tests;
