//! The known-keys table: every key of upstream's config schema is valid, a config.toml the
//! real-Codex harness writes (and the release itself extends) loads without a warning, and the
//! provider it names is resolved.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::Feature;
use codex_config::KeyStatus;
use codex_config::KeyUse;
use codex_config::ModelProvider;
use codex_config::ProviderKey;
use codex_config::config_key_status;
use codex_config::known_config_keys;
use config_support::Fixture;
use pretty_assertions::assert_eq;

/// Every key path of codex-rs/core/config.schema.json at the reference.
const UPSTREAM_KEYS: &str = include_str!("fixtures/upstream_config_keys.txt");
const TABLE: &str = include_str!("../src/known_keys.txt");

/// A config.toml as `cargo xtask real-codex` writes it for a scenario with
/// `model_auto_compact_token_limit`, after 0.149.1 appended the project it trusted.
const HARNESS_CONFIG: &str = r#"approval_policy = "on-request"
check_for_update_on_startup = false
model = "gpt-5.5"
model_auto_compact_token_limit = 2000
model_provider = "mock"
sandbox_mode = "workspace-write"

[analytics]
enabled = false

[features]
plugins = false

[feedback]
enabled = false

[history]
persistence = "none"

[model_providers.mock]
base_url = "http://127.0.0.1:42633/v1"
env_key = "MOCK_API_KEY"
name = "mock"
wire_api = "responses"

[projects."/work/runs/0.149.1/approval_on_request_workspace_write/repo"]
trust_level = "trusted"
"#;

fn upstream_paths() -> impl Iterator<Item = Vec<&'static str>> {
    UPSTREAM_KEYS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            line.split('.')
                .map(|segment| if segment == "*" { "some-name" } else { segment })
                .collect()
        })
}

#[test]
fn no_key_of_upstreams_schema_is_unknown() {
    let unknown: Vec<String> = upstream_paths()
        .filter(|path| config_key_status(path) == KeyStatus::Unknown)
        .map(|path| path.join("."))
        .collect();
    assert_eq!(unknown, Vec::<String>::new());
    assert!(upstream_paths().count() > 900);
}

#[test]
fn every_upstream_key_is_read_or_ignored_never_ours() {
    let ours: Vec<String> = upstream_paths()
        .filter(|path| config_key_status(path) == KeyStatus::Listed(KeyUse::Ours))
        .map(|path| path.join("."))
        .collect();
    assert_eq!(ours, Vec::<String>::new());
}

#[test]
fn every_line_of_the_table_is_a_row() {
    let lines = TABLE
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .count();
    assert_eq!(known_config_keys().len(), lines);
}

#[test]
fn intermediate_tables_are_known_and_other_names_are_not() {
    assert_eq!(config_key_status(&["projects", "/repo"]), KeyStatus::Table);
    assert_eq!(
        config_key_status(&["projects", "/repo", "trust_level"]),
        KeyStatus::Listed(KeyUse::Read)
    );
    assert_eq!(
        config_key_status(&["model_providers", "mock", "base_url"]),
        KeyStatus::Listed(KeyUse::Read)
    );
    assert_eq!(
        config_key_status(&["seed"]),
        KeyStatus::Listed(KeyUse::Ours)
    );
    assert_eq!(config_key_status(&["colour"]), KeyStatus::Unknown);
    assert_eq!(
        config_key_status(&["history", "colour"]),
        KeyStatus::Unknown
    );
}

#[test]
fn the_harness_config_loads_without_warnings_and_names_its_provider() {
    let fixture = Fixture::new(Some(HARNESS_CONFIG));
    let config = fixture.load().unwrap();
    assert_eq!(config.warnings, Vec::new());
    assert_eq!(
        config.model_provider,
        ModelProvider {
            id: "mock".to_string(),
            name: Some("mock".to_string()),
            base_url: Some("http://127.0.0.1:42633/v1".to_string()),
            key: ProviderKey::Env("MOCK_API_KEY".to_string()),
            ..ModelProvider::default()
        }
    );
}

