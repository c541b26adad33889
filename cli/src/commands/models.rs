//! `codex-context models`: the catalog's models, one per line; with `--refresh`, the catalog
//! the provider's `/models` endpoint serves (cached in `$CODEX_HOME/models_cache.json`).

use std::path::PathBuf;
use std::sync::Arc;

use codex_client::CatalogSource;
use codex_client::ModelsRefreshOptions;
use codex_client::RefreshStrategy;
use codex_client::RefreshWarning;
use codex_client::SystemClock;
use codex_client::refresh_models;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigOverrides;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_prompts::TemplateSet;
use serde_json::json;
use tracing::warn;

use crate::catalog::CatalogArgs;
use crate::endpoint::EndpointArgs;
use crate::endpoint::runtime;
use codex_config::DEFAULT_RELEASE;
use codex_release::CodexRelease;

/// List the catalog's models
///
/// One line per model, in priority order: slug, visibility, context window (`context_window`,
/// else `max_context_window`) and whether the model supports personalities.
#[derive(Debug, clap::Args)]
pub struct ModelsArgs {
    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// The upstream Codex release whose bundled catalog is listed (`0.149`, `0.171`; default:
    /// the latest supported release).
    #[arg(long, value_name = "VERSION")]
    pub codex_version: Option<CodexRelease>,

    /// Print a JSON array of `{slug, visibility, context_window, supports_personality}`.
    #[arg(long)]
    pub json: bool,

    /// First fetch `{base_url}/models?client_version=…` (sending the cached ETag) and merge the
    /// served models into the catalog. The answer is cached in `$CODEX_HOME/models_cache.json`
    /// (300 s TTL). When the fetch fails the cache is used, else the bundled catalog, with a
    /// warning on stderr; stderr also names where the catalog came from.
    #[arg(long)]
    pub refresh: bool,

    #[command(flatten)]
    pub endpoint: EndpointArgs,

    /// CODEX_HOME (config.toml, models_cache.json) for `--refresh`; default `$CODEX_HOME`, else
    /// `~/.codex`.
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,
}

const HEADERS: [&str; 4] = ["SLUG", "VISIBILITY", "CONTEXT WINDOW", "PERSONALITY"];

pub fn run(args: &ModelsArgs) -> anyhow::Result<String> {
    if !args.refresh {
        args.endpoint.reject_unused("--refresh")?;
    }
    let release = args.codex_version.unwrap_or(DEFAULT_RELEASE);
    let mut catalog = args.catalog.load(&TemplateSet::embedded(), release)?;
    if args.refresh {
        catalog = refreshed(args, catalog)?;
    }
    let models = catalog.list();
    if args.json {
        let rows: Vec<serde_json::Value> = models
            .iter()
            .map(|model| {
                json!({
                    "slug": model.slug,
                    "visibility": model.visibility.as_str(),
                    "context_window": model.resolved_context_window(),
                    "supports_personality": model.supports_personality(),
                })
            })
            .collect();
        return Ok(serde_json::to_string_pretty(&rows)? + "\n");
    }
    Ok(table(&models))
}

/// `bundled` with the provider's models merged in, from the network or the cache; warnings and
/// the catalog's origin go to stderr.
fn refreshed(args: &ModelsArgs, bundled: ModelCatalog) -> anyhow::Result<ModelCatalog> {
    let flags = ConfigOverrides {
        codex_home: args.codex_home.clone(),
        ..ConfigOverrides::default()
    };
    let config = Config::load(&flags, &[], &ConfigEnv::from_process())?;
    for warning in &config.warnings {
        warn!("{warning}");
    }
    let client = match args.endpoint.api_key(Some(&config.model_provider)) {
        Ok(key) => Some(args.endpoint.client(Some(&config.model_provider), key)?),
        Err(error) => {
            warn!("{error}; the models endpoint was not asked");
            None
        }
    };
    let options = ModelsRefreshOptions::new(
        &config.codex_home,
        env!("CARGO_PKG_VERSION"),
        config.model_provider.id.clone(),
        bundled,
        Arc::new(SystemClock),
    );
    let refreshed = runtime()?.block_on(refresh_models(
        client.as_ref(),
        &options,
        RefreshStrategy::Online,
    ));
    for warning in &refreshed.warnings {
        match warning {
            // Already said, naming the variable.
            RefreshWarning::NoClient => {}
            RefreshWarning::FetchFailed(_)
            | RefreshWarning::CacheUnreadable(_)
            | RefreshWarning::CacheWriteFailed(_)
            | RefreshWarning::StaleCacheUsed { .. }
            | RefreshWarning::BundledFallback => warn!("{warning}"),
        }
    }
    let cache = options.cache_path.display();
    let etag = |etag: &Option<String>| {
        etag.as_deref()
            .map(|etag| format!(" (ETag {etag})"))
            .unwrap_or_default()
    };
    match &refreshed.source {
        CatalogSource::Network { etag: served } => {
            let url = client
                .as_ref()
                .map(|client| client.models_url().to_string())
                .unwrap_or_default();
            eprintln!(
                "models: fetched from {url}{}, cached in {cache}",
                etag(served)
            );
        }
        CatalogSource::CacheConfirmed { etag: cached } => {
            eprintln!("models: {cache} is current{}", etag(cached));
        }
        CatalogSource::Cache { fetched_at, .. } => {
            eprintln!("models: from {cache}, fetched at {fetched_at}");
        }
        CatalogSource::Bundled => {}
    }
    Ok(refreshed.catalog)
}

/// Left-aligned columns separated by two spaces; no trailing spaces.
fn table(models: &[&ModelInfo]) -> String {
    let rows: Vec<[String; 4]> = models
        .iter()
        .map(|model| {
            [
                model.slug.clone(),
                model.visibility.as_str().to_string(),
                model
                    .resolved_context_window()
                    .map_or_else(|| "-".to_string(), |window| window.to_string()),
                if model.supports_personality() {
                    "yes"
                } else {
                    "no"
                }
                .to_string(),
            ]
        })
        .collect();
    let header = HEADERS.map(str::to_string);
    let mut widths = HEADERS.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(widths) {
            line.push_str(&format!("{cell:<width$}  "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
