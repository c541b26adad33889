//! Retry timing: exponential backoff with jitter, server delay hints, and the injectable clock
//! and sleeper that keep tests fast.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::future::Future;
use std::hash::BuildHasher;
use std::pin::Pin;
use std::time::Duration;

use jiff::Timestamp;
use reqwest::header::HeaderMap;

/// Waits between attempts. Implementations must not return before the delay has passed, unless
/// they are test doubles that only record the delay; they must be safe to share between threads.
pub trait Sleeper: fmt::Debug + Send + Sync {
    fn sleep(&self, delay: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// Sleeps on the tokio timer.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioSleeper;

impl Sleeper for TokioSleeper {
    fn sleep(&self, delay: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(delay))
    }
}

/// The current time, for HTTP-date `Retry-After` values and cache ages. Implementations must be
/// safe to share between threads; successive calls should not go backwards.
pub trait Clock: fmt::Debug + Send + Sync {
    fn now(&self) -> Timestamp;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// The wait before retry number `retry` (1-based): the server's hint when it gave one, else
/// `base * 2^(retry-1)` scaled by a random factor in [0.9, 1.1]; never more than `max`.
pub(crate) fn retry_delay(
    server_hint: Option<Duration>,
    base: Duration,
    max: Duration,
    retry: u32,
) -> Duration {
    let delay = server_hint.unwrap_or_else(|| {
        let exponent = retry.saturating_sub(1).min(30);
        // A number in [0, 1] from the standard library's per-instance random hash keys: enough
        // to spread retries of concurrent clients without a random-number dependency.
        let unit = (RandomState::new().hash_one(0u8) >> 11) as f64 / (1u64 << 53) as f64;
        let jitter = 0.9 + 0.2 * unit;
        base.saturating_mul(1 << exponent).mul_f64(jitter)
    });
    delay.min(max)
}

/// `retry-after-ms` (milliseconds) or `Retry-After` (seconds or an HTTP date, relative to `now`).
pub(crate) fn retry_after_from_headers(headers: &HeaderMap, now: Timestamp) -> Option<Duration> {
    let header_text = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
    };
    if let Some(millis) = header_text("retry-after-ms").and_then(|text| text.parse::<f64>().ok()) {
        return Duration::try_from_secs_f64(millis / 1000.0).ok();
    }
    let text = header_text("retry-after")?;
    if let Ok(seconds) = text.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let date = jiff::fmt::rfc2822::parse(text).ok()?.timestamp();
    Some(Duration::try_from(date.duration_since(now)).unwrap_or(Duration::ZERO))
}

/// The delay in a server message such as "Please try again in 1.5s" or "try again in 250ms".
pub(crate) fn try_again_in(message: &str) -> Option<Duration> {
    const PHRASE: &str = "try again in";
    let lowered = message.to_ascii_lowercase();
    let start = lowered.find(PHRASE)? + PHRASE.len();
    let rest = lowered[start..].trim_start();
    let number_len = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let value: f64 = rest[..number_len].parse().ok()?;
    let unit: String = rest[number_len..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    let seconds = match unit.as_str() {
        "ms" | "millisecond" | "milliseconds" => value / 1000.0,
        "s" | "sec" | "secs" | "second" | "seconds" => value,
        _ => return None,
    };
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
#[path = "retry_tests.rs"]
mod tests;
