//! Single-pass parsing of one rollout line.
//!
//! Reads the same shape as `RolloutLine`'s own `Deserialize`, but when `type` comes before
//! `payload` (as every writer puts it) the payload is deserialized straight into its typed form
//! instead of being parsed into a `serde_json::Value` first and converted afterwards. That halves
//! the work for typed lines, which is what keeps resuming long rollouts fast.
//!
//! For a resume or a replay, which never look at most event payloads,
//! [`PayloadDetail::ResumeSummary`] and [`PayloadDetail::ReplaySummary`] keep only the fields
//! read from `event_msg` lines and skip the payloads of other untyped lines without building
//! them.

use std::fmt;
use std::io;
use std::marker::PhantomData;

use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use serde::Deserialize;
use serde::Deserializer;
use serde::de;
use serde::de::DeserializeOwned;
use serde::de::IgnoredAny;
use serde::de::MapAccess;
use serde::de::SeqAccess;
use serde::de::Visitor;
use serde_json::Map;
use serde_json::Value;

/// How much of an untyped line's payload to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PayloadDetail {
    /// Every payload as read, so the line can be written back unchanged.
    Full,
    /// Only the event fields a continued thread reads ([`ResumeKeys`]); other untyped payloads
    /// become `null`.
    ResumeSummary,
    /// Only the event fields replaying reads ([`ReplayKeys`]); other untyped payloads become
    /// `null`.
    ReplaySummary,
}

/// The event payload keys a summary keeps.
trait SummaryKeys {
    const KEYS: &'static [&'static str];
}

/// What replaying the lines reads of an event.
enum ReplayKeys {}

impl SummaryKeys for ReplayKeys {
    const KEYS: &'static [&'static str] = &["type", "turn_id", "num_turns"];
}

/// What a continued thread reads of an event: also a `token_count` event's usage, which it
/// goes on from.
enum ResumeKeys {}

impl SummaryKeys for ResumeKeys {
    const KEYS: &'static [&'static str] = &["type", "turn_id", "num_turns", "info"];
}

/// Parses one rollout line in one pass; see the module documentation.
pub(super) fn parse_line(text: &[u8], detail: PayloadDetail) -> serde_json::Result<RolloutLine> {
    parse_whole(serde_json::Deserializer::from_slice(text), detail)
}

/// [`parse_line`] for a line read from `reader` (which ends where the line does) as it is
/// parsed, so a very long line is never held in memory beside what it parses into.
pub(super) fn parse_line_from_reader(
    reader: impl io::Read,
    detail: PayloadDetail,
) -> serde_json::Result<RolloutLine> {
    parse_whole(serde_json::Deserializer::from_reader(reader), detail)
}

fn parse_whole<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    detail: PayloadDetail,
) -> serde_json::Result<RolloutLine> {
    let line = deserializer.deserialize_map(LineVisitor(detail))?;
    deserializer.end()?;
    Ok(line)
}

/// A key of a rollout line.
pub(super) enum Key {
    Timestamp,
    Ordinal,
    Type,
    Payload,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a rollout line key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "timestamp" => Key::Timestamp,
                    "ordinal" => Key::Ordinal,
                    "type" => Key::Type,
                    "payload" => Key::Payload,
                    other => Key::Other(other.to_string()),
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// Where a payload is read from: the map being visited, or a `Value` buffered because the
/// payload came before the type.
trait PayloadSource {
    type Error: fmt::Display;
    fn read<T: DeserializeOwned>(self) -> Result<T, Self::Error>;
}

struct NextValue<'a, 'de, A: MapAccess<'de>>(&'a mut A, PhantomData<&'de ()>);

impl<'de, A: MapAccess<'de>> PayloadSource for NextValue<'_, 'de, A> {
    type Error = A::Error;
    fn read<T: DeserializeOwned>(self) -> Result<T, A::Error> {
        self.0.next_value()
    }
}

impl PayloadSource for Value {
    type Error = serde_json::Error;
    fn read<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self)
    }
}

/// The payload typed by `line_type`, as `RolloutItem`'s own deserializer does it (untyped
/// payloads reduced as `detail` says).
fn typed_item<S: PayloadSource, E: de::Error>(
    line_type: &str,
    source: S,
    detail: PayloadDetail,
) -> Result<RolloutItem, E> {
    let other = |payload| RolloutItem::Other {
        line_type: line_type.to_string(),
        payload,
    };
    let item = match (line_type, detail) {
        ("session_meta", _) => source.read().map(RolloutItem::SessionMeta),
        ("response_item", _) => source.read().map(RolloutItem::ResponseItem),
        ("turn_context", _) => source.read().map(RolloutItem::TurnContext),
        ("world_state", _) => source.read().map(RolloutItem::WorldState),
        ("compacted", _) => source.read().map(RolloutItem::Compacted),
        (_, PayloadDetail::Full) => source.read().map(other),
        (EVENT_MSG_LINE_TYPE, PayloadDetail::ResumeSummary) => source
            .read::<EventSummary<ResumeKeys>>()
            .map(|summary| other(summary.0)),
        (EVENT_MSG_LINE_TYPE, PayloadDetail::ReplaySummary) => source
            .read::<EventSummary<ReplayKeys>>()
            .map(|summary| other(summary.0)),
        (_, PayloadDetail::ResumeSummary | PayloadDetail::ReplaySummary) => {
            source.read::<IgnoredAny>().map(|_| other(Value::Null))
        }
    };
    item.map_err(|error| E::custom(format!("invalid `{line_type}` payload: {error}")))
}

