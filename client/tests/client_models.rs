//! Live catalog refresh against an in-process `/models` endpoint: ETag handling, the cache file,
//! its TTL, and the fallbacks when the network fails.

#![allow(clippy::expect_used)]

mod client_support;

use std::sync::Arc;
use std::time::Duration;

use client_support::ManualClock;
use client_support::RecordingSleeper;
use client_support::Step;
use client_support::scripted_server;
use client_support::test_config;
use codex_client::CatalogSource;
use codex_client::Clock;
use codex_client::ModelsRefreshOptions;
use codex_client::RefreshStrategy;
use codex_client::RefreshWarning;
use codex_client::RefreshedCatalog;
use codex_client::ResponsesClient;
use codex_client::refresh_models;
use codex_client::refresh_models_if_new_etag;
use codex_models_manager::CacheFreshness;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ModelInfo;
use codex_models_manager::ModelsCache;
use codex_models_manager::ModelsCacheKey;
use codex_models_manager::ModelsResponse;
use pretty_assertions::assert_eq;
use wiremock::Mock;
use wiremock::MockServer;
use wiremock::ResponseTemplate;
use wiremock::matchers::header;
use wiremock::matchers::method;
use wiremock::matchers::path;
use wiremock::matchers::query_param;

const CLIENT_VERSION: &str = "0.1.0";
const START: &str = "2026-03-01T10:00:00Z";

struct Fixture {
    server: MockServer,
    client: ResponsesClient,
    options: ModelsRefreshOptions,
    clock: Arc<ManualClock>,
    _home: tempfile::TempDir,
}

async fn fixture() -> Fixture {
    let server = MockServer::start().await;
    let clock = ManualClock::at(START);
    let mut config = test_config(
        &format!("{}/v1", server.uri()),
        Arc::new(RecordingSleeper::default()),
    );
    config.models_request_timeout = Duration::from_secs(2);
    let client = ResponsesClient::new(config).expect("client");
    let home = tempfile::tempdir().expect("tempdir");
    let options = ModelsRefreshOptions::new(
        home.path(),
        CLIENT_VERSION,
        "openai",
        ModelCatalog::bundled().expect("bundled"),
        Arc::clone(&clock) as Arc<dyn Clock>,
    );
    Fixture {
        server,
        client,
        options,
        clock,
        _home: home,
    }
}

/// One model the bundled catalog does not have, and the first bundled model renamed.
fn remote_models() -> Vec<ModelInfo> {
    let bundled = ModelCatalog::bundled()
        .expect("bundled")
        .into_response()
        .models;
    let mut changed = bundled[0].clone();
    changed.display_name = "Renamed remotely".to_string();
    let mut added = bundled[0].clone();
    added.slug = "remote-only".to_string();
    vec![changed, added]
}

fn models_answer(models: Vec<ModelInfo>, etag: &str) -> ResponseTemplate {
    let body = serde_json::to_string(&ModelsResponse { models }).expect("serializes");
    ResponseTemplate::new(200)
        .insert_header("etag", etag)
        .set_body_raw(body, "application/json")
}

fn slugs_and_names(refreshed: &RefreshedCatalog) -> Vec<(String, String)> {
    refreshed
        .catalog
        .models()
        .iter()
        .map(|model| (model.slug.clone(), model.display_name.clone()))
        .collect()
}

fn expected_merged() -> Vec<(String, String)> {
    let mut expected: Vec<(String, String)> = ModelCatalog::bundled()
        .expect("bundled")
        .models()
        .iter()
        .map(|model| (model.slug.clone(), model.display_name.clone()))
        .collect();
    let original_name = std::mem::replace(&mut expected[0].1, "Renamed remotely".to_string());
    expected.push(("remote-only".to_string(), original_name));
    expected
}

async fn requests(server: &MockServer) -> usize {
    server
        .received_requests()
        .await
        .expect("recording on")
        .len()
}

#[tokio::test]
async fn online_refresh_fetches_with_client_version_and_writes_the_cache() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .and(query_param("client_version", CLIENT_VERSION))
        .and(header(
            "authorization",
            format!("Bearer {}", client_support::SECRET_KEY).as_str(),
        ))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .expect(1)
        .mount(&f.server)
        .await;

    let refreshed = refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;

    assert_eq!(
        (
            &refreshed.source,
            &refreshed.warnings,
            slugs_and_names(&refreshed)
        ),
        (
            &CatalogSource::Network {
                etag: Some("\"etag-1\"".to_string())
            },
            &Vec::new(),
            expected_merged()
        )
    );
    let cache = ModelsCache::load(&f.options.cache_path)
        .expect("readable")
        .expect("written");
    assert_eq!(
        cache,
        ModelsCache {
            fetched_at: START.parse().expect("timestamp"),
            etag: Some("\"etag-1\"".to_string()),
            client_version: Some(CLIENT_VERSION.to_string()),
            cache_key: Some(ModelsCacheKey {
                provider_id: "openai".to_string(),
                auth_mode: None,
                account_id: None,
            }),
            models: remote_models(),
        }
    );
}

