//! Skimming a rollout line: what resuming needs of a line older than the history it resumes
//! from, read without building the line.
//!
//! Most of a long rollout lies before its newest compaction, and of those lines a resume needs
//! only a few facts: the line's type and ordinal, an event's type, turn and rolled-back turns, a
//! response item's id and line metadata. [`skim_line`] reads just those and stops as soon as
//! nothing further is needed, so an event's payload (a completed item, a token count) is not
//! read past its turn id and no string of a response item is built. Lines whose content a
//! resume may read (session metadata, turn contexts, world state, compactions, the user's
//! messages) and anything shaped unlike what the writers write are declined: the caller parses
//! those in full. Damage past the point where a skim stops goes unnoticed, as it does for the
//! released CLI, which does not read those lines at all.

use std::fmt;
use std::io;

use serde::Deserialize;
use serde::Deserializer;
use serde::de;
use serde::de::DeserializeSeed;
use serde::de::IgnoredAny;
use serde::de::MapAccess;
use serde::de::Visitor;
use serde_json::Map;
use serde_json::Value;

use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutLine;
use codex_protocol::rollout::TOKEN_COUNT_EVENT_TYPE;

use super::LINE_METADATA_KEY;
use super::event_types;
use super::reader::LineParser;
use super::segments::EventFact;
use super::wire::Key;
use super::wire::PayloadDetail;
use super::wire::parse_line;
use super::wire::parse_line_from_reader;

/// What the skimming pass reads of a line: a skim, or (for a line the skim declines) the line.
pub(super) enum Scanned {
    Skimmed(Skimmed),
    Parsed(Box<RolloutLine>),
}

/// Skims each line, parsing in full (event payloads reduced for resuming) those it declines.
pub(super) struct Skimming;

impl LineParser for Skimming {
    type Parsed = Scanned;

    fn parse(&self, text: &[u8]) -> serde_json::Result<Scanned> {
        match skim_line(text) {
            Some(skimmed) => Ok(Scanned::Skimmed(skimmed)),
            None => parse_line(text, PayloadDetail::ResumeSummary)
                .map(|line| Scanned::Parsed(Box::new(line))),
        }
    }

    fn parse_reader(&self, reader: impl io::Read) -> serde_json::Result<Scanned> {
        parse_line_from_reader(reader, PayloadDetail::ResumeSummary)
            .map(|line| Scanned::Parsed(Box::new(line)))
    }
}

/// What a skim found in one line.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Skimmed {
    pub ordinal: Option<u64>,
    pub kind: SkimmedKind,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum SkimmedKind {
    /// A response item that is not a message of the user's: its id and line metadata.
    Response {
        id: Option<String>,
        metadata: Option<Map<String, Value>>,
    },
    /// An `event_msg` line.
    Event {
        event: EventFact,
        turn_id: Option<Box<str>>,
        /// A `token_count` event, whose usage only the newest one's matters.
        token_count: bool,
    },
    /// A line of a type without a typed payload (other than `event_msg`).
    Untyped { line_type: Box<str> },
}

/// The response item types a skim reads; any other is declined.
const SKIMMED_ITEM_TYPES: [&str; 6] = [
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
];

/// Line types whose payload a resume reads, so they are parsed in full.
const READ_LINE_TYPES: [&str; 5] = [
    "session_meta",
    "turn_context",
    "world_state",
    "compacted",
    "response_item",
];

/// Skims `text` (one line); `None` when the line must be parsed in full.
pub(super) fn skim_line(text: &[u8]) -> Option<Skimmed> {
    let mut found = None;
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let read = deserializer.deserialize_map(LineSkimmer { found: &mut found });
    match read {
        // The whole line was read: it must also end there.
        Ok(()) => deserializer.end().ok().and(found),
        // Stopped early on purpose, or declined.
        Err(_) => found,
    }
}

/// Why a skim stopped reading: either it has what it needs, or the line must be parsed in full
/// (`found` tells which).
fn stop<E: de::Error>() -> E {
    E::custom("skim stopped")
}

struct LineSkimmer<'a> {
    found: &'a mut Option<Skimmed>,
}

