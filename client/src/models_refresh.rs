//! Live model catalog: `GET /models`, the `models_cache.json` file, and the fallbacks when the
//! network or the cache fails.
//!
//! The file format and freshness rules live in `codex-models-manager` (no network code there);
//! this module decides when to fetch and what to fall back to.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use codex_models_manager::CacheFreshness;
use codex_models_manager::CatalogOrigin;
use codex_models_manager::DEFAULT_MODELS_CACHE_TTL;
use codex_models_manager::MODELS_CACHE_FILE;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_models_manager::ModelsCache;
use codex_models_manager::ModelsCacheKey;
use codex_models_manager::ModelsResponse;
use codex_models_manager::merge_remote_models;
use jiff::Timestamp;

use super::http::ModelsFetch;
use super::http::ResponsesClient;
use super::retry::Clock;

/// When to ask the `/models` endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshStrategy {
    /// Always ask (a cached ETag is sent, so an unchanged catalog costs a 304).
    Online,
    /// Never ask: the cache, else the bundled catalog.
    Offline,
    /// Use a fresh cache; ask only when there is none.
    OnlineIfUncached,
}

impl fmt::Display for RefreshStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Online => "online",
            Self::Offline => "offline",
            Self::OnlineIfUncached => "online_if_uncached",
        })
    }
}

/// Everything a refresh needs besides the client.
#[derive(Debug, Clone)]
pub struct ModelsRefreshOptions {
    /// Usually `$CODEX_HOME/models_cache.json` ([`ModelsRefreshOptions::new`]).
    pub cache_path: PathBuf,
    /// `MAJOR.MINOR.PATCH` sent as `client_version` and recorded in the cache.
    pub client_version: String,
    /// Provider the catalog belongs to (the cache key).
    pub provider_id: String,
    pub ttl: Duration,
    /// The catalog remote models are merged into, and the last resort.
    pub bundled: ModelCatalog,
    pub clock: Arc<dyn Clock>,
}

impl ModelsRefreshOptions {
    pub fn new(
        codex_home: &std::path::Path,
        client_version: impl Into<String>,
        provider_id: impl Into<String>,
        bundled: ModelCatalog,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            cache_path: codex_home.join(MODELS_CACHE_FILE),
            client_version: client_version.into(),
            provider_id: provider_id.into(),
            ttl: DEFAULT_MODELS_CACHE_TTL,
            bundled,
            clock,
        }
    }
}

/// Where the catalog in a [`RefreshedCatalog`] came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogSource {
    /// Fetched now (and written to the cache).
    Network { etag: Option<String> },
    /// The server confirmed the cached ETag (304, or an equal `X-Models-Etag`); the cache's TTL
    /// was renewed.
    CacheConfirmed { etag: Option<String> },
    /// The cache file, used as it was.
    Cache {
        fetched_at: Timestamp,
        freshness: CacheFreshness,
    },
    /// The catalog compiled into the binary.
    Bundled,
}

/// Something that went wrong but did not stop the refresh; each names what was used instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshWarning {
    /// No client (no API key): the endpoint was not asked.
    NoClient,
    FetchFailed(String),
    CacheUnreadable(String),
    CacheWriteFailed(String),
    /// A cache older than the TTL was used because nothing newer could be had.
    StaleCacheUsed {
        age: Duration,
    },
    /// Neither the network nor a usable cache gave a catalog.
    BundledFallback,
}

