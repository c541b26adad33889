//! Every id (thread, turn, item) and every timestamp of a session comes from one [`IdGenerator`].
//!
//! A seeded generator (`--seed N` / `seed` in config, plus a pinned start instant) replaces the
//! wall clock with a clock that advances by [`SEEDED_CLOCK_STEP_MICROS`] per reading and the OS
//! random source with a small seeded PRNG, so two runs with the same seed print identical bytes.
//! Ids keep upstream's shape either way: UUIDv7 (48-bit Unix milliseconds, version 7, random
//! tail) for threads, turns and items.
//!
//! Responses Lite prefix items use name-based UUIDv5 ids instead ([`LiteIdNamespace`]), so the
//! same thread always sends the same prefix ids and the server-side prompt cache keeps matching.

use std::sync::Mutex;
use std::sync::PoisonError;

use jiff::Timestamp;
use uuid::Builder;
use uuid::Uuid;

/// How far the seeded clock moves on every reading: one millisecond, so consecutive UUIDv7 ids
/// differ in their time field as well as in their random tail.
pub const SEEDED_CLOCK_STEP_MICROS: i64 = 1_000;

/// Prefix of a client-made item id (`<prefix><uuid>`), a protocol fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemIdPrefix {
    /// `msg_`: user and developer messages.
    Message,
    /// `fc_`: function and custom tool calls.
    FunctionCall,
    /// `fco_`: function and custom tool call outputs.
    FunctionCallOutput,
    /// `at_`: the Responses Lite `additional_tools` item.
    AdditionalTools,
}

impl ItemIdPrefix {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Message => "msg_",
            Self::FunctionCall => "fc_",
            Self::FunctionCallOutput => "fco_",
            Self::AdditionalTools => "at_",
        }
    }
}

/// Produces ids and timestamps for one process. Cheap to share behind an `Arc`; every method takes
/// `&self`.
#[derive(Debug)]
pub struct IdGenerator {
    state: Mutex<GeneratorState>,
}

#[derive(Debug)]
struct GeneratorState {
    clock: Clock,
    random: SplitMix64,
}

#[derive(Debug)]
enum Clock {
    System,
    Stepped { next_micros: i64 },
}

impl IdGenerator {
    /// Deterministic generator: the clock starts at `start` and advances by
    /// [`SEEDED_CLOCK_STEP_MICROS`] per reading; random bits come from `seed`.
    pub fn seeded(seed: u64, start: Timestamp) -> Self {
        Self::with_state(GeneratorState {
            clock: Clock::Stepped {
                next_micros: start.as_microsecond(),
            },
            random: SplitMix64::new(seed),
        })
    }

    /// Wall-clock generator whose random bits are seeded once from the OS random source.
    pub fn live() -> Self {
        let entropy = Uuid::new_v4().as_u64_pair();
        Self::with_state(GeneratorState {
            clock: Clock::System,
            random: SplitMix64::new(entropy.0 ^ entropy.1.rotate_left(17)),
        })
    }

    /// Restarts this generator exactly as [`IdGenerator::seeded`] would start it, whatever it
    /// was before. A driver that gives every turn its own stream this way draws the same ids for
    /// a turn whether the thread ran straight through or was resumed from its rollout.
    pub fn reseed(&self, seed: u64, start: Timestamp) {
        *self.lock() = GeneratorState {
            clock: Clock::Stepped {
                next_micros: start.as_microsecond(),
            },
            random: SplitMix64::new(seed),
        };
    }