impl<'de> Visitor<'de> for LineSkimmer<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a rollout line object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut timestamp = false;
        let mut ordinal: Option<Option<u64>> = None;
        let mut line_type: Option<String> = None;
        let mut response: Option<Option<String>> = None;
        let mut metadata: Option<Value> = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Timestamp if !timestamp => {
                    map.next_value::<String>()?;
                    timestamp = true;
                }
                Key::Ordinal if ordinal.is_none() => ordinal = Some(map.next_value()?),
                Key::Type if line_type.is_none() => {
                    let read: String = map.next_value()?;
                    if !timestamp || READ_LINE_TYPES.contains(&read.as_str()) {
                        line_type = Some(read);
                        continue;
                    }
                    if read == EVENT_MSG_LINE_TYPE {
                        // The payload is what is left to read.
                        let mut event = None;
                        if let Some(Key::Payload) = map.next_key::<Key>()? {
                            // Stops early (an error) once it has what it needs.
                            let _ = map.next_value_seed(EventSkimmer { found: &mut event });
                        }
                        *self.found = event.map(|kind| Skimmed {
                            ordinal: ordinal.flatten(),
                            kind,
                        });
                        return Err(stop());
                    }
                    *self.found = Some(Skimmed {
                        ordinal: ordinal.flatten(),
                        kind: SkimmedKind::Untyped {
                            line_type: read.into(),
                        },
                    });
                    return Err(stop());
                }
                Key::Payload
                    if response.is_none() && line_type.as_deref() == Some("response_item") =>
                {
                    response = Some(map.next_value_seed(ItemSkimmer)?);
                }
                Key::Other(name) if name == LINE_METADATA_KEY && metadata.is_none() => {
                    metadata = Some(map.next_value()?);
                }
                // Anything else (a payload before its type, a duplicate key, another key): the
                // full parse decides.
                Key::Timestamp | Key::Ordinal | Key::Type | Key::Payload | Key::Other(_) => {
                    return Err(stop());
                }
            }
        }
        if let Some(id) = response {
            let metadata = match metadata {
                Some(Value::Object(metadata)) => Some(metadata),
                Some(_) | None => None,
            };
            *self.found = Some(Skimmed {
                ordinal: ordinal.flatten(),
                kind: SkimmedKind::Response { id, metadata },
            });
        }
        Ok(())
    }
}

/// Reads a response item's payload for its id; declines the user's messages and item types
/// not in [`SKIMMED_ITEM_TYPES`].
struct ItemSkimmer;

