//! Reading and writing [`ResponseItem`]: the derived code (generated as inherent functions by
//! `remote = "Self"`) does the typed variants; these impls read the `type` tag first and give
//! the derived code the rest of the item to move out of, and keep unknown types as raw JSON.

use std::fmt;

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;
use serde::de;
use serde::de::DeserializeSeed;
use serde::de::IntoDeserializer as _;
use serde::de::MapAccess;
use serde::de::Visitor;
use serde::de::value::MapAccessDeserializer;
use serde_json::Map;
use serde_json::Value;

use super::RESPONSE_ITEM_TAGS;
use super::ResponseItem;

impl Serialize for ResponseItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            // Written back unchanged.
            Self::Other(value) => value.serialize(serializer),
            typed => ResponseItem::serialize(typed, serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ResponseItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ItemVisitor)
    }
}

struct ItemVisitor;

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = ResponseItem;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a response item: an object with a string `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResponseItem, A::Error> {
        let first: Option<String> = map.next_key()?;
        if first.as_deref() == Some("type") {
            // The common case: the tag leads, the rest is read straight into its variant.
            let tag: String = map.next_value()?;
            if RESPONSE_ITEM_TAGS.contains(&tag.as_str()) {
                return ResponseItem::deserialize(MapAccessDeserializer::new(TagFirst {
                    tag: Some(tag),
                    rest: map,
                }));
            }
            let mut object = Map::new();
            object.insert("type".to_string(), Value::String(tag));
            while let Some((key, value)) = map.next_entry::<String, Value>()? {
                object.insert(key, value);
            }
            return Ok(ResponseItem::Other(Value::Object(object)));
        }
        // The tag comes later: the object is read whole, then typed.
        let mut object = Map::new();
        if let Some(key) = first {
            let value: Value = map.next_value()?;
            object.insert(key, value);
        }
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        match object.get("type") {
            None => Err(de::Error::missing_field("type")),
            Some(Value::String(tag)) if RESPONSE_ITEM_TAGS.contains(&tag.as_str()) => {
                ResponseItem::deserialize(Value::Object(object)).map_err(de::Error::custom)
            }
            Some(Value::String(_)) => Ok(ResponseItem::Other(Value::Object(object))),
            Some(_) => Err(de::Error::custom("field `type` must be a string")),
        }
    }
}

/// A map whose `type` entry, already read, is handed out again before the rest.
struct TagFirst<A> {
    tag: Option<String>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TagFirst<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.tag {
            Some(_) => seed.deserialize("type".into_deserializer()).map(Some),
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.tag.take() {
            Some(tag) => seed.deserialize(tag.into_deserializer()),
            None => self.rest.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.rest
            .size_hint()
            .map(|rest| rest + usize::from(self.tag.is_some()))
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn read(text: &str) -> Result<ResponseItem, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }

    #[test]
    fn an_item_reads_the_same_whether_its_type_leads_or_not() {
        let expected = ResponseItem::FunctionCallOutput {
            id: None,
            call_id: Some("call_1".to_string()),
            name: None,
            namespace: None,
            output: super::super::FunctionCallOutputPayload::from_text("done"),
            internal_chat_message_metadata_passthrough: None,
        };
        let leading = r#"{"type":"function_call_output","call_id":"call_1","output":"done"}"#;
        let later = r#"{"call_id":"call_1","output":"done","type":"function_call_output"}"#;
        assert_eq!(read(leading), Ok(expected.clone()));
        assert_eq!(read(later), Ok(expected.clone()));
        assert_eq!(
            serde_json::to_string(&expected).expect("JSON"),
            leading.to_string()
        );
    }

    #[test]
    fn an_unknown_type_is_kept_raw_and_a_malformed_or_untyped_item_is_refused() {
        let unknown = json!({"type": "future_item", "z": 1, "a": [true]});
        let text = unknown.to_string();
        assert_eq!(read(&text), Ok(ResponseItem::Other(unknown.clone())));
        assert_eq!(
            serde_json::to_string(&ResponseItem::Other(unknown)).expect("JSON"),
            text
        );
        let later = r#"{"z":1,"type":"future_item"}"#;
        assert_eq!(
            read(later),
            Ok(ResponseItem::Other(json!({"z": 1, "type": "future_item"})))
        );
        assert_eq!(
            read(r#"{"type":"function_call_output","call_id":"c"}"#),
            Err("missing field `output` at line 1 column 45".to_string())
        );
        assert_eq!(
            read(r#"{"call_id":"c"}"#),
            Err("missing field `type` at line 1 column 15".to_string())
        );
        assert_eq!(
            read(r#"{"call_id":"c","type":7}"#),
            Err("field `type` must be a string at line 1 column 24".to_string())
        );
    }
}
