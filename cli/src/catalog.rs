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
    /// A provider's `/models` answer (`{"models": [...]}`) merged into the catalog as upstream's
    /// refresh merges it: an entry of a known slug replaces it, a new slug is added (the
    /// `remote_models` setting of config.toml, for commands that read no configuration).
    #[arg(long, value_name = "FILE")]
    pub remote_models: Option<PathBuf>,
}

impl CatalogArgs {
    /// The `--model-catalog` file, used exactly as written, else the catalog `release` bundles,
    /// read through `templates` (so a `--prompts-dir` overlay changes model instructions too).
    pub fn load(
        &self,
        templates: &TemplateSet,
        release: CodexRelease,
    ) -> anyhow::Result<ModelCatalog> {
        let catalog = match &self.model_catalog {
            Some(path) => self.file(path)?,
            None => ModelCatalog::bundled_for(release.profile().catalog, templates)?,
        };
        Ok(match self.remote()? {
            Some(remote) => catalog.with_remote_models(remote.models()),
            None => catalog,
        })
    }

    /// The `--model-catalog` file for every release, else each release's bundled catalog (a
    /// session's turns pick theirs by release).
    pub fn load_all(&self, templates: &TemplateSet) -> anyhow::Result<ReleaseCatalogs> {
        let catalogs = match &self.model_catalog {
            Some(path) => ReleaseCatalogs::File(self.file(path)?),
            None => ReleaseCatalogs::bundled(templates)?,
        };
        Ok(match self.remote()? {
            Some(remote) => catalogs.with_remote_models(remote.models()),
            None => catalogs,
        })
    }

    /// The `--remote-models` file, when given.
    fn remote(&self) -> anyhow::Result<Option<ModelCatalog>> {
        self.remote_models
            .as_deref()
            .map(|path| {
                let remote = ModelCatalog::from_path(path)
                    .with_context(|| format!("invalid remote_models {}", path.display()))?;
                debug!(catalog = %remote.origin(), models = remote.models().len(), "merging remote models");
                Ok(remote)
            })
            .transpose()
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
    CatalogArgs {
        model_catalog: config.model_catalog.clone(),
        remote_models: config.remote_models.clone(),
    }
    .load(templates, config.release)
}