#[tokio::test]
async fn a_fresh_cache_is_used_without_a_request() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .mount(&f.server)
        .await;
    refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    f.clock.advance(Duration::from_secs(299));

    let refreshed = refresh_models(
        Some(&f.client),
        &f.options,
        RefreshStrategy::OnlineIfUncached,
    )
    .await;

    assert_eq!(
        (
            &refreshed.source,
            slugs_and_names(&refreshed),
            requests(&f.server).await
        ),
        (
            &CatalogSource::Cache {
                fetched_at: START.parse().expect("timestamp"),
                freshness: CacheFreshness::Fresh
            },
            expected_merged(),
            1
        )
    );
}

#[tokio::test]
async fn a_stale_cache_is_refetched_with_its_etag_and_a_304_renews_it() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .and(header("if-none-match", "\"etag-1\""))
        .respond_with(ResponseTemplate::new(304))
        .mount(&f.server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .mount(&f.server)
        .await;
    refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    f.clock.advance(Duration::from_secs(301));

    let refreshed = refresh_models(
        Some(&f.client),
        &f.options,
        RefreshStrategy::OnlineIfUncached,
    )
    .await;

    let cache = ModelsCache::load(&f.options.cache_path)
        .expect("readable")
        .expect("present");
    assert_eq!(
        (
            &refreshed.source,
            slugs_and_names(&refreshed),
            requests(&f.server).await,
            cache.fetched_at,
        ),
        (
            &CatalogSource::CacheConfirmed {
                etag: Some("\"etag-1\"".to_string())
            },
            expected_merged(),
            2,
            f.clock.now(),
        )
    );
}

#[tokio::test]
async fn a_stale_cache_is_replaced_by_a_changed_catalog() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .up_to_n_times(1)
        .mount(&f.server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(Vec::new(), "\"etag-2\""))
        .mount(&f.server)
        .await;
    refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    f.clock.advance(Duration::from_secs(600));

    let refreshed = refresh_models(
        Some(&f.client),
        &f.options,
        RefreshStrategy::OnlineIfUncached,
    )
    .await;

    let bundled = ModelCatalog::bundled().expect("bundled");
    assert_eq!(
        (
            &refreshed.source,
            refreshed.catalog.models(),
            requests(&f.server).await
        ),
        (
            &CatalogSource::Network {
                etag: Some("\"etag-2\"".to_string())
            },
            bundled.models(),
            2
        )
    );
}

#[tokio::test]
async fn a_failing_refresh_falls_back_to_the_cache_then_to_the_bundled_catalog() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .up_to_n_times(1)
        .mount(&f.server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(500).set_body_string("catalog service down"))
        .mount(&f.server)
        .await;
    refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    f.clock.advance(Duration::from_secs(400));

    let from_cache = refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    assert_eq!(
        (
            &from_cache.source,
            &from_cache.warnings,
            slugs_and_names(&from_cache)
        ),
        (
            &CatalogSource::Cache {
                fetched_at: START.parse().expect("timestamp"),
                freshness: CacheFreshness::Stale {
                    age: Duration::from_secs(400)
                }
            },
            &vec![
                RefreshWarning::FetchFailed(
                    "server answered HTTP 500: catalog service down".to_string()
                ),
                RefreshWarning::StaleCacheUsed {
                    age: Duration::from_secs(400)
                },
            ],
            expected_merged()
        )
    );

    std::fs::remove_file(&f.options.cache_path).expect("remove cache");
    let bundled = refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    assert_eq!(
        (&bundled.source, &bundled.warnings, &bundled.catalog),
        (
            &CatalogSource::Bundled,
            &vec![
                RefreshWarning::FetchFailed(
                    "server answered HTTP 500: catalog service down".to_string()
                ),
                RefreshWarning::BundledFallback,
            ],
            &f.options.bundled
        )
    );
}

#[tokio::test]
async fn offline_and_keyless_refreshes_never_ask_the_endpoint() {
    let f = fixture().await;
    let offline = refresh_models(Some(&f.client), &f.options, RefreshStrategy::Offline).await;
    let keyless = refresh_models(None, &f.options, RefreshStrategy::Online).await;
    assert_eq!(
        (
            (&offline.source, &offline.warnings),
            (&keyless.source, &keyless.warnings),
            requests(&f.server).await
        ),
        (
            (
                &CatalogSource::Bundled,
                &vec![RefreshWarning::BundledFallback]
            ),
            (
                &CatalogSource::Bundled,
                &vec![RefreshWarning::NoClient, RefreshWarning::BundledFallback]
            ),
            0
        )
    );
}