#[test]
fn a_provider_takes_query_params_and_headers_and_c_overrides_merge_into_it() {
    let fixture = Fixture::new(Some(
        "model_provider = \"azure\"\n[model_providers.azure]\nbase_url = \"https://x.invalid/v1\"\n\
         query_params = { api-version = \"2025-04-01\" }\nhttp_headers = { x-team = \"core\" }\n\
         env_http_headers = { x-tenant = \"TENANT\" }\n",
    ));
    let config = fixture
        .load_with(
            &Default::default(),
            &["model_providers.azure.env_key=AZURE_KEY"],
        )
        .unwrap();
    assert_eq!(config.warnings, Vec::new());
    assert_eq!(
        config.model_provider,
        ModelProvider {
            id: "azure".to_string(),
            base_url: Some("https://x.invalid/v1".to_string()),
            key: ProviderKey::Env("AZURE_KEY".to_string()),
            query_params: vec![("api-version".to_string(), "2025-04-01".to_string())],
            http_headers: vec![("x-team".to_string(), "core".to_string())],
            env_http_headers: vec![("x-tenant".to_string(), "TENANT".to_string())],
            ..ModelProvider::default()
        }
    );
}

#[test]
fn a_configured_provider_without_env_key_sends_no_key_and_builtins_win() {
    let fixture = Fixture::new(Some(
        "model_provider = \"local\"\n[model_providers.local]\nbase_url = \"http://127.0.0.1:9/v1\"\n\
         [model_providers.openai]\nbase_url = \"http://ignored.invalid/v1\"\n",
    ));
    let config = fixture.load().unwrap();
    assert_eq!(config.model_provider.key, ProviderKey::None);
    let openai = fixture
        .load_with(&Default::default(), &["model_provider=openai"])
        .unwrap();
    assert_eq!(openai.model_provider.base_url, None);
    assert_eq!(openai.model_provider.key, ProviderKey::OpenAi);
}

#[test]
fn an_undefined_provider_is_an_error_naming_it() {
    let fixture = Fixture::new(Some("model_provider = \"nowhere\"\n"));
    let message = fixture.load().unwrap_err().to_string();
    assert!(
        message.contains("key `model_provider`: no provider `nowhere`"),
        "{message}"
    );
}

#[test]
fn the_chat_wire_api_is_refused() {
    let fixture = Fixture::new(Some(
        "[model_providers.old]\nbase_url = \"http://x\"\nwire_api = \"chat\"\n",
    ));
    let message = fixture.load().unwrap_err().to_string();
    assert!(
        message.contains("model_providers.old.wire_api"),
        "{message}"
    );
}

#[test]
fn upstream_shapes_of_shared_keys_load_without_errors_or_warnings() {
    let fixture = Fixture::new(Some(
        r#"model = "gpt-5.5"
notify = ["say", "done"]
realtime = { version = "v2", type = "conversational" }

[skills]
include_instructions = true
max_context_tokens = 4000

[skills.bundled]
enabled = false

[[skills.config]]
path = "/x/SKILL.md"
enabled = false

[features]
personality = true
shell_snapshot = false

[features.multi_agent_v2]
enabled = true
usage_hint_enabled = false

[features.code_mode]
enabled = false

[features.token_budget]
reminder_threshold_tokens = 1000

[profiles.fast]
model = "gpt-5.4"

[mcp_servers.docs]
command = "docs"
args = ["--stdio"]
env = { DOCS_TOKEN = "x" }
"#,
    ));
    let config = fixture.load().unwrap();
    assert_eq!(config.warnings, Vec::new());
    assert!(config.features.enabled(Feature::MultiAgentV2));
    // A feature table without `enabled` sets nothing: token_budget keeps its default.
    assert!(!config.features.enabled(Feature::TokenBudget));
    assert!(!config.realtime);
    assert_eq!(config.model.as_deref(), Some("gpt-5.5"));
    assert!(
        config
            .skills
            .is_some_and(|skills| skills.include_instructions)
    );
}
