//! Deterministic randomness, clock and text for generated rollouts: everything is drawn from
//! one seeded generator, so the same seed gives the same bytes on any machine and date.

/// The clock of a generated thread starts on this day (UTC), at 08:00 plus up to twelve hours
/// chosen by the seed.
const START_DAY: (i64, u32, u32) = (2026, 3, 2);
const MS_PER_DAY: u64 = 86_400_000;

/// A splitmix64 generator.
#[derive(Debug, Clone)]
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Self(seed ^ 0x5EED_C0DE_C0FF_EE00)
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    pub(super) fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high.saturating_sub(low) + 1)
    }

    /// True `percent` times in a hundred.
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of `items` (which is never empty here).
    pub(super) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        let index = self.next_u64() as usize % items.len().max(1);
        items.get(index).copied().unwrap_or_default()
    }

    /// `digits` lower-case hexadecimal digits.
    pub(super) fn hex(&mut self, digits: usize) -> String {
        (0..digits)
            .map(|_| char::from(b"0123456789abcdef"[(self.next_u64() % 16) as usize]))
            .collect()
    }
}

/// A thread's clock in milliseconds since the Unix epoch.
#[derive(Debug, Clone)]
pub(super) struct Clock {
    ms: u64,
}

impl Clock {
    /// 08:00 UTC on [`START_DAY`] plus up to twelve hours drawn from `rng`.
    pub(super) fn start(rng: &mut Rng) -> Self {
        let (year, month, day) = START_DAY;
        let days = u64::try_from(days_from_civil(year, month, day)).unwrap_or_default();
        Self {
            ms: days * MS_PER_DAY + 8 * 3_600_000 + rng.range(0, 12 * 3_600_000),
        }
    }

    pub(super) fn advance(&mut self, ms: u64) {
        self.ms += ms;
    }

    pub(super) fn ms(&self) -> u64 {
        self.ms
    }

    pub(super) fn secs(&self) -> u64 {
        self.ms / 1000
    }

    /// `2026-03-02T08:15:42.123Z`.
    pub(super) fn timestamp(&self) -> String {
        let (year, month, day) = civil_from_days((self.ms / MS_PER_DAY) as i64);
        let in_day = self.ms % MS_PER_DAY;
        format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
            in_day / 3_600_000,
            in_day / 60_000 % 60,
            in_day / 1000 % 60,
            in_day % 1000
        )
    }

    /// `2026-03-02`.
    pub(super) fn date(&self) -> String {
        let (year, month, day) = civil_from_days((self.ms / MS_PER_DAY) as i64);
        format!("{year:04}-{month:02}-{day:02}")
    }

    /// Seconds with a fraction below the millisecond, as `create_time` records them.
    pub(super) fn create_time(&self, rng: &mut Rng) -> f64 {
        self.ms as f64 / 1000.0 + rng.range(0, 999) as f64 / 1_000_000.0
    }

    /// A UUID of version 7 whose time is the clock's.
    pub(super) fn uuid(&self, rng: &mut Rng) -> String {
        format!(
            "{:08x}-{:04x}-7{}-{:x}{}-{}",
            self.ms >> 16,
            self.ms & 0xffff,
            rng.hex(3),
            8 + rng.range(0, 3),
            rng.hex(3),
            rng.hex(12)
        )
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

const WORDS: [&str; 40] = [
    "parser", "request", "history", "session", "buffer", "config", "module", "handler", "token",
    "stream", "cache", "thread", "window", "rollout", "fixture", "snapshot", "layer", "index",
    "reader", "writer", "bench", "marker", "section", "policy", "sandbox", "turn", "summary",
    "catalog", "prompt", "limit", "offset", "record", "schema", "field", "value", "error",
    "warning", "result", "option", "builder",
];

/// Lines that look like a command's output (paths, line numbers, identifiers, counts), about
/// `bytes` long (ASCII, so any cut is on a character boundary).
pub(super) fn command_output(rng: &mut Rng, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 128);
    while text.len() < bytes {
        let line = match rng.range(0, 3) {
            0 => format!(
                "src/{}/{}_{}.rs:{}:{}: fn {}_{}(&self) -> Result<{}, Error> {{\n",
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.range(1, 99),
                rng.range(1, 900),
                rng.range(1, 80),
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.pick(&WORDS)
            ),
            1 => format!(
                "test {}::{}_{} ... ok ({} ms)\n",
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.range(0, 4000)
            ),
            2 => format!(
                "-rw-r--r-- 1 dev dev {:>8} Mar {:>2} {:02}:{:02} {}_{}.{}\n",
                rng.range(10, 2_000_000),
                rng.range(1, 28),
                rng.range(0, 23),
                rng.range(0, 59),
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.pick(&["rs", "toml", "md", "json", "snap"])
            ),
            _ => format!(
                "  {} {} {} the {} of the {} ({} of {})\n",
                rng.pick(&["checking", "reading", "writing", "skipping", "merging"]),
                rng.pick(&WORDS),
                rng.pick(&["before", "after", "inside", "around"]),
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.range(1, 500),
                rng.range(500, 9000)
            ),
        };
        text.push_str(&line);
    }
    text.truncate(bytes);
    text
}

/// A sentence or several in plain words, about `bytes` long.
pub(super) fn prose(rng: &mut Rng, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    while text.len() < bytes {
        let sentence = format!(
            "The {} {} the {} before the {} {}. ",
            rng.pick(&WORDS),
            rng.pick(&["reads", "checks", "updates", "replaces", "keeps", "splits"]),
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.pick(&["changes", "is written", "is read", "grows", "returns"])
        );
        text.push_str(&sentence);
    }
    text.truncate(bytes);
    text.trim_end().to_string()
}

/// What an opaque encrypted blob looks like: URL-safe base64, `bytes` long.
pub(super) fn opaque(rng: &mut Rng, bytes: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut text = String::from("gAAAAA");
    while text.len() < bytes {
        let mut bits = rng.next_u64();
        for _ in 0..10 {
            text.push(char::from(ALPHABET[(bits % 64) as usize]));
            bits >>= 6;
        }
    }
    text.truncate(bytes.max(6));
    text
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn dates_round_trip_through_day_counts() {
        for (year, month, day) in [(1970, 1, 1), (2026, 3, 2), (2028, 2, 29), (2031, 12, 31)] {
            assert_eq!(
                civil_from_days(days_from_civil(year, month, day)),
                (year, month, day)
            );
        }
        assert_eq!(days_from_civil(1970, 1, 2), 1);
    }

    #[test]
    fn the_clock_formats_utc_timestamps() {
        let clock = Clock {
            ms: days_from_civil(2026, 3, 2) as u64 * MS_PER_DAY + 3_723_004,
        };
        assert_eq!(clock.timestamp(), "2026-03-02T01:02:03.004Z");
        assert_eq!(clock.date(), "2026-03-02");
    }

    #[test]
    fn text_has_the_length_asked_for() {
        let mut rng = Rng::new(7);
        assert_eq!(command_output(&mut rng, 1000).len(), 1000);
        assert_eq!(opaque(&mut rng, 333).len(), 333);
    }
}
