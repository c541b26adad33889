//! Choosing and loading the model catalog (`--model-catalog`), shared by every command that
//! needs model metadata.

use std::path::Path;
use std::path::PathBuf;

use anyhow::Context;
use codex_config::Config;
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

/// The catalog of a command configured by `config`: its `model_catalog` file, else its release's
/// bundled catalog read through `templates`, with the entries of its `remote_models` file (a
/// provider's `/models` answer) merged in.
pub fn configured_catalog(
    config: &Config,
    templates: &TemplateSet,
) -> anyhow::Result<ModelCatalog> {
    let catalog = CatalogArgs {
        model_catalog: config.model_catalog.clone(),
    }
    .load(templates, config.release)?;
    let Some(path) = &config.remote_models else {
        return Ok(catalog);
    };
    let remote = ModelCatalog::from_path(path)
        .with_context(|| format!("invalid remote_models {}", path.display()))?;
    debug!(catalog = %remote.origin(), models = remote.models().len(), "merged remote models");
    Ok(catalog.with_remote_models(remote.models()))
}
