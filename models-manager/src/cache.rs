//! The on-disk models cache (`$CODEX_HOME/models_cache.json`): the last catalog fetched from a
//! provider's `/models` endpoint, with the time, ETag and client version it was fetched for.
//!
//! This module only reads and writes the file and judges its freshness; fetching lives with the
//! HTTP client in `codex-client`, so this crate stays free of network code.

use std::io;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::legacy_models;
use codex_utils_fs::Existing;
use codex_utils_fs::WriteError;
use jiff::Timestamp;
use serde::Deserialize;
use serde::Serialize;

/// File name of the cache under `$CODEX_HOME`.
pub const MODELS_CACHE_FILE: &str = "models_cache.json";

/// How long a fetched catalog is used before the endpoint is asked again.
pub const DEFAULT_MODELS_CACHE_TTL: Duration = Duration::from_secs(300);

/// The cache document. Key names and optionality follow upstream's file, so either program can
/// read a file the other wrote (each ignores one written for another client version).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelsCache {
    /// When the catalog was fetched, or last confirmed unchanged (RFC 3339, UTC).
    #[serde(with = "rfc3339")]
    pub fetched_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// `MAJOR.MINOR.PATCH` of the client that fetched it; the endpoint's answer depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_key: Option<ModelsCacheKey>,
    #[serde(with = "legacy_models")]
    pub models: Vec<ModelInfo>,
}

/// Which provider (and account) a cached catalog belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelsCacheKey {
    pub provider_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
}

/// How a cache file relates to the catalog a caller needs now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheFreshness {
    /// Within the TTL and fetched for this client version and provider.
    Fresh,
    /// Right version and provider, but older than the TTL (or the TTL is zero).
    Stale { age: Duration },
    /// Fetched for another client version (or none recorded); the endpoint may answer
    /// differently, so the models are not used.
    OtherClientVersion { cached: Option<String> },
    /// Fetched for another provider or account.
    OtherProvider,
}

/// The cache file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ModelsCacheError {
    #[error("failed to read models cache {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("invalid models cache {}: {source}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("failed to write models cache {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The file could not be put in place (the previous cache, if any, is left as it was).
    #[error("failed to write models cache: {0}")]
    Save(#[source] WriteError),
    #[error("failed to serialize models cache: {0}")]
    Serialize(#[source] serde_json::Error),
}

impl ModelsCache {
    /// Reads the cache file; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Self>, ModelsCacheError> {
        let bytes = match codex_utils_fs::read_regular(path) {
            Ok(bytes) => bytes,
            Err(source) if source.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(ModelsCacheError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|source| ModelsCacheError::Parse {
                path: path.to_path_buf(),
                source,
            })
    }

    /// Writes the cache as pretty JSON, creating parent directories. The text goes to a sibling
    /// temporary file first and is renamed into place ([`codex_utils_fs::write_atomic`]), so a
    /// reader never sees half a file.
    pub fn save(&self, path: &Path) -> Result<(), ModelsCacheError> {
        let write_error = |source| ModelsCacheError::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut json = serde_json::to_vec_pretty(self).map_err(ModelsCacheError::Serialize)?;
        json.push(b'\n');
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(write_error)?;
        }
        codex_utils_fs::write_atomic(path, &json, Existing::Replace).map_err(ModelsCacheError::Save)
    }

    /// Time since `fetched_at`; zero when `fetched_at` lies in the future (clock skew).
    pub fn age(&self, now: Timestamp) -> Duration {
        Duration::try_from(now.duration_since(self.fetched_at)).unwrap_or(Duration::ZERO)
    }

    /// Judges the cache for a caller running `client_version` against `provider_id`. A file
    /// without a cache key is accepted for any provider (older files have none).
    pub fn freshness(
        &self,
        now: Timestamp,
        ttl: Duration,
        client_version: &str,
        provider_id: &str,
    ) -> CacheFreshness {
        if let Some(key) = &self.cache_key
            && key.provider_id != provider_id
        {
            return CacheFreshness::OtherProvider;
        }
        if self.client_version.as_deref() != Some(client_version) {
            return CacheFreshness::OtherClientVersion {
                cached: self.client_version.clone(),
            };
        }
        let age = self.age(now);
        if ttl.is_zero() || age > ttl {
            CacheFreshness::Stale { age }
        } else {
            CacheFreshness::Fresh
        }
    }
}

/// Folds a remote model list into the bundled one: a remote entry replaces the bundled entry with
/// the same slug in place, new slugs are appended in remote order. An empty remote list leaves the
/// bundled list as it is.
///
/// This is the rule upstream applies to API-key users; only ChatGPT accounts (not supported here)
/// let a remote list replace the catalog wholesale.
pub fn merge_remote_models(bundled: &[ModelInfo], remote: Vec<ModelInfo>) -> Vec<ModelInfo> {
    let mut merged = bundled.to_vec();
    for model in remote {
        match merged.iter_mut().find(|known| known.slug == model.slug) {
            Some(known) => *known = model,
            None => merged.push(model),
        }
    }
    merged
}

/// `fetched_at` as an RFC 3339 string (`2026-01-02T03:04:05.678Z`).
mod rfc3339 {
    use jiff::Timestamp;
    use serde::Deserialize;
    use serde::Deserializer;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(
        timestamp: &Timestamp,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(timestamp)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
