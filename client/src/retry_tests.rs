use std::time::Duration;

use pretty_assertions::assert_eq;
use reqwest::header::HeaderMap;
use reqwest::header::HeaderValue;

use super::retry_after_from_headers;
use super::retry_delay;
use super::try_again_in;

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.insert(*name, HeaderValue::from_static(value));
    }
    map
}

#[test]
fn try_again_in_reads_seconds_and_milliseconds() {
    assert_eq!(
        [
            try_again_in("Rate limit reached. Please try again in 1.5s. Visit ..."),
            try_again_in("Try again in 250ms"),
            try_again_in("please TRY AGAIN IN 3 seconds"),
            try_again_in("try again in 2 minutes"),
            try_again_in("try again later"),
            try_again_in("no hint here"),
        ],
        [
            Some(Duration::from_millis(1500)),
            Some(Duration::from_millis(250)),
            Some(Duration::from_secs(3)),
            None,
            None,
            None,
        ]
    );
}

#[test]
fn retry_after_headers_in_seconds_milliseconds_and_http_dates() {
    let now: jiff::Timestamp = "2026-03-01T10:00:00Z".parse().expect("timestamp");
    assert_eq!(
        [
            retry_after_from_headers(&headers(&[("retry-after", "2")]), now),
            retry_after_from_headers(&headers(&[("retry-after", " 0.5 ")]), now),
            retry_after_from_headers(
                &headers(&[("retry-after-ms", "1200"), ("retry-after", "9")]),
                now
            ),
            retry_after_from_headers(
                &headers(&[("retry-after", "Sun, 01 Mar 2026 10:00:07 GMT")]),
                now
            ),
            retry_after_from_headers(
                &headers(&[("retry-after", "Sun, 01 Mar 2026 09:00:00 GMT")]),
                now
            ),
            retry_after_from_headers(&headers(&[("retry-after", "soon")]), now),
            retry_after_from_headers(&headers(&[("retry-after", "-3")]), now),
            retry_after_from_headers(&HeaderMap::new(), now),
        ],
        [
            Some(Duration::from_secs(2)),
            Some(Duration::from_millis(500)),
            Some(Duration::from_millis(1200)),
            Some(Duration::from_secs(7)),
            Some(Duration::ZERO),
            None,
            None,
            None,
        ]
    );
}

#[test]
fn backoff_doubles_with_bounded_jitter_and_is_capped() {
    let base = Duration::from_millis(100);
    let max = Duration::from_secs(1);
    for retry in 1..=3u32 {
        let nominal = base * (1 << (retry - 1));
        let delay = retry_delay(None, base, max, retry);
        assert!(
            delay >= nominal.mul_f64(0.9) && delay <= nominal.mul_f64(1.1),
            "retry {retry}: {delay:?}"
        );
    }
    assert_eq!(retry_delay(None, base, max, 40), max);
}

#[test]
fn server_hint_replaces_backoff_but_not_the_cap() {
    let base = Duration::from_millis(100);
    let max = Duration::from_secs(10);
    assert_eq!(
        [
            retry_delay(Some(Duration::from_secs(3)), base, max, 1),
            retry_delay(Some(Duration::from_secs(3600)), base, max, 1),
        ],
        [Duration::from_secs(3), max]
    );
}
