//! Choosing and loading the model catalog (`--model-catalog`), shared by every command that
//! needs model metadata.

use std::path::PathBuf;

use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use tracing::debug;

#[derive(Debug, Clone, clap::Args)]
pub struct CatalogArgs {
    /// Model catalog to use instead of the bundled one (a `/models` response:
    /// `{"models": [...]}`).
    #[arg(long, value_name = "FILE")]
    pub model_catalog: Option<PathBuf>,
}

impl CatalogArgs {
    /// The `--model-catalog` file, used exactly as written, else the bundled catalog read
    /// through `templates` (so a `--prompts-dir` overlay changes model instructions too).
    pub fn load(&self, templates: &TemplateSet) -> anyhow::Result<ModelCatalog> {
        let Some(path) = &self.model_catalog else {
            return Ok(ModelCatalog::bundled_with_templates(templates)?);
        };
        let catalog = ModelCatalog::from_path(path)?;
        debug!(catalog = %catalog.origin(), models = catalog.models().len(), "loaded model catalog");
        Ok(catalog)
    }
}
