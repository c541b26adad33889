//! The catalog each supported release uses: one catalog file for all of them, or each release's
//! bundled catalog.

use codex_prompts::TemplateSet;
use codex_release::BundledCatalog;

use codex_protocol::openai_models::ModelInfo;

use crate::catalog::ModelCatalog;
use crate::error::CatalogError;

/// The catalogs a session draws on, chosen by a turn's release (`ReleaseProfile::catalog`): a
/// user's catalog file stands for every release; otherwise each release gets the catalog it
/// bundles.
#[derive(Debug, Clone, PartialEq)]
pub enum ReleaseCatalogs {
    /// A catalog file (`model_catalog`, `--model-catalog`), whatever the release.
    File(ModelCatalog),
    /// The bundled catalogs, read through a template set.
    Bundled {
        v0_149: ModelCatalog,
        v0_171: ModelCatalog,
    },
}

impl ReleaseCatalogs {
    /// Every release's bundled catalog with its copied template texts taken from `templates`.
    pub fn bundled(templates: &TemplateSet) -> Result<Self, CatalogError> {
        Ok(Self::Bundled {
            v0_149: ModelCatalog::bundled_for(BundledCatalog::V0_149, templates)?,
            v0_171: ModelCatalog::bundled_for(BundledCatalog::V0_171, templates)?,
        })
    }

    /// Every release's bundled catalog as compiled in.
    pub fn embedded() -> Result<Self, CatalogError> {
        Ok(Self::Bundled {
            v0_149: ModelCatalog::bundled_release(BundledCatalog::V0_149)?,
            v0_171: ModelCatalog::bundled_release(BundledCatalog::V0_171)?,
        })
    }

    /// Every catalog with `remote` merged in as a `/models` refresh merges it: an entry of a
    /// known slug replaces it, a new slug is appended ([`ModelCatalog::with_remote_models`]).
    pub fn with_remote_models(self, remote: &[ModelInfo]) -> Self {
        match self {
            Self::File(file) => Self::File(file.with_remote_models(remote)),
            Self::Bundled { v0_149, v0_171 } => Self::Bundled {
                v0_149: v0_149.with_remote_models(remote),
                v0_171: v0_171.with_remote_models(remote),
            },
        }
    }

    /// The catalog a release bundling `catalog` uses.
    pub fn get(&self, catalog: BundledCatalog) -> &ModelCatalog {
        match (self, catalog) {
            (Self::File(file), _) => file,
            (Self::Bundled { v0_149, .. }, BundledCatalog::V0_149) => v0_149,
            (Self::Bundled { v0_171, .. }, BundledCatalog::V0_171) => v0_171,
        }
    }
}
