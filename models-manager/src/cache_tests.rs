use std::time::Duration;

use codex_protocol::openai_models::ModelInfo;
use jiff::Timestamp;
use pretty_assertions::assert_eq;

use super::CacheFreshness;
use super::ModelsCache;
use super::ModelsCacheError;
use super::ModelsCacheKey;
use super::merge_remote_models;
use crate::ModelCatalog;

fn bundled_models() -> Vec<ModelInfo> {
    ModelCatalog::bundled()
        .expect("bundled catalog parses")
        .into_response()
        .models
}

fn at(text: &str) -> Timestamp {
    text.parse().expect("valid timestamp")
}

fn sample_cache() -> ModelsCache {
    ModelsCache {
        fetched_at: at("2026-03-01T10:00:00.250Z"),
        etag: Some("\"v1\"".to_string()),
        client_version: Some("0.1.0".to_string()),
        cache_key: Some(ModelsCacheKey {
            provider_id: "openai".to_string(),
            auth_mode: None,
            account_id: None,
        }),
        models: bundled_models().into_iter().take(2).collect(),
    }
}

#[test]
fn save_then_load_round_trips_and_creates_parent_directories() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("nested/home/models_cache.json");
    let cache = sample_cache();
    cache.save(&path).expect("save");
    assert_eq!(ModelsCache::load(&path).expect("load"), Some(cache));
}

#[test]
fn saved_file_has_upstream_keys_in_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("models_cache.json");
    sample_cache().save(&path).expect("save");
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    let keys: Vec<&str> = value
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        (keys, &value["fetched_at"], &value["cache_key"]),
        (
            vec![
                "fetched_at",
                "etag",
                "client_version",
                "cache_key",
                "models"
            ],
            &serde_json::json!("2026-03-01T10:00:00.25Z"),
            &serde_json::json!({"provider_id": "openai"}),
        )
    );
}

#[test]
fn missing_file_is_no_cache() {
    let dir = tempfile::tempdir().expect("tempdir");
    let loaded = ModelsCache::load(&dir.path().join("absent.json")).expect("no error");
    assert_eq!(loaded, None);
}

#[test]
fn damaged_file_is_a_parse_error_naming_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("models_cache.json");
    std::fs::write(&path, "{\"fetched_at\": 12").expect("write");
    let error = ModelsCache::load(&path).expect_err("damaged");
    assert!(
        matches!(&error, ModelsCacheError::Parse { path: reported, .. } if reported == &path),
        "{error:?}"
    );
}

#[test]
fn reads_a_file_written_with_an_offset_timestamp_and_no_optional_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("models_cache.json");
    std::fs::write(
        &path,
        r#"{"fetched_at":"2026-03-01T11:00:00.123456789+01:00","models":[]}"#,
    )
    .expect("write");
    let expected = ModelsCache {
        fetched_at: at("2026-03-01T10:00:00.123456789Z"),
        etag: None,
        client_version: None,
        cache_key: None,
        models: Vec::new(),
    };
    assert_eq!(ModelsCache::load(&path).expect("load"), Some(expected));
}

#[test]
fn freshness_follows_ttl_version_and_provider() {
    let cache = sample_cache();
    let ttl = Duration::from_secs(300);
    let judge = |now: &str, ttl: Duration, version: &str, provider: &str| {
        cache.freshness(at(now), ttl, version, provider)
    };
    assert_eq!(
        [
            judge("2026-03-01T10:05:00.250Z", ttl, "0.1.0", "openai"),
            judge("2026-03-01T10:05:00.251Z", ttl, "0.1.0", "openai"),
            judge("2026-03-01T09:00:00Z", ttl, "0.1.0", "openai"),
            judge(
                "2026-03-01T10:00:01.250Z",
                Duration::ZERO,
                "0.1.0",
                "openai"
            ),
            judge("2026-03-01T10:00:01Z", ttl, "0.2.0", "openai"),
            judge("2026-03-01T10:00:01Z", ttl, "0.1.0", "other"),
        ],
        [
            CacheFreshness::Fresh,
            CacheFreshness::Stale {
                age: Duration::from_millis(300_001)
            },
            CacheFreshness::Fresh,
            CacheFreshness::Stale {
                age: Duration::from_secs(1)
            },
            CacheFreshness::OtherClientVersion {
                cached: Some("0.1.0".to_string())
            },
            CacheFreshness::OtherProvider,
        ]
    );
}

#[test]
fn merge_replaces_same_slugs_in_place_and_appends_new_ones() {
    let bundled = bundled_models();
    let mut changed = bundled[1].clone();
    changed.display_name = "Changed".to_string();
    let mut added = bundled[0].clone();
    added.slug = "brand-new".to_string();

    let merged = merge_remote_models(&bundled, vec![added.clone(), changed.clone()]);

    let mut expected = bundled.clone();
    expected[1] = changed;
    expected.push(added);
    assert_eq!(merged, expected);
    assert_eq!(merge_remote_models(&bundled, Vec::new()), bundled);
}
