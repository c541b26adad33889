//! Progress bars on standard error for operations that can take more than a second.
//!
//! A bar is drawn only when standard error is a terminal and the operation has already run for
//! [`SHOW_AFTER`] (a quick operation never flashes one), and it is cleared when the operation
//! ends, so nothing of it reaches piped output, logs or the terminal's scroll-back. A
//! [`Progress`] is cheap to clone and can be advanced from several threads at once.

use std::io::IsTerminal as _;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

use indicatif::ProgressBar;
use indicatif::ProgressDrawTarget;
use indicatif::ProgressStyle;

/// How long an operation runs before its bar appears.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// What a bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes of input read (shown as sizes with a rate).
    Bytes,
    /// Whole things, named in the plural (`"files"`, `"turns"`).
    Items(&'static str),
}

/// Where a bar may be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Display {
    /// On standard error once [`SHOW_AFTER`] has passed, if standard error is a terminal.
    StderrIfTerminal,
    /// Nowhere (tests, or a caller that prints progress itself).
    Hidden,
}

/// The progress of one operation. Dropping it (or [`Progress::finish`]) clears the bar.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
    state: Arc<State>,
}

#[derive(Debug)]
struct State {
    started: Instant,
    /// Whether the bar may still appear (standard error is a terminal and it has not yet).
    pending: AtomicBool,
}

impl Progress {
    /// A bar for `total` units of `unit` (`None`: the total is not known, a spinner is shown),
    /// described by `message` (`"inspecting"`).
    pub fn new(total: Option<u64>, unit: Unit, message: &str, display: Display) -> Self {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match (total, unit) {
            (Some(_), Unit::Bytes) => {
                "{msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)".to_string()
            }
            (Some(_), Unit::Items(name)) => {
                format!("{{msg}} [{{bar:30}}] {{pos}}/{{len}} {name} ({{eta}} left)")
            }
            (None, Unit::Bytes) => "{spinner} {msg} {bytes} ({bytes_per_sec})".to_string(),
            (None, Unit::Items(name)) => format!("{{spinner}} {{msg}} {{pos}} {name}"),
        };
        // The templates are constants of this crate; a bad one falls back to the default style.
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(message.to_string());
        let pending = match display {
            Display::StderrIfTerminal => std::io::stderr().is_terminal(),
            Display::Hidden => false,
        };
        Self {
            bar,
            state: Arc::new(State {
                started: Instant::now(),
                pending: AtomicBool::new(pending),
            }),
        }
    }

    /// Advances the bar by `delta` units.
    pub fn inc(&self, delta: u64) {
        self.bar.inc(delta);
        self.show_if_due();
    }

    /// Sets how many units are done.
    pub fn set_position(&self, position: u64) {
        self.bar.set_position(position);
        self.show_if_due();
    }

    /// Units done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Runs `print` with the bar out of the way, so a warning written to standard error is not
    /// drawn over.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    /// Clears the bar (the operation ended).
    pub fn finish(&self) {
        self.state.pending.store(false, Ordering::Relaxed);
        self.bar.finish_and_clear();
    }

    fn show_if_due(&self) {
        if self.state.pending.load(Ordering::Relaxed)
            && self.state.started.elapsed() >= SHOW_AFTER
            && self.state.pending.swap(false, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_hidden_bar_counts_without_drawing() {
        let progress = Progress::new(Some(10), Unit::Items("files"), "reading", Display::Hidden);
        let clone = progress.clone();
        std::thread::scope(|scope| {
            scope.spawn(|| clone.inc(3));
            scope.spawn(|| progress.inc(4));
        });
        assert_eq!(progress.position(), 7);
        assert!(progress.bar.is_hidden());
        progress.finish();
        assert!(progress.bar.is_finished());
    }

    #[test]
    fn a_bar_with_unknown_total_counts() {
        let progress = Progress::new(None, Unit::Bytes, "reading", Display::Hidden);
        progress.set_position(1024);
        progress.inc(1);
        assert_eq!(progress.position(), 1025);
    }
}
