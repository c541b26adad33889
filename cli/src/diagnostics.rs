//! Where warnings go and how they read.
//!
//! By default only warnings and errors are shown, one sentence a line:
//! `codex-context: warning: <message>`, with any structured fields the message did not spell out
//! appended in parentheses, and never a colour code. `RUST_LOG` asks for more: then the standard
//! `tracing` format is used at the levels it names, coloured only when standard error is a
//! terminal and `NO_COLOR` is unset (<https://no-color.org>).

use std::fmt;
use std::io::IsTerminal;

use tracing::Event;
use tracing::Level;
use tracing::Subscriber;
use tracing::field::Field;
use tracing::field::Visit;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::fmt::FormatEvent;
use tracing_subscriber::fmt::FormatFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::registry::LookupSpan;

/// Prefix of every line the binary writes to standard error.
pub const PROGRAM: &str = "codex-context";

/// Installs the process-wide subscriber, reading `RUST_LOG` and `NO_COLOR`.
pub fn init() {
    let builder = tracing_subscriber::fmt().with_writer(std::io::stderr);
    match std::env::var("RUST_LOG")
        .ok()
        .and_then(|filter| EnvFilter::try_new(filter).ok())
    {
        Some(filter) => {
            let color = std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
                && std::io::stderr().is_terminal();
            builder
                .with_env_filter(filter)
                .with_ansi(color)
                .without_time()
                .with_target(false)
                .init();
        }
        None => builder
            .with_env_filter(EnvFilter::new("warn"))
            .with_ansi(false)
            .event_format(Sentences)
            .init(),
    }
}

/// `codex-context: warning: <message> (<field>: <value>, …)`.
struct Sentences;

impl<S, N> FormatEvent<S, N> for Sentences
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut line = Line::default();
        event.record(&mut line);
        writeln!(
            writer,
            "{PROGRAM}: {}: {}",
            level_word(*event.metadata().level()),
            line.sentence()
        )
    }
}

fn level_word(level: Level) -> &'static str {
    match level {
        Level::ERROR => "error",
        Level::WARN => "warning",
        Level::INFO => "note",
        Level::DEBUG | Level::TRACE => "debug",
    }
}

/// An event's message and the fields it carried besides.
#[derive(Default)]
struct Line {
    message: String,
    fields: Vec<(String, String)>,
}

impl Line {
    fn sentence(&self) -> String {
        let message = self.message.replace(['\r', '\n'], " ");
        if self.fields.is_empty() {
            return message;
        }
        let fields = self
            .fields
            .iter()
            .map(|(name, value)| format!("{}: {value}", name.replace('_', " ")))
            .collect::<Vec<_>>()
            .join(", ");
        format!("{message} ({fields})")
    }
}

impl Visit for Line {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_string(),
            name => self.fields.push((name.to_string(), value.to_string())),
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            name => self.fields.push((name.to_string(), format!("{value:?}"))),
        }
    }
}
