//! `codex-context models --refresh` against a local `/models` endpoint.

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::send_server::Reply;
use crate::send_server::TestServer;
use crate::support::Run;
use crate::support::arg;
use crate::support::binary;
use crate::support::catalog_entry;
use crate::support::output;

const SECRET_KEY: &str = "sk-test-SECRET-models-0123456789";
const ETAG: &str = "\"catalog-v1\"";

fn run(home: &Path, extra: &[&str], key: Option<&str>) -> Run {
    let mut command = binary(home);
    command
        .arg("models")
        .args(["--json", "--codex-home", arg(home)])
        .args(extra);
    if let Some(key) = key {
        command.env("OPENAI_API_KEY", key);
    }
    output(&mut command, b"")
}

fn remote_catalog() -> String {
    json!({"models": [catalog_entry(
        "remote-model",
        1,
        json!({"context_window": 64000, "base_instructions": "Answer briefly."}),
    )]})
    .to_string()
}

/// Serves the catalog with an ETag, and `304` to a request that sends that ETag back.
fn catalog_server() -> TestServer {
    TestServer::start(|request, _| {
        if request.header("if-none-match") == Some(ETAG) {
            Reply::NotModified
        } else {
            Reply::Json {
                etag: Some(ETAG.to_string()),
                body: remote_catalog(),
            }
        }
    })
}

/// A base URL nobody listens on.
fn unreachable_base_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    format!("http://{address}/v1")
}

fn slugs(run: &Run) -> Vec<String> {
    let rows: Vec<Value> = serde_json::from_str(&run.stdout).expect("models --json prints JSON");
    rows.iter()
        .map(|row| row["slug"].as_str().expect("slug").to_string())
        .collect()
}

