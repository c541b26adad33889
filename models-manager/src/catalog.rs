//! Loading a catalog and listing its models.

use std::path::Path;

use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ModelVisibility;
use codex_protocol::openai_models::ModelsResponse;
use codex_release::BundledCatalog;

use crate::error::CatalogError;
use crate::error::CatalogOrigin;
use codex_prompts::CATALOG_NETWORK_ACCESS_PLACEHOLDER;
use codex_prompts::UndefinedVariable;
use codex_prompts::check_variables;
use codex_prompts::placeholder_names;
use codex_protocol::openai_models::PERSONALITY_PLACEHOLDER;

/// The catalog compiled into the binary for 0.149: upstream's ten model slugs with their
/// metadata and this project's own instruction templates (`prompts/templates/`). Regenerated,
/// never hand-edited.
pub const BUNDLED_MODELS_JSON: &str = include_str!("../models.json");

/// The catalog of 0.171.0: the release's fourteen models (default `gpt-6.2-sol`) with their
/// metadata and this project's own texts. Regenerated, never hand-edited.
pub const BUNDLED_MODELS_0_171_JSON: &str = include_str!("../models-0.171.json");

/// The document of a release's bundled catalog.
pub fn bundled_models_json(catalog: BundledCatalog) -> &'static str {
    match catalog {
        BundledCatalog::V0_149 => BUNDLED_MODELS_JSON,
        BundledCatalog::V0_171 => BUNDLED_MODELS_0_171_JSON,
    }
}

/// A loaded set of catalog entries, in document order.
///
/// It is a plain value: a manager that refreshes from the network or a cache can hold one and
/// swap it for a newer catalog without changing lookups or rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelCatalog {
    origin: CatalogOrigin,
    models: Vec<ModelInfo>,
}

impl ModelCatalog {
    /// The 0.149 catalog compiled into this crate.
    pub fn bundled() -> Result<Self, CatalogError> {
        Self::bundled_release(BundledCatalog::V0_149)
    }

    /// A release's catalog as compiled into this crate (`ReleaseProfile::catalog`).
    pub fn bundled_release(catalog: BundledCatalog) -> Result<Self, CatalogError> {
        Self::parse(bundled_models_json(catalog), CatalogOrigin::Bundled)
    }

    /// A user catalog file (`model_catalog` in config, `--model-catalog FILE`) in the
    /// `ModelsResponse` schema; legacy per-model `base_instructions` are accepted.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, CatalogError> {
        let path = path.as_ref();
        let json =
            codex_utils_fs::read_regular_to_string(path).map_err(|source| CatalogError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        Self::parse(&json, CatalogOrigin::File(path.to_path_buf()))
    }

    /// A catalog document given as text.
    pub fn from_json_str(json: &str) -> Result<Self, CatalogError> {
        Self::parse(json, CatalogOrigin::Inline)
    }

    /// A catalog already decoded, e.g. a `/models` response.
    pub fn from_response(response: ModelsResponse, origin: CatalogOrigin) -> Self {
        Self {
            origin,
            models: response.models,
        }
    }

    /// Decodes the document and checks its templates ([`check_templates`]).
    fn parse(json: &str, origin: CatalogOrigin) -> Result<Self, CatalogError> {
        match serde_json::from_str::<ModelsResponse>(json) {
            Ok(response) => {
                check_templates(&origin, &response.models)?;
                Ok(Self::from_response(response, origin))
            }
            Err(source) => Err(CatalogError::Parse { origin, source }),
        }
    }

    /// This catalog with `remote` (a provider's `/models` entries) merged in: an entry of a
    /// known slug replaces it, a new slug is appended. The origin stays this catalog's.
    pub fn with_remote_models(self, remote: &[ModelInfo]) -> Self {
        let models = crate::cache::merge_remote_models(&self.models, remote.to_vec());
        Self {
            origin: self.origin,
            models,
        }
    }

    pub fn origin(&self) -> &CatalogOrigin {
        &self.origin
    }

    /// Entries in document order.
    pub fn models(&self) -> &[ModelInfo] {
        &self.models
    }

    pub fn into_response(self) -> ModelsResponse {
        ModelsResponse {
            models: self.models,
        }
    }

    /// Entries sorted by ascending `priority`; equal priorities keep document order.
    pub fn list(&self) -> Vec<&ModelInfo> {
        let mut listed: Vec<&ModelInfo> = self.models.iter().collect();
        listed.sort_by_key(|model| model.priority);
        listed
    }

    /// The model used when none is requested: the first picker-visible (`list`) entry of
    /// [`ModelCatalog::list`], else its first entry; `None` for an empty catalog.
    pub fn default_model(&self) -> Option<&ModelInfo> {
        let listed = self.list();
        listed
            .iter()
            .find(|model| model.visibility == ModelVisibility::List)
            .or_else(|| listed.first())
            .copied()
    }
}

/// Checks every catalog text the harness fills placeholders in against the variables it fills:
/// `instructions_template` gets the personality, the `permissions` texts the network access
/// (other texts are used verbatim). A placeholder naming anything else is an error naming the
/// field, the model and the catalog, worded as an overlay file's is.
fn check_templates(origin: &CatalogOrigin, models: &[ModelInfo]) -> Result<(), UndefinedVariable> {
    let personality = placeholder_names(PERSONALITY_PLACEHOLDER);
    let network_access = placeholder_names(CATALOG_NETWORK_ACCESS_PLACEHOLDER);
    for model in models {
        let Some(messages) = &model.model_messages else {
            continue;
        };
        let permissions = messages.permissions.as_ref();
        let texts = [
            (
                "instructions_template",
                messages.instructions_template.as_ref(),
                &personality,
            ),
            (
                "permissions.read_only",
                permissions.and_then(|texts| texts.read_only.as_ref()),
                &network_access,
            ),
            (
                "permissions.workspace_write",
                permissions.and_then(|texts| texts.workspace_write.as_ref()),
                &network_access,
            ),
            (
                "permissions.danger_full_access",
                permissions.and_then(|texts| texts.danger_full_access.as_ref()),
                &network_access,
            ),
        ];
        for (field, text, defined) in texts {
            if let Some(text) = text {
                check_variables(
                    format_args!(
                        "`model_messages.{field}` of model `{}` in {origin}",
                        model.slug
                    ),
                    text,
                    defined,
                )?;
            }
        }
    }
    Ok(())
}
