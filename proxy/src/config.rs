//! What a proxy is started with.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::ProxyError;
use crate::SharedUiPages;

/// Who may connect to the listen address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListenScope {
    /// Only a loopback address may be listened on (the default).
    LoopbackOnly,
    /// Any address, as asked for with `--allow-remote`.
    AllowRemote,
}

/// The base URL requests are forwarded to: the request's path and query are appended to it
/// (`https://api.openai.com/v1` + `/responses`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    base: String,
}

impl Upstream {
    /// Checks that `url` is an `http://` or `https://` URL with a host; a trailing `/` is dropped.
    pub fn parse(url: &str) -> Result<Self, ProxyError> {
        let bad = || ProxyError::BadUpstream {
            url: url.to_string(),
        };
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"))
            .ok_or_else(bad)?;
        if rest.is_empty() || rest.starts_with('/') || url.contains(['?', '#', ' ']) {
            return Err(bad());
        }
        reqwest::Url::parse(url).map_err(|_| bad())?;
        Ok(Self {
            base: url.trim_end_matches('/').to_string(),
        })
    }

    /// The URL a request for `path_and_query` goes to.
    pub fn join(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.base)
    }

    /// The base URL as given, without a trailing `/`.
    pub fn as_str(&self) -> &str {
        &self.base
    }
}

/// Everything a proxy runs with.
#[derive(Debug, Clone)]
pub struct ProxyConfig {
    pub listen: SocketAddr,
    pub scope: ListenScope,
    pub upstream: Upstream,
    /// The recording folder (created when missing).
    pub out: PathBuf,
    /// How long connecting to the upstream may take.
    pub connect_timeout: Duration,
    /// How long the upstream may stay silent: before the response head, and between two
    /// chunks of the body.
    pub idle_timeout: Duration,
    /// How long a stop waits for the exchanges under way before it cuts them.
    pub drain_timeout: Duration,
    /// Pages answered under [`crate::UI_PREFIX`] instead of being forwarded (`--ui`).
    pub ui: Option<SharedUiPages>,
}

impl ProxyConfig {
    /// A loopback-only proxy with the default timeouts (10 s to connect, 300 s of silence, 10 s to drain at a stop) and no
    /// pages of its own.
    pub fn new(listen: SocketAddr, upstream: Upstream, out: PathBuf) -> Self {
        Self {
            listen,
            scope: ListenScope::LoopbackOnly,
            upstream,
            out,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(300),
            drain_timeout: Duration::from_secs(10),
            ui: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn upstream_urls_are_checked_and_joined() {
        let upstream = Upstream::parse("https://api.openai.com/v1/").unwrap();
        assert_eq!(
            upstream.join("/responses?x=1"),
            "https://api.openai.com/v1/responses?x=1"
        );
        for bad in [
            "ftp://x",
            "http://",
            "localhost:80",
            "http:///v1",
            "http://a b",
        ] {
            assert!(Upstream::parse(bad).is_err(), "{bad}");
        }
    }
}
