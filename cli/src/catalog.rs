//! Choosing and loading the model catalog (`--model-catalog`), shared by every command that
//! needs model metadata.

use std::path::PathBuf;

use codex_models_manager::CatalogOrigin;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use tracing::debug;

/// Templates the bundled catalog's `instructions_template` texts were copied from.
const INSTRUCTION_TEMPLATES: [TemplateId; 4] = [
    TemplateId::BaseInstructionsDefault,
    TemplateId::BaseInstructionsGpt5,
    TemplateId::BaseInstructionsGpt56,
    TemplateId::BaseInstructionsAutoReview,
];

/// Templates the bundled catalog's personality texts were copied from (its default texts are
/// empty, so no template stands behind them).
const PERSONALITY_TEMPLATES: [TemplateId; 2] = [
    TemplateId::PersonalityFriendly,
    TemplateId::PersonalityPragmatic,
];

#[derive(Debug, Clone, clap::Args)]
pub struct CatalogArgs {
    /// Model catalog to use instead of the bundled one (a `/models` response:
    /// `{"models": [...]}`).
    #[arg(long, value_name = "FILE")]
    pub model_catalog: Option<PathBuf>,
}

impl CatalogArgs {
    /// The `--model-catalog` file, else the bundled catalog.
    ///
    /// The bundled catalog's instruction and personality texts are verbatim copies of template
    /// files, so each copy is replaced by `templates`' version of that file: a `--prompts-dir`
    /// overlay then changes model instructions too. A catalog file is used exactly as written.
    pub fn load(&self, templates: &TemplateSet) -> anyhow::Result<ModelCatalog> {
        let Some(path) = &self.model_catalog else {
            let mut response = ModelCatalog::bundled()?.into_response();
            for messages in response
                .models
                .iter_mut()
                .filter_map(|model| model.model_messages.as_mut())
            {
                use_overlaid_copy(
                    &mut messages.instructions_template,
                    &INSTRUCTION_TEMPLATES,
                    templates,
                );
                if let Some(variables) = messages.instructions_variables.as_mut() {
                    for text in [
                        &mut variables.personality_default,
                        &mut variables.personality_friendly,
                        &mut variables.personality_pragmatic,
                    ] {
                        use_overlaid_copy(text, &PERSONALITY_TEMPLATES, templates);
                    }
                }
            }
            return Ok(ModelCatalog::from_response(
                response,
                CatalogOrigin::Bundled,
            ));
        };
        let catalog = ModelCatalog::from_path(path)?;
        debug!(catalog = %catalog.origin(), models = catalog.models().len(), "loaded model catalog");
        Ok(catalog)
    }
}

/// Replaces `text` by `templates`' file when it is exactly the embedded file of one of `ids`.
fn use_overlaid_copy(text: &mut Option<String>, ids: &[TemplateId], templates: &TemplateSet) {
    let Some(current) = text.as_mut() else {
        return;
    };
    if let Some(id) = ids.iter().find(|id| id.embedded_file() == current.as_str()) {
        *current = templates.file(*id).to_string();
    }
}