#[tokio::test]
async fn a_cache_for_another_client_version_is_not_used() {
    let f = fixture().await;
    ModelsCache {
        fetched_at: START.parse().expect("timestamp"),
        etag: Some("\"old\"".to_string()),
        client_version: Some("0.0.9".to_string()),
        cache_key: None,
        models: remote_models(),
    }
    .save(&f.options.cache_path)
    .expect("save");
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .mount(&f.server)
        .await;

    let refreshed = refresh_models(
        Some(&f.client),
        &f.options,
        RefreshStrategy::OnlineIfUncached,
    )
    .await;

    let received = f.server.received_requests().await.expect("recording on");
    assert_eq!(
        (
            &refreshed.source,
            received.len(),
            received[0].headers.get("if-none-match").is_none()
        ),
        (
            &CatalogSource::Network {
                etag: Some("\"etag-1\"".to_string())
            },
            1,
            true
        )
    );
}

#[tokio::test]
async fn models_etag_from_a_response_renews_or_refreshes() {
    let f = fixture().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(remote_models(), "\"etag-1\""))
        .up_to_n_times(1)
        .mount(&f.server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(models_answer(Vec::new(), "\"etag-2\""))
        .mount(&f.server)
        .await;
    refresh_models(Some(&f.client), &f.options, RefreshStrategy::Online).await;
    f.clock.advance(Duration::from_secs(1000));

    let same = refresh_models_if_new_etag(Some(&f.client), &f.options, "\"etag-1\"").await;
    let renewed_at = ModelsCache::load(&f.options.cache_path)
        .expect("readable")
        .expect("present")
        .fetched_at;
    let requests_after_same = requests(&f.server).await;
    let changed = refresh_models_if_new_etag(Some(&f.client), &f.options, "\"etag-2\"").await;

    assert_eq!(
        (
            &same.source,
            renewed_at,
            requests_after_same,
            &changed.source,
            requests(&f.server).await
        ),
        (
            &CatalogSource::CacheConfirmed {
                etag: Some("\"etag-1\"".to_string())
            },
            f.clock.now(),
            1,
            &CatalogSource::Network {
                etag: Some("\"etag-2\"".to_string())
            },
            2
        )
    );
}

/// The error of one `GET /models` against `base_url` with short waits, and how long it took.
async fn models_failure(base_url: &str, wait: Duration, total: Duration) -> (String, Duration) {
    let mut config = test_config(base_url, Arc::new(RecordingSleeper::default()));
    config.models_request_timeout = wait;
    config.models_total_timeout = total;
    let client = ResponsesClient::new(config).expect("client");
    let started = std::time::Instant::now();
    let error = client
        .fetch_models(CLIENT_VERSION, None)
        .await
        .expect_err("the fetch times out");
    (error.to_string(), started.elapsed())
}

const MODELS_HEAD: &str = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                           content-length: 100000\r\nconnection: close\r\n\r\n";

#[tokio::test]
async fn a_models_timeout_names_the_wait_that_ran_out() {
    let never_answers = scripted_server(vec![Step::Sleep(Duration::from_secs(10))]);
    let no_body = scripted_server(vec![
        Step::Write(MODELS_HEAD.to_string()),
        Step::Sleep(Duration::from_secs(10)),
    ]);
    let stalls = scripted_server(vec![
        Step::Write(format!("{MODELS_HEAD}{{\"models\": [")),
        Step::Sleep(Duration::from_secs(10)),
    ]);
    let wait = Duration::from_millis(300);
    let total = Duration::from_secs(5);
    let mut results = Vec::new();
    for base_url in [&never_answers, &no_body, &stalls] {
        let (message, took) = models_failure(base_url, wait, total).await;
        assert!(
            took < Duration::from_secs(4),
            "the timeout fired late: {took:?}"
        );
        results.push(message);
    }
    assert_eq!(
        results,
        vec![
            format!("no response headers from {never_answers}/models within 0.3 s"),
            format!("{no_body}/models sent response headers but no body within 0.3 s"),
            format!(
                "{stalls}/models stopped sending after 12 bytes of the body: no data for 0.3 s"
            ),
        ]
    );
}

#[tokio::test]
async fn a_models_body_that_keeps_arriving_is_cut_at_the_total_limit_not_called_idle() {
    let mut steps = vec![Step::Write(MODELS_HEAD.to_string())];
    for _ in 0..100 {
        steps.push(Step::Write(" ".to_string()));
        steps.push(Step::Sleep(Duration::from_millis(50)));
    }
    let base_url = scripted_server(steps);
    let (message, took) = models_failure(
        &base_url,
        Duration::from_millis(400),
        Duration::from_millis(600),
    )
    .await;
    assert!(
        took < Duration::from_secs(3),
        "the timeout fired late: {took:?}"
    );
    let prefix = format!("the body from {base_url}/models was still arriving after 0.6 s (");
    let received: u64 = message
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(" bytes so far)"))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("unexpected message: {message}"));
    assert!((1..100).contains(&received), "{message}");
}
