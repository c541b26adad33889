//! Reaching a Responses API provider (`--base-url`, `--api-key-env`), shared by the commands
//! that talk to one (`send`, `models --refresh`).

use anyhow::Context;
use codex_core::client::ApiKey;
use codex_core::client::ClientConfig;
use codex_core::client::OPENAI_API_KEY_ENV;
use codex_core::client::OPENAI_BASE_URL_ENV;
use codex_core::client::ResolvedBaseUrl;
use codex_core::client::ResponsesClient;
use codex_core::client::resolve_base_url;

#[derive(Debug, Clone, clap::Args)]
pub struct EndpointArgs {
    /// Provider base URL; `/responses` and `/models` are appended (default: config
    /// `model_provider.base_url`, else `$OPENAI_BASE_URL`, else the OpenAI API).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Environment variable holding the API key.
    #[arg(long, value_name = "NAME", default_value = OPENAI_API_KEY_ENV)]
    pub api_key_env: String,
}

impl EndpointArgs {
    /// `--base-url`, else the configured provider's URL, else `$OPENAI_BASE_URL`, else the
    /// OpenAI API.
    pub fn base_url(&self, configured: Option<&str>) -> ResolvedBaseUrl {
        let environment = std::env::var(OPENAI_BASE_URL_ENV).ok();
        resolve_base_url(self.base_url.as_deref(), configured, environment.as_deref())
    }

    /// The key from `--api-key-env`; an unset or empty variable is an error naming it.
    pub fn api_key(&self) -> anyhow::Result<ApiKey> {
        Ok(ApiKey::from_env(&self.api_key_env)?)
    }

    /// A client for the resolved base URL, authenticated with `key`.
    pub fn client(&self, configured: Option<&str>, key: ApiKey) -> anyhow::Result<ResponsesClient> {
        let base_url = self.base_url(configured);
        Ok(ResponsesClient::new(ClientConfig::new(base_url.url, key))?)
    }
}

/// A single-threaded runtime: each command makes one network exchange at a time.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}