/// A key of an event payload: one of `K`'s, or one to skip (without allocating).
enum SummaryKey<K> {
    Kept(&'static str, PhantomData<K>),
    Skipped,
}

impl<'de, K: SummaryKeys> Deserialize<'de> for SummaryKey<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SummaryKeyVisitor<K>(PhantomData<K>);
        impl<K: SummaryKeys> Visitor<'_> for SummaryKeyVisitor<K> {
            type Value = SummaryKey<K>;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an event payload key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<SummaryKey<K>, E> {
                Ok(K::KEYS
                    .iter()
                    .find(|kept| **kept == key)
                    .map_or(SummaryKey::Skipped, |kept| {
                        SummaryKey::Kept(kept, PhantomData)
                    }))
            }
        }
        deserializer.deserialize_identifier(SummaryKeyVisitor(PhantomData))
    }
}

/// An event payload reduced to `K`'s keys; anything that is not an object becomes `null`.
struct EventSummary<K>(Value, PhantomData<K>);

impl<'de, K: SummaryKeys> Deserialize<'de> for EventSummary<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(EventSummaryVisitor::<K>(PhantomData))
            .map(|summary| EventSummary(summary, PhantomData))
    }
}

struct EventSummaryVisitor<K>(PhantomData<K>);

/// Accepting (and dropping) every non-object payload keeps damage reports identical to a full
/// read, which accepts any JSON there.
macro_rules! ignore_scalar {
    ($($method:ident: $type:ty),* $(,)?) => {
        $(fn $method<E: de::Error>(self, _: $type) -> Result<Value, E> {
            Ok(Value::Null)
        })*
    };
}

impl<'de, K: SummaryKeys> Visitor<'de> for EventSummaryVisitor<K> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    ignore_scalar!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut kept = Map::new();
        while let Some(key) = map.next_key::<SummaryKey<K>>()? {
            match key {
                SummaryKey::Kept(name, _) => {
                    kept.insert(name.to_string(), map.next_value()?);
                }
                SummaryKey::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Value::Object(kept))
    }
}

struct LineVisitor(PayloadDetail);

impl<'de> Visitor<'de> for LineVisitor {
    type Value = RolloutLine;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a rollout line object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RolloutLine, A::Error> {
        let mut timestamp: Option<String> = None;
        let mut ordinal: Option<Option<u64>> = None;
        let mut line_type: Option<String> = None;
        let mut item: Option<RolloutItem> = None;
        let mut early_payload: Option<Value> = None;
        let mut extra = Map::new();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Timestamp if timestamp.is_none() => timestamp = Some(map.next_value()?),
                Key::Ordinal if ordinal.is_none() => ordinal = Some(map.next_value()?),
                Key::Type if line_type.is_none() => line_type = Some(map.next_value()?),
                Key::Payload if item.is_none() && early_payload.is_none() => {
                    match line_type.as_deref() {
                        Some(known) => {
                            item =
                                Some(typed_item(known, NextValue(&mut map, PhantomData), self.0)?)
                        }
                        None => early_payload = Some(map.next_value()?),
                    }
                }
                Key::Timestamp => return Err(de::Error::duplicate_field("timestamp")),
                Key::Ordinal => return Err(de::Error::duplicate_field("ordinal")),
                Key::Type => return Err(de::Error::duplicate_field("type")),
                Key::Payload => return Err(de::Error::duplicate_field("payload")),
                Key::Other(name) => {
                    let value: Value = map.next_value()?;
                    extra.insert(name, value);
                }
            }
        }
        let timestamp = timestamp.ok_or_else(|| de::Error::missing_field("timestamp"))?;
        let line_type = line_type.ok_or_else(|| de::Error::missing_field("type"))?;
        let item = match (item, early_payload) {
            (Some(item), _) => item,
            (None, Some(payload)) => typed_item(&line_type, payload, self.0)?,
            (None, None) => return Err(de::Error::missing_field("payload")),
        };
        Ok(RolloutLine {
            timestamp,
            ordinal: ordinal.flatten(),
            item,
            extra,
        })
    }
}