impl fmt::Display for RefreshWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoClient => {
                f.write_str("no API key available; the models endpoint was not asked")
            }
            Self::FetchFailed(error) => write!(f, "models refresh failed: {error}"),
            Self::CacheUnreadable(error) => write!(f, "models cache ignored: {error}"),
            Self::CacheWriteFailed(error) => write!(f, "models cache not updated: {error}"),
            Self::StaleCacheUsed { age } => {
                write!(f, "using the models cache from {} s ago", age.as_secs())
            }
            Self::BundledFallback => f.write_str("using the bundled model catalog"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefreshedCatalog {
    /// The bundled catalog with remote models merged in (or the bundled catalog alone).
    pub catalog: ModelCatalog,
    pub source: CatalogSource,
    pub warnings: Vec<RefreshWarning>,
}

/// Produces the catalog for `strategy`: network, then cache (stale allowed, with a warning), then
/// the bundled catalog. Never fails; every problem becomes a warning.
pub async fn refresh_models(
    client: Option<&ResponsesClient>,
    options: &ModelsRefreshOptions,
    strategy: RefreshStrategy,
) -> RefreshedCatalog {
    let mut warnings = Vec::new();
    let cache = load_cache(options, &mut warnings);
    let now = options.clock.now();
    let judged = cache.map(|cache| {
        let freshness = cache.freshness(
            now,
            options.ttl,
            &options.client_version,
            &options.provider_id,
        );
        (cache, freshness)
    });
    let fresh_cache = matches!(&judged, Some((_, CacheFreshness::Fresh)));
    let ask_network = match strategy {
        RefreshStrategy::Online => true,
        RefreshStrategy::OnlineIfUncached => !fresh_cache,
        RefreshStrategy::Offline => false,
    };
    if !ask_network {
        return fall_back(options, judged, warnings);
    }
    let Some(client) = client else {
        warnings.push(RefreshWarning::NoClient);
        return fall_back(options, judged, warnings);
    };
    let usable = judged.filter(|(_, freshness)| {
        matches!(
            freshness,
            CacheFreshness::Fresh | CacheFreshness::Stale { .. }
        )
    });
    let cached_etag = usable.as_ref().and_then(|(cache, _)| cache.etag.clone());
    match client
        .fetch_models(&options.client_version, cached_etag.as_deref())
        .await
    {
        Ok(ModelsFetch::Fetched { response, etag }) => {
            let cache = ModelsCache {
                fetched_at: now,
                etag: etag.clone(),
                client_version: Some(options.client_version.clone()),
                cache_key: Some(ModelsCacheKey {
                    provider_id: options.provider_id.clone(),
                    auth_mode: None,
                    account_id: None,
                }),
                models: response.models,
            };
            save_cache(options, &cache, &mut warnings);
            RefreshedCatalog {
                catalog: merged_catalog(
                    options,
                    cache.models,
                    CatalogOrigin::Remote(client.models_url().to_string()),
                ),
                source: CatalogSource::Network { etag },
                warnings,
            }
        }
        Ok(ModelsFetch::NotModified) => match usable {
            Some((cache, _)) => confirm_cache(options, cache, now, warnings),
            None => {
                warnings.push(RefreshWarning::FetchFailed(
                    "304 Not Modified without a cached catalog".to_string(),
                ));
                fall_back(options, None, warnings)
            }
        },
        Err(error) => {
            warnings.push(RefreshWarning::FetchFailed(error.to_string()));
            fall_back(options, usable, warnings)
        }
    }
}

/// Reacts to an `X-Models-Etag` seen on a response: an ETag equal to the cached one renews the
/// cache's TTL without a request; any other forces an [`RefreshStrategy::Online`] refresh.
pub async fn refresh_models_if_new_etag(
    client: Option<&ResponsesClient>,
    options: &ModelsRefreshOptions,
    etag: &str,
) -> RefreshedCatalog {
    let mut warnings = Vec::new();
    let now = options.clock.now();
    if let Some(cache) = load_cache(options, &mut warnings)
        && cache.etag.as_deref() == Some(etag)
        && matches!(
            cache.freshness(
                now,
                options.ttl,
                &options.client_version,
                &options.provider_id
            ),
            CacheFreshness::Fresh | CacheFreshness::Stale { .. }
        )
    {
        return confirm_cache(options, cache, now, warnings);
    }
    let mut refreshed = refresh_models(client, options, RefreshStrategy::Online).await;
    warnings.append(&mut refreshed.warnings);
    refreshed.warnings = warnings;
    refreshed
}

fn load_cache(
    options: &ModelsRefreshOptions,
    warnings: &mut Vec<RefreshWarning>,
) -> Option<ModelsCache> {
    ModelsCache::load(&options.cache_path).unwrap_or_else(|error| {
        warnings.push(RefreshWarning::CacheUnreadable(error.to_string()));
        None
    })
}

fn save_cache(
    options: &ModelsRefreshOptions,
    cache: &ModelsCache,
    warnings: &mut Vec<RefreshWarning>,
) {
    if let Err(error) = cache.save(&options.cache_path) {
        warnings.push(RefreshWarning::CacheWriteFailed(error.to_string()));
    }
}

fn merged_catalog(
    options: &ModelsRefreshOptions,
    remote: Vec<ModelInfo>,
    origin: CatalogOrigin,
) -> ModelCatalog {
    let models = merge_remote_models(options.bundled.models(), remote);
    ModelCatalog::from_response(ModelsResponse { models }, origin)
}

/// The cache's models, with `fetched_at` moved to now and written back.
fn confirm_cache(
    options: &ModelsRefreshOptions,
    mut cache: ModelsCache,
    now: Timestamp,
    mut warnings: Vec<RefreshWarning>,
) -> RefreshedCatalog {
    cache.fetched_at = now;
    save_cache(options, &cache, &mut warnings);
    let etag = cache.etag.clone();
    RefreshedCatalog {
        catalog: merged_catalog(
            options,
            cache.models,
            CatalogOrigin::Cache(options.cache_path.clone()),
        ),
        source: CatalogSource::CacheConfirmed { etag },
        warnings,
    }
}

/// The cache when it is for this client version and provider (stale ones with a warning), else
/// the bundled catalog.
fn fall_back(
    options: &ModelsRefreshOptions,
    judged: Option<(ModelsCache, CacheFreshness)>,
    mut warnings: Vec<RefreshWarning>,
) -> RefreshedCatalog {
    match judged {
        Some((cache, freshness @ (CacheFreshness::Fresh | CacheFreshness::Stale { .. }))) => {
            if let CacheFreshness::Stale { age } = freshness {
                warnings.push(RefreshWarning::StaleCacheUsed { age });
            }
            RefreshedCatalog {
                source: CatalogSource::Cache {
                    fetched_at: cache.fetched_at,
                    freshness,
                },
                catalog: merged_catalog(
                    options,
                    cache.models,
                    CatalogOrigin::Cache(options.cache_path.clone()),
                ),
                warnings,
            }
        }
        Some((_, CacheFreshness::OtherClientVersion { .. } | CacheFreshness::OtherProvider))
        | None => {
            warnings.push(RefreshWarning::BundledFallback);
            RefreshedCatalog {
                catalog: options.bundled.clone(),
                source: CatalogSource::Bundled,
                warnings,
            }
        }
    }
}
