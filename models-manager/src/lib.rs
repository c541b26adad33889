//! The model catalog: which models exist, what the harness knows about each of them, and the
//! instructions a model is given.
//!
//! A [`ModelCatalog`] is loaded from a catalog compiled into this crate (one per release's
//! [`BundledCatalog`]: [`BUNDLED_MODELS_JSON`], [`BUNDLED_MODELS_0_171_JSON`], upstream's
//! `ModelsResponse` schema; [`ReleaseCatalogs`] holds one per release) or from a user file (`model_catalog` in config,
//! `--model-catalog FILE`). [`ModelCatalog::lookup`] resolves a requested model name to metadata,
//! falling back to generic metadata for names the catalog does not know. Rendering instructions
//! and personality texts uses the model methods of `codex-protocol`
//! ([`ModelInfo::get_model_instructions`], [`ModelInfo::supports_personality`]) plus
//! [`personality_message`]; [`with_config_overrides`] applies user configuration to an entry.
//! [`ModelsCache`] reads and writes `$CODEX_HOME/models_cache.json` and judges its freshness, and
//! [`merge_remote_models`] folds a fetched list into the bundled one; the fetching itself lives in
//! `codex-client`, so this crate does no network IO.

mod cache;
mod catalog;
mod error;
mod fallback;
mod lookup;
mod overlay;
mod overrides;
mod personality;
mod release_catalogs;

pub use cache::CacheFreshness;
pub use cache::DEFAULT_MODELS_CACHE_TTL;
pub use cache::MODELS_CACHE_FILE;
pub use cache::ModelsCache;
pub use cache::ModelsCacheError;
pub use cache::ModelsCacheKey;
pub use cache::merge_remote_models;
pub use catalog::BUNDLED_MODELS_0_171_JSON;
pub use catalog::BUNDLED_MODELS_JSON;
pub use catalog::ModelCatalog;
pub use catalog::bundled_models_json;
pub use error::CatalogError;
pub use error::CatalogOrigin;
pub use fallback::FALLBACK_PRIORITY;
pub use fallback::fallback_model_info;
pub use lookup::MetadataSource;
pub use lookup::ResolvedModel;
pub use overrides::APPROX_BYTES_PER_TOKEN;
pub use overrides::BakedPersonality;
pub use overrides::ModelsConfigOverrides;
pub use overrides::PersonalityFeature;
pub use overrides::with_config_overrides;
pub use personality::personality_message;
pub use release_catalogs::ReleaseCatalogs;

pub use codex_protocol::Personality;
pub use codex_protocol::openai_models::ModelInfo;
pub use codex_protocol::openai_models::ModelsResponse;
pub use codex_release::BundledCatalog;