fn bundled_slugs(home: &Path) -> Vec<String> {
    let run = run(home, &[], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    slugs(&run)
}

fn cache_path(home: &Path) -> PathBuf {
    home.join("models_cache.json")
}

#[test]
fn refresh_fetches_caches_and_revalidates_with_the_etag() {
    let home = tempfile::tempdir().expect("tempdir");
    let home = home.path();
    let server = catalog_server();
    let base_url = server.base_url();

    let fetched = run(
        home,
        &["--refresh", "--base-url", &base_url],
        Some(SECRET_KEY),
    );
    let cache = cache_path(home);
    assert_eq!(
        (fetched.code, fetched.stderr.clone()),
        (
            Some(0),
            format!(
                "models: fetched from {base_url}/models (ETag {ETAG}), cached in {}\n",
                cache.display()
            )
        )
    );
    let mut expected_slugs = bundled_slugs(home);
    expected_slugs.insert(0, "remote-model".to_string());
    let mut listed = slugs(&fetched);
    listed.sort();
    expected_slugs.sort();
    assert_eq!(listed, expected_slugs);

    let requests = server.requests();
    let first = &requests[0];
    assert_eq!(
        (
            first.method.as_str(),
            first.target.as_str(),
            first.header("authorization"),
            first.header("if-none-match"),
        ),
        (
            "GET",
            format!("/v1/models?client_version={}", env!("CARGO_PKG_VERSION")).as_str(),
            Some(format!("Bearer {SECRET_KEY}").as_str()),
            None,
        )
    );

    let cached: Value =
        serde_json::from_str(&std::fs::read_to_string(&cache).expect("cache file written"))
            .expect("cache is JSON");
    let fetched_at = cached["fetched_at"].as_str().expect("fetched_at");
    assert!(
        fetched_at.parse::<jiff::Timestamp>().is_ok(),
        "{fetched_at}"
    );
    assert_eq!(
        (
            &cached["etag"],
            &cached["client_version"],
            &cached["cache_key"],
            &cached["models"][0]["slug"],
        ),
        (
            &json!(ETAG),
            &json!(env!("CARGO_PKG_VERSION")),
            &json!({"provider_id": "openai"}),
            &json!("remote-model"),
        )
    );

    // The second refresh sends the ETag back; the server's 304 confirms the cache.
    let confirmed = run(
        home,
        &["--refresh", "--base-url", &base_url],
        Some(SECRET_KEY),
    );
    assert_eq!(
        (
            confirmed.code,
            confirmed.stdout.as_str(),
            confirmed.stderr.clone()
        ),
        (
            Some(0),
            fetched.stdout.as_str(),
            format!("models: {} is current (ETag {ETAG})\n", cache.display())
        )
    );
    assert_eq!(server.requests()[1].header("if-none-match"), Some(ETAG));

    let cache_text = std::fs::read_to_string(&cache).expect("cache file");
    for text in [
        &fetched.stdout,
        &fetched.stderr,
        &confirmed.stderr,
        &cache_text,
    ] {
        assert!(!text.contains(SECRET_KEY));
    }
}

#[test]
fn failing_refresh_falls_back_to_the_cache_then_the_bundled_catalog() {
    let home = tempfile::tempdir().expect("tempdir");
    let home = home.path();
    let offline = unreachable_base_url();

    // No cache yet: the bundled catalog, with warnings.
    let bundled = run(
        home,
        &["--refresh", "--base-url", &offline],
        Some(SECRET_KEY),
    );
    let warnings: Vec<&str> = bundled.stderr.lines().collect();
    assert_eq!(
        (bundled.code, slugs(&bundled), warnings.len(), warnings[1]),
        (
            Some(0),
            bundled_slugs(home),
            2,
            "codex-context: warning: using the bundled model catalog"
        )
    );
    assert!(
        warnings[0].starts_with("codex-context: warning: models refresh failed: transport error: "),
        "{}",
        warnings[0]
    );

    // With a cache from an earlier refresh: the cached models, with a warning.
    let server = catalog_server();
    let fetched = run(
        home,
        &["--refresh", "--base-url", &server.base_url()],
        Some(SECRET_KEY),
    );
    assert_eq!(fetched.code, Some(0), "{}", fetched.stderr);
    let from_cache = run(
        home,
        &["--refresh", "--base-url", &offline],
        Some(SECRET_KEY),
    );
    let lines: Vec<&str> = from_cache.stderr.lines().collect();
    let cache = cache_path(home);
    assert_eq!(
        (from_cache.code, from_cache.stdout.as_str(), lines.len()),
        (Some(0), fetched.stdout.as_str(), 2)
    );
    assert!(
        lines[0].starts_with("codex-context: warning: models refresh failed: transport error: "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!("models: from {}, fetched at ", cache.display())),
        "{}",
        lines[1]
    );
}

#[test]
fn refresh_without_a_key_does_not_ask_the_endpoint() {
    let home = tempfile::tempdir().expect("tempdir");
    let home = home.path();
    let server = catalog_server();
    let run = run(home, &["--refresh", "--base-url", &server.base_url()], None);
    assert_eq!(
        (run.code, slugs(&run), run.stderr.as_str()),
        (
            Some(0),
            bundled_slugs(home),
            concat!(
                "codex-context: warning: no API key: environment variable OPENAI_API_KEY is unset or empty; ",
                "the models endpoint was not asked\n",
                "codex-context: warning: using the bundled model catalog\n",
            )
        )
    );
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn refresh_uses_the_configured_provider() {
    let home = tempfile::tempdir().expect("tempdir");
    let home = home.path();
    let server = catalog_server();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "model_provider = {{ id = \"local\", base_url = \"{}\" }}\n",
            server.base_url()
        ),
    )
    .expect("write config.toml");
    let run = run(home, &["--refresh"], Some(SECRET_KEY));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(server.requests().len(), 1);
    let cached: Value = serde_json::from_str(
        &std::fs::read_to_string(cache_path(home)).expect("cache file written"),
    )
    .expect("cache is JSON");
    assert_eq!(cached["cache_key"], json!({"provider_id": "local"}));
}