    fn with_state(state: GeneratorState) -> Self {
        Self {
            state: Mutex::new(state),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GeneratorState> {
        // The state is a clock and a PRNG; a panic elsewhere cannot leave it half-updated in a way
        // that matters, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The current instant (advancing a seeded clock by one step).
    pub fn now(&self) -> Timestamp {
        self.lock().clock.read()
    }

    /// A fresh UUIDv7 stamped with the current instant.
    pub fn uuid_v7(&self) -> Uuid {
        let mut state = self.lock();
        let now = state.clock.read();
        let mut tail = [0u8; 10];
        state.random.fill(&mut tail);
        let millis = u64::try_from(now.as_millisecond()).unwrap_or(0);
        Builder::from_unix_timestamp_millis(millis, &tail).into_uuid()
    }

    /// A random (version 4) UUID, e.g. for an installation id.
    pub fn uuid_v4(&self) -> Uuid {
        let mut bytes = [0u8; 16];
        self.lock().random.fill(&mut bytes);
        Builder::from_random_bytes(bytes).into_uuid()
    }

    /// A new thread id (UUIDv7).
    pub fn thread_id(&self) -> Uuid {
        self.uuid_v7()
    }

    /// A new turn id (UUIDv7).
    pub fn turn_id(&self) -> Uuid {
        self.uuid_v7()
    }

    /// A client-made item id: `<prefix><uuidv7>`.
    pub fn item_id(&self, prefix: ItemIdPrefix) -> String {
        format!("{}{}", prefix.as_str(), self.uuid_v7())
    }

    /// `create_time` for item metadata: fractional Unix seconds of the current instant.
    pub fn create_time(&self) -> f64 {
        create_time_of(self.now())
    }

    /// Timestamp of a rollout line for the current instant.
    pub fn rollout_timestamp(&self) -> String {
        rollout_timestamp_of(self.now())
    }

    /// The ids a turn context is built from: a thread identity, then a turn id, always drawn
    /// together and in this order. A turn that starts a thread keeps both; a later turn of a
    /// known thread keeps only the turn id. Drawing the same four values either way keeps a
    /// seeded stream's later ids (items, timestamps) the same however its thread came about.
    pub fn draw_turn_ids(&self) -> DrawnTurnIds {
        // Drawn in this fixed order so a seeded generator always gives the same ids.
        let thread_id = self.thread_id().to_string();
        let installation_id = self.uuid_v4().to_string();
        let window_id = self.uuid_v7().to_string();
        let turn_id = self.turn_id().to_string();
        DrawnTurnIds {
            identity: ThreadIdentity {
                thread_id,
                installation_id,
                window_id,
                forked_from: None,
            },
            turn_id,
        }
    }
}

/// The ids that stay the same for a thread's whole life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadIdentity {
    pub thread_id: String,
    /// The installation the thread runs in (`x-codex-turn-metadata`'s `installation_id`).
    pub installation_id: String,
    /// The thread's first context window.
    pub window_id: String,
    /// The thread this one was forked from (`session_meta.forked_from_id`).
    pub forked_from: Option<String>,
}

/// What [`IdGenerator::draw_turn_ids`] draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnTurnIds {
    pub identity: ThreadIdentity,
    pub turn_id: String,
}

/// Midnight UTC of `date` (`YYYY-MM-DD`): where a seeded clock starts, so a seed and a pinned
/// date reproduce every id and timestamp. `None` when `date` is not a calendar date.
pub fn seeded_clock_start(date: &str) -> Option<Timestamp> {
    format!("{date}T00:00:00Z").parse().ok()
}

impl Clock {
    fn read(&mut self) -> Timestamp {
        match self {
            Self::System => Timestamp::now(),
            Self::Stepped { next_micros } => {
                let now = *next_micros;
                *next_micros = now.saturating_add(SEEDED_CLOCK_STEP_MICROS);
                Timestamp::from_microsecond(now).unwrap_or(Timestamp::MAX)
            }
        }
    }
}

/// Fractional Unix seconds (microsecond precision), the form of `create_time`.
pub fn create_time_of(instant: Timestamp) -> f64 {
    // Exact integer micros divided once, so the result is the double nearest the true value and
    // prints with its shortest decimal form.
    instant.as_microsecond() as f64 / 1_000_000.0
}

/// UTC, millisecond precision, `Z` suffix: `2026-11-30T07:02:00.601Z`.
pub fn rollout_timestamp_of(instant: Timestamp) -> String {
    instant.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Namespace for the deterministic ids of one thread's Responses Lite prefix items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LiteIdNamespace(Uuid);

impl LiteIdNamespace {
    /// Derived from the thread id alone, so retries and resumes of the thread reuse it.
    pub fn for_thread(thread_id: &str) -> Self {
        Self(Uuid::new_v5(&Uuid::NAMESPACE_OID, thread_id.as_bytes()))
    }

    pub fn as_uuid(&self) -> Uuid {
        self.0
    }

    /// `at_<uuidv5 of the serialized tools JSON>`.
    pub fn additional_tools_id(&self, serialized_tools: &str) -> String {
        self.prefixed(ItemIdPrefix::AdditionalTools, serialized_tools)
    }

    /// `msg_<uuidv5 of the message text>`.
    pub fn message_id(&self, text: &str) -> String {
        self.prefixed(ItemIdPrefix::Message, text)
    }

    fn prefixed(&self, prefix: ItemIdPrefix, name: &str) -> String {
        format!(
            "{}{}",
            prefix.as_str(),
            Uuid::new_v5(&self.0, name.as_bytes())
        )
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and good enough for id tails; determinism is
/// what matters here, not unpredictability.
#[derive(Debug)]
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}
