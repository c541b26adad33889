//! Resolving a requested model name to catalog metadata.

use codex_protocol::openai_models::ModelInfo;
use tracing::warn;

use crate::catalog::ModelCatalog;
use crate::fallback::fallback_model_info;

/// Metadata for a requested model name. `info.slug` is always the requested name, even when the
/// metadata came from a shorter catalog slug or from the fallback.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedModel {
    pub info: ModelInfo,
    pub source: MetadataSource,
}

/// Where a [`ResolvedModel`]'s metadata came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataSource {
    /// Copied from the catalog entry with this slug.
    Catalog { matched_slug: String },
    /// The catalog knows no matching entry; generic metadata from [`fallback_model_info`].
    Fallback,
}

impl ModelCatalog {
    /// Resolves `requested`:
    /// 1. the entry with the longest slug that is a prefix of `requested`;
    /// 2. failing that, the same match after stripping one `namespace/` prefix (namespace made of
    ///    ASCII letters, digits, `_` and `-`; a second `/` disables this step);
    /// 3. failing that, fallback metadata, with a warning.
    pub fn lookup(&self, requested: &str) -> ResolvedModel {
        let namespaced_suffix = requested.split_once('/').and_then(|(namespace, rest)| {
            let valid_namespace = !namespace.is_empty()
                && namespace
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (valid_namespace && !rest.contains('/')).then_some(rest)
        });
        let matched = longest_prefix_match(self.models(), requested).or_else(|| {
            namespaced_suffix.and_then(|suffix| longest_prefix_match(self.models(), suffix))
        });
        match matched {
            Some(entry) => {
                let mut info = entry.clone();
                info.slug = requested.to_string();
                info.used_fallback_model_metadata = false;
                ResolvedModel {
                    info,
                    source: MetadataSource::Catalog {
                        matched_slug: entry.slug.clone(),
                    },
                }
            }
            None => {
                warn!(
                    "model `{requested}` is not in the catalog, so fallback model metadata is used"
                );
                ResolvedModel {
                    info: fallback_model_info(requested),
                    source: MetadataSource::Fallback,
                }
            }
        }
    }
}

/// The entry whose slug is the longest prefix of `name` (the first such entry on ties). Empty
/// slugs never match: they would otherwise capture every name.
fn longest_prefix_match<'a>(models: &'a [ModelInfo], name: &str) -> Option<&'a ModelInfo> {
    models
        .iter()
        .filter(|model| !model.slug.is_empty() && name.starts_with(model.slug.as_str()))
        .fold(None, |best: Option<&ModelInfo>, candidate| match best {
            Some(best) if best.slug.len() >= candidate.slug.len() => Some(best),
            Some(_) | None => Some(candidate),
        })
}
