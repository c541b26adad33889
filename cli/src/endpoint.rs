//! Reaching a Responses API provider (`--base-url`, `--api-key-env`), shared by the commands
//! that talk to one (`send`, `models --refresh`, `session run --live`).

use anyhow::Context;
use codex_client::ApiKey;
use codex_client::ClientConfig;
use codex_client::OPENAI_API_KEY_ENV;
use codex_client::OPENAI_BASE_URL_ENV;
use codex_client::RequestBody;
use codex_client::RequestHeaders;
use codex_client::ResolvedBaseUrl;
use codex_client::ResponsesClient;
use codex_client::ResponsesLite;
use codex_client::StreamProgress;
use codex_client::resolve_base_url;
use codex_config::ModelProvider;
use codex_config::ProviderKey;
use codex_core::ResponsesRequest;
use codex_protocol::ResponseItem;
use codex_script::AssistantReply;
use codex_script::ModelResponse;
use codex_script::ScriptError;
use codex_script::ScriptedReplies;
use codex_script::TurnResponder;
use codex_script::TurnScript;
use tracing::warn;

#[derive(Debug, Clone, clap::Args)]
pub struct EndpointArgs {
    /// Provider base URL; `/responses` and `/models` are appended (default: config
    /// `model_provider.base_url`, else `$OPENAI_BASE_URL`, else the OpenAI API).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Environment variable holding the API key (default: the configured provider's `env_key`,
    /// else `OPENAI_API_KEY` for the OpenAI provider; a provider without `env_key` gets none).
    #[arg(long, value_name = "NAME")]
    pub api_key_env: Option<String>,
}

impl EndpointArgs {
    /// `--base-url`, else the configured provider's URL, else `$OPENAI_BASE_URL`, else the
    /// OpenAI API.
    pub fn base_url(&self, configured: Option<&str>) -> ResolvedBaseUrl {
        let environment = std::env::var(OPENAI_BASE_URL_ENV).ok();
        resolve_base_url(self.base_url.as_deref(), configured, environment.as_deref())
    }

    /// The key from `--api-key-env`, else where the provider takes it from (its `env_key`,
    /// `OPENAI_API_KEY`, or no key at all); an unset or empty variable is an error naming it.
    pub fn api_key(&self, provider: Option<&ModelProvider>) -> anyhow::Result<ApiKey> {
        let env_var = match (&self.api_key_env, provider.map(|provider| &provider.key)) {
            (Some(env_var), _) => env_var.as_str(),
            (None, Some(ProviderKey::Env(env_var))) => env_var.as_str(),
            (None, Some(ProviderKey::None)) => return Ok(ApiKey::absent()),
            (None, Some(ProviderKey::OpenAi) | None) => OPENAI_API_KEY_ENV,
        };
        Ok(ApiKey::from_env(env_var)?)
    }

    /// An error naming the first endpoint flag given to a run that will not reach the endpoint
    /// because `switch` (`--live`, `--refresh`) is off: such a flag would be silently ignored.
    pub fn reject_unused(&self, switch: &str) -> anyhow::Result<()> {
        let given = [
            ("--base-url", self.base_url.is_some()),
            ("--api-key-env", self.api_key_env.is_some()),
        ];
        match given.into_iter().find(|(_, given)| *given) {
            Some((flag, _)) => {
                anyhow::bail!("{flag} needs {switch}: without it no endpoint is asked")
            }
            None => Ok(()),
        }
    }

    /// A client for the resolved base URL, authenticated with `key`, with the configured
    /// provider's query parameters, headers (an `env_http_headers` entry whose variable is unset
    /// or blank is left out), retries and timeouts (`None`: the defaults).
    pub fn client(
        &self,
        provider: Option<&ModelProvider>,
        key: ApiKey,
    ) -> anyhow::Result<ResponsesClient> {
        let base_url = self.base_url(provider.and_then(|provider| provider.base_url.as_deref()));
        let mut config = ClientConfig::new(base_url.url, key);
        if let Some(provider) = provider {
            config = config.with_network(&provider.network);
            config.query_params = provider.query_params.clone();
            config.provider_headers = provider.http_headers.clone();
            for (name, env_var) in &provider.env_http_headers {
                if let Ok(value) = std::env::var(env_var)
                    && !value.trim().is_empty()
                {
                    config.provider_headers.push((name.clone(), value));
                }
            }
        }
        Ok(ResponsesClient::new(config)?)
    }
}

/// A single-threaded runtime: each command makes one network exchange at a time.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Answers the turns of a script that give no `assistant` reply by sending their request to the
/// endpoint (`session run --live`); scripted replies are played as written. The body sent is the
/// request as `session run` prints it (compact JSON). Output items are returned as the endpoint
/// produced them, with the usage it reported (the session records the thread's running total);
/// tool calls among them are recorded, not run.
pub struct LiveReplies {
    client: ResponsesClient,
    runtime: tokio::runtime::Runtime,
}

impl LiveReplies {
    pub fn new(client: ResponsesClient) -> anyhow::Result<Self> {
        Ok(Self {
            client,
            runtime: runtime()?,
        })
    }
}

impl TurnResponder for LiveReplies {
    fn respond(
        &mut self,
        turn: &TurnScript,
        request: &ResponsesRequest,
    ) -> Result<ModelResponse, ScriptError> {
        match &turn.assistant {
            AssistantReply::Scripted(_) => ScriptedReplies.respond(turn, request),
            AssistantReply::Absent => {
                let body = RequestBody::to_json(request)?;
                // A Responses Lite body carries its tools as the leading `additional_tools` item.
                let responses_lite = if matches!(
                    request.input.first(),
                    Some(ResponseItem::AdditionalTools { .. })
                ) {
                    ResponsesLite::On
                } else {
                    ResponsesLite::Off
                };
                let metadata = request.client_metadata.as_ref();
                let headers = RequestHeaders {
                    session_id: request.prompt_cache_key.clone(),
                    thread_id: request.prompt_cache_key.clone(),
                    window_id: metadata.map(|metadata| metadata.window_id.clone()),
                    turn_metadata: metadata.map(|metadata| metadata.turn_metadata.clone()),
                    beta_features: None,
                    responses_lite,
                    accept_encoding: None,
                    extra: Vec::new(),
                };
                let completed = self.runtime.block_on(self.client.send(
                    &body,
                    &headers,
                    |progress| {
                        if let StreamProgress::Retrying {
                            retry,
                            max_retries,
                            delay,
                            error,
                        } = progress
                        {
                            warn!(
                                "{error}; resending the request in {:.1} s (retry {retry} of {max_retries})",
                                delay.as_secs_f64()
                            );
                        }
                    },
                ))?;
                Ok(ModelResponse {
                    items: completed.items,
                    usage: completed.token_usage,
                    response_id: Some(completed.response_id),
                })
            }
        }
    }
}
