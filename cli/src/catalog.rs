//! Choosing and loading the model catalog (`--model-catalog`), shared by every command that
//! needs model metadata.

use std::path::Path;
use std::path::PathBuf;

use codex_models_manager::ModelCatalog;
use codex_models_manager::ReleaseCatalogs;
use codex_prompts::TemplateSet;
use codex_release::CodexRelease;
use tracing::debug;

#[derive(Debug, Clone, clap::Args)]
pub struct CatalogArgs {
    /// Model catalog to use instead of the bundled one (a `/models` response:
    /// `{"models": [...]}`).
    #[arg(long, value_name = "FILE")]
    pub model_catalog: Option<PathBuf>,
}

impl CatalogArgs {
    /// The `--model-catalog` file, used exactly as written, else the catalog `release` bundles,
    /// read through `templates` (so a `--prompts-dir` overlay changes model instructions too).
    pub fn load(
        &self,
        templates: &TemplateSet,
        release: CodexRelease,
    ) -> anyhow::Result<ModelCatalog> {
        let Some(path) = &self.model_catalog else {
            return Ok(ModelCatalog::bundled_for(
                release.profile().catalog,
                templates,
            )?);
        };
        self.file(path)
    }

    /// The `--model-catalog` file for every release, else each release's bundled catalog (a
    /// session's turns pick theirs by release).
    pub fn load_all(&self, templates: &TemplateSet) -> anyhow::Result<ReleaseCatalogs> {
        match &self.model_catalog {
            Some(path) => Ok(ReleaseCatalogs::File(self.file(path)?)),
            None => Ok(ReleaseCatalogs::bundled(templates)?),
        }
    }

    fn file(&self, path: &Path) -> anyhow::Result<ModelCatalog> {
        let catalog = ModelCatalog::from_path(path)?;
        debug!(catalog = %catalog.origin(), models = catalog.models().len(), "loaded model catalog");
        Ok(catalog)
    }
}