impl<'de> DeserializeSeed<'de> for ItemSkimmer {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemSkimmer {
    type Value = Option<String>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a response item")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut item_type: Option<String> = None;
        let mut id: Option<Option<String>> = None;
        while let Some(key) = map.next_key::<ItemKey>()? {
            match key {
                ItemKey::Type if item_type.is_none() => {
                    let read: String = map.next_value()?;
                    if !SKIMMED_ITEM_TYPES.contains(&read.as_str()) {
                        return Err(stop());
                    }
                    item_type = Some(read);
                }
                ItemKey::Id if id.is_none() => id = Some(map.next_value()?),
                ItemKey::Role => {
                    let role: String = map.next_value()?;
                    if role == "user" || item_type.is_none() {
                        return Err(stop());
                    }
                }
                ItemKey::Type | ItemKey::Id => return Err(stop()),
                ItemKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match item_type {
            // A message without a role is for the full parse to judge.
            Some(_) => Ok(id.flatten()),
            None => Err(stop()),
        }
    }
}

enum ItemKey {
    Type,
    Id,
    Role,
    Other,
}

impl<'de> Deserialize<'de> for ItemKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ItemKeyVisitor;
        impl Visitor<'_> for ItemKeyVisitor {
            type Value = ItemKey;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a response item key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<ItemKey, E> {
                Ok(match key {
                    "type" => ItemKey::Type,
                    "id" => ItemKey::Id,
                    "role" => ItemKey::Role,
                    _ => ItemKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(ItemKeyVisitor)
    }
}

/// Reads an event payload up to its type and turn id (and a rollback's turn count) into
/// `found`, then stops reading (with an error, which the caller expects).
struct EventSkimmer<'a> {
    found: &'a mut Option<SkimmedKind>,
}

impl<'de> DeserializeSeed<'de> for EventSkimmer<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EventSkimmer<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an event payload")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut event_type: Option<String> = None;
        let mut turn_id: Option<Option<String>> = None;
        let mut num_turns: Option<Option<u64>> = None;
        let mut complete = false;
        while let Some(key) = map.next_key::<EventKey>()? {
            match key {
                EventKey::Type if event_type.is_none() => event_type = Some(map.next_value()?),
                EventKey::TurnId if turn_id.is_none() => turn_id = Some(map.next_value()?),
                EventKey::NumTurns if num_turns.is_none() => {
                    // Anything but a count reads as none, as the full read does.
                    let value: Value = map.next_value()?;
                    num_turns = Some(value.as_u64());
                }
                EventKey::Type | EventKey::TurnId | EventKey::NumTurns => return Err(stop()),
                EventKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            let rollback = event_type.as_deref() == Some(event_types::THREAD_ROLLED_BACK);
            if event_type.is_some() && turn_id.is_some() && (!rollback || num_turns.is_some()) {
                complete = true;
                break;
            }
        }
        let turns = num_turns
            .flatten()
            .map_or(0, |turns| usize::try_from(turns).unwrap_or(usize::MAX));
        *self.found = Some(SkimmedKind::Event {
            event: EventFact::of(event_type.as_deref(), turns),
            turn_id: turn_id.flatten().map(Box::from),
            token_count: event_type.as_deref() == Some(TOKEN_COUNT_EVENT_TYPE),
        });
        match complete {
            // Nothing further is read of this payload.
            true => Err(stop()),
            false => Ok(()),
        }
    }
}

enum EventKey {
    Type,
    TurnId,
    NumTurns,
    Other,
}

impl<'de> Deserialize<'de> for EventKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EventKeyVisitor;
        impl Visitor<'_> for EventKeyVisitor {
            type Value = EventKey;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an event payload key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<EventKey, E> {
                Ok(match key {
                    "type" => EventKey::Type,
                    "turn_id" => EventKey::TurnId,
                    "num_turns" => EventKey::NumTurns,
                    _ => EventKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(EventKeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn skim(line: serde_json::Value) -> Option<Skimmed> {
        skim_line(line.to_string().as_bytes())
    }

    fn line(line_type: &str, payload: serde_json::Value) -> serde_json::Value {
        json!({"timestamp": "2026-03-02T19:13:52.656Z", "ordinal": 7, "type": line_type, "payload": payload})
    }

    #[test]
    fn response_items_give_their_id_and_metadata() {
        let mut call = line(
            "response_item",
            json!({"type": "function_call", "id": "fc_1", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"}),
        );
        call["metadata"] = json!({"history_sequence": 4, "sampled_through_sequence": 2});
        let expected_metadata = json!({"history_sequence": 4, "sampled_through_sequence": 2});
        assert_eq!(
            skim(call),
            Some(Skimmed {
                ordinal: Some(7),
                kind: SkimmedKind::Response {
                    id: Some("fc_1".to_string()),
                    metadata: expected_metadata.as_object().cloned(),
                },
            })
        );
        let assistant = line(
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}),
        );
        assert_eq!(
            skim(assistant),
            Some(Skimmed {
                ordinal: Some(7),
                kind: SkimmedKind::Response {
                    id: None,
                    metadata: None,
                },
            })
        );
    }

    #[test]
    fn events_stop_after_their_type_and_turn() {
        // The rest of the payload is not read: damage there goes unnoticed.
        let text = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","turn_id":"t1","item":{"broken"#;
        assert_eq!(
            skim_line(text.as_bytes()),
            Some(Skimmed {
                ordinal: None,
                kind: SkimmedKind::Event {
                    event: EventFact::Other,
                    turn_id: Some("t1".into()),
                    token_count: false,
                },
            })
        );
        let rollback = line(
            "event_msg",
            json!({"type": "thread_rolled_back", "turn_id": "t2", "num_turns": 2}),
        );
        assert_eq!(
            skim(rollback).map(|skimmed| skimmed.kind),
            Some(SkimmedKind::Event {
                event: EventFact::RolledBack(2),
                turn_id: Some("t2".into()),
                token_count: false,
            })
        );
        let usage = line("event_msg", json!({"type": "token_count", "info": null}));
        assert_eq!(
            skim(usage).map(|skimmed| skimmed.kind),
            Some(SkimmedKind::Event {
                event: EventFact::Other,
                turn_id: None,
                token_count: true,
            })
        );
        assert_eq!(
            skim(line("token_usage_record", json!({"anything": [1, 2]})))
                .map(|skimmed| skimmed.kind),
            Some(SkimmedKind::Untyped {
                line_type: "token_usage_record".into()
            })
        );
    }

    #[test]
    fn lines_a_resume_reads_or_shaped_otherwise_are_declined() {
        let declined = [
            line("session_meta", json!({"id": "t"})),
            line("turn_context", json!({"turn_id": "t1"})),
            line("world_state", json!({"full": true, "state": {}})),
            line("compacted", json!({"message": ""})),
            line(
                "response_item",
                json!({"type": "message", "role": "user", "content": []}),
            ),
            line(
                "response_item",
                json!({"type": "compaction", "encrypted_content": "x"}),
            ),
            // The payload before the type.
            json!({"timestamp": "t", "payload": {"type": "task_started"}, "type": "event_msg"}),
        ];
        for line in declined {
            assert_eq!(skim(line.clone()), None, "{line}");
        }
        assert_eq!(skim_line(b"{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\"}} x"), None);
        assert_eq!(skim_line(b"not json"), None);
        // A duplicate key.
        let duplicate = r#"{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","id":"a","id":"b"}}"#;
        assert_eq!(skim_line(duplicate.as_bytes()), None);
    }
}
