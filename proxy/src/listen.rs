//! Listening and stopping: the acceptor serves each connection on a task of its own; a stop
//! closes the listener, lets every exchange under way finish within the drain time, and cuts
//! (and records as cut) those that do not.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::sync::oneshot;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::task::JoinSet;

use crate::ListenScope;
use crate::ProxyConfig;
use crate::ProxyError;
use crate::ProxyEvent;
use crate::record::Recorder;
use crate::server::handle;

/// A running proxy; [`RunningProxy::shutdown`] stops it.
#[derive(Debug)]
pub struct RunningProxy {
    address: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    acceptor: JoinHandle<Stopped>,
}

/// How a stop went: the exchanges under way when it began, and how many of them were cut
/// because they had not ended within the drain time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stopped {
    pub under_way: usize,
    pub cut: usize,
}

impl RunningProxy {
    /// The address it listens on (the port chosen when `:0` was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Stops accepting connections, closes idle ones, and waits up to the drain time
    /// (`ProxyConfig::drain_timeout`) for the exchanges under way; those still running then
    /// are cut, for their client and in the recording ("the proxy stopped before the response
    /// ended"). When it returns, every exchange has its `end` line and has been sent to the
    /// live view, whose channel the proxy no longer holds.
    pub async fn shutdown(mut self) -> Stopped {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.acceptor).await.unwrap_or_default()
    }
}

/// What every connection shares.
pub(crate) struct Shared {
    pub(crate) config: ProxyConfig,
    pub(crate) recorder: Recorder,
    pub(crate) client: reqwest::Client,
    pub(crate) events: Option<mpsc::Sender<ProxyEvent>>,
}

/// Binds `config.listen` (refused when it is not loopback and `config.scope` does not allow
/// it), creates the recording folder and serves until shut down. `events` receives one
/// [`ProxyEvent`] per finished exchange; when its receiver lags, events are dropped, never the
/// exchange. The channel closes when the proxy has stopped.
pub async fn start(
    config: ProxyConfig,
    events: Option<mpsc::Sender<ProxyEvent>>,
) -> Result<RunningProxy, ProxyError> {
    match config.scope {
        ListenScope::LoopbackOnly if !config.listen.ip().is_loopback() => {
            return Err(ProxyError::RemoteListen {
                address: config.listen,
            });
        }
        ListenScope::LoopbackOnly | ListenScope::AllowRemote => {}
    }
    let recorder = Recorder::create(&config.out)?;
    // Bytes are relayed as they come: no decompression, no redirects, no system proxy.
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_zstd()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(config.connect_timeout)
        .build()?;
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|source| ProxyError::Bind {
            address: config.listen,
            source,
        })?;
    let address = listener.local_addr().map_err(|source| ProxyError::Bind {
        address: config.listen,
        source,
    })?;
    let shared = Arc::new(Shared {
        config,
        recorder,
        client,
        events,
    });
    let (stop, stopped) = oneshot::channel();
    let acceptor = tokio::spawn(accept(listener, shared, stopped));
    Ok(RunningProxy {
        address,
        stop: Some(stop),
        acceptor,
    })
}

/// Accepts until `stopped`, then drains.
async fn accept(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut stopped: oneshot::Receiver<()>,
) -> Stopped {
    let (closing, closing_seen) = watch::channel(false);
    let mut connections = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            _ = &mut stopped => break,
            accepted = listener.accept() => accepted,
            // Finished connections are reaped as they end, so the set stays small.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        match accepted {
            Ok((stream, _)) => {
                connections.spawn(serve(stream, Arc::clone(&shared), closing_seen.clone()));
            }
            Err(error) => {
                tracing::warn!("A connection could not be accepted: {error}.");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    drop(listener);
    let recorder = &shared.recorder;
    let under_way = recorder.under_way();
    let _ = closing.send(true);
    let drained = tokio::time::timeout(shared.config.drain_timeout, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    let cut = match drained {
        Ok(()) => 0,
        Err(_) => {
            let cut = recorder.under_way();
            // Dropping an exchange's tasks ends its record with the reason the flag gives.
            recorder.stopping();
            connections.abort_all();
            while connections.join_next().await.is_some() {}
            cut
        }
    };
    Stopped { under_way, cut }
}

/// Serves one connection until it ends, or until the proxy closes and its exchange under way
/// (if any) has ended.
async fn serve(stream: TcpStream, shared: Arc<Shared>, mut closing: watch::Receiver<bool>) {
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { Ok::<_, Infallible>(handle(&shared, request).await) }
    });
    let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = async { drop(closing.wait_for(|closing| *closing).await) } => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        tracing::debug!("A client connection ended with an error: {error}.");
    }
}
