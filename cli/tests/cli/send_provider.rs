//! `codex-context send` reaching the provider config.toml names (`model_provider` and
//! `[model_providers.ID]`), with the headers the release sends, as a process against a loopback
//! server; `--base-url` and `--api-key-env` beat the configuration.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::send_server::Reply;
use crate::send_server::TestServer;
use crate::send_server::answer_events;
use crate::send_server::sse_body;
use crate::support::PINS;
use crate::support::Run;
use crate::support::arg;
use crate::support::binary;
use crate::support::output;

const SECRET_KEY: &str = "sk-test-SECRET-provider-0123456789";
const OTHER_KEY: &str = "sk-test-OTHER-flag-9876543210";

fn answering_server() -> TestServer {
    TestServer::start(|_, _| Reply::EventStream(sse_body(&answer_events(&["Done."]))))
}

/// `[model_providers.corp]` pointing at `base_url`, plus `extra` top-level lines.
fn write_config(home: &Path, base_url: &str, provider_extra: &str, extra: &str) {
    std::fs::create_dir_all(home).expect("mkdir home");
    std::fs::write(
        home.join("config.toml"),
        format!(
            "model_provider = \"corp\"\ncheck_for_update_on_startup = false\n{extra}\n\
             [analytics]\nenabled = false\n\n[history]\npersistence = \"none\"\n\n\
             [model_providers.corp]\nname = \"Corp\"\nbase_url = \"{base_url}\"\n\
             wire_api = \"responses\"\n{provider_extra}\n\n\
             [projects.\"/somewhere/repo\"]\ntrust_level = \"trusted\"\n"
        ),
    )
    .expect("write config.toml");
}

/// `send --message hi` in a fresh project with `home` as CODEX_HOME, `env` set, `flags` added.
fn send(dir: &Path, env: &[(&str, &str)], flags: &[&str]) -> Run {
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).expect("mkdir project");
    let home = dir.join("home");
    let mut command = binary(&dir.join("user"));
    command
        .args([
            "send",
            "--codex-home",
            arg(&home),
            "--cwd",
            arg(&project),
            "--message",
            "hi",
        ])
        .args(PINS)
        .args(flags)
        .env("CODEX_HOME", &home);
    for (name, value) in env {
        command.env(name, value);
    }
    output(&mut command, b"")
}

/// The request's headers by name, without the transport's own, the key replaced by a marker.
fn headers(request: &crate::send_server::RecordedRequest) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = request
        .headers
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "host" | "content-length" | "connection"))
        .map(|(name, value)| {
            let value = value
                .replace(SECRET_KEY, "[key]")
                .replace(OTHER_KEY, "[other key]");
            (name.clone(), value)
        })
        .collect();
    headers.sort();
    headers
}

#[test]
fn send_takes_url_key_query_and_headers_from_the_configured_provider() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = answering_server();
    write_config(
        &dir.path().join("home"),
        &server.base_url(),
        "env_key = \"CORP_KEY\"\nquery_params = { api-version = \"2025-04-01\" }\n\
         http_headers = { x-team = \"core\" }\n\
         env_http_headers = { x-tenant = \"CORP_TENANT\", x-absent = \"CORP_UNSET\" }",
        "model_auto_compact_token_limit = 2000",
    );
    let run = send(
        dir.path(),
        &[("CORP_KEY", SECRET_KEY), ("CORP_TENANT", "tenant-1")],
        &[],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "Done.\n"),
        "{}",
        run.stderr
    );
    // No config key of the file is unknown, and the key is printed nowhere.
    assert!(!run.stderr.contains("unknown config key"), "{}", run.stderr);
    assert!(!run.stderr.contains(SECRET_KEY));

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("POST", "/v1/responses?api-version=2025-04-01")
    );
    let body = request.json();
    let thread_id = body["prompt_cache_key"]
        .as_str()
        .expect("cache key")
        .to_string();
    let metadata = body["client_metadata"]["x-codex-turn-metadata"]
        .as_str()
        .expect("turn metadata in the body")
        .to_string();
    let user_agent = request
        .header("user-agent")
        .expect("user-agent")
        .to_string();
    assert!(
        user_agent.starts_with(&format!("codex_exec/{} (", env!("CARGO_PKG_VERSION")))
            && user_agent.ends_with(&format!("(codex_exec; {})", env!("CARGO_PKG_VERSION"))),
        "{user_agent}"
    );
    let mut expected: Vec<(String, String)> = [
        ("accept", "text/event-stream".to_string()),
        ("authorization", "Bearer [key]".to_string()),
        ("content-type", "application/json".to_string()),
        ("originator", "codex_exec".to_string()),
        ("session-id", thread_id.clone()),
        ("thread-id", thread_id.clone()),
        ("user-agent", user_agent),
        ("x-client-request-id", thread_id.clone()),
        ("x-codex-beta-features", "remote_compaction_v2".to_string()),
        ("x-codex-turn-metadata", metadata),
        ("x-codex-window-id", format!("{thread_id}:0")),
        ("x-openai-internal-codex-responses-lite", "true".to_string()),
        ("x-team", "core".to_string()),
        ("x-tenant", "tenant-1".to_string()),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect();
    expected.sort();
    assert_eq!(headers(request), expected);
}

#[test]
fn flags_beat_the_configured_provider_url_and_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let configured = answering_server();
    let flagged = answering_server();
    write_config(
        &dir.path().join("home"),
        &configured.base_url(),
        "env_key = \"CORP_KEY\"",
        "",
    );
    let flagged_url = flagged.base_url();
    let run = send(
        dir.path(),
        &[("CORP_KEY", SECRET_KEY), ("OTHER_KEY", OTHER_KEY)],
        &["--base-url", &flagged_url, "--api-key-env", "OTHER_KEY"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(configured.requests().len(), 0);
    let requests = flagged.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].target, "/v1/responses");
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {OTHER_KEY}").as_str())
    );
}

#[test]
fn a_provider_without_env_key_gets_no_authorization_and_beta_features_follow_the_config() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = answering_server();
    write_config(
        &dir.path().join("home"),
        &server.base_url(),
        "",
        "[features]\nremote_compaction_v2 = false\nnetwork_proxy = true",
    );
    let run = send(dir.path(), &[("OPENAI_API_KEY", SECRET_KEY)], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("authorization"), None);
    assert_eq!(
        requests[0].header("x-codex-beta-features"),
        Some("network_proxy")
    );
}

#[test]
fn send_names_a_provider_config_toml_does_not_define() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("mkdir home");
    std::fs::write(home.join("config.toml"), "model_provider = \"nowhere\"\n")
        .expect("write config.toml");
    let run = send(dir.path(), &[("OPENAI_API_KEY", SECRET_KEY)], &[]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("key `model_provider`: no provider `nowhere`"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_built_in_openai_provider_sends_its_version_and_organization_headers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = answering_server();
    let base_url = server.base_url();
    let run = send(
        dir.path(),
        &[
            ("OPENAI_API_KEY", SECRET_KEY),
            ("OPENAI_ORGANIZATION", "org-1"),
        ],
        &["--base-url", &base_url],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        (
            requests[0].header("authorization"),
            requests[0].header("version"),
            requests[0].header("openai-organization"),
        ),
        (
            Some(format!("Bearer {SECRET_KEY}").as_str()),
            Some(env!("CARGO_PKG_VERSION")),
            Some("org-1"),
        )
    );
}
