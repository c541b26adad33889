//! Reading and writing tagged enums whose derived code (generated as inherent functions by
//! `remote = "Self"`) does the typed variants: these impls read the `type` tag first and give
//! the derived code the rest of the object to move out of, and keep unknown types as raw JSON.
//! [`ResponseItem`] and [`ContentItem`] are read this way: serde's own reading of a tagged enum
//! with an untagged fallback buffers each object and copies every string out of the buffer.

use std::fmt;
use std::marker::PhantomData;

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

use super::ContentItem;
use super::RESPONSE_ITEM_TAGS;
use super::ResponseItem;

/// A tagged enum read tag first, with unknown tags kept as raw JSON.
///
/// Implementations must list in `TAGS` every tag `known` reads, `known` must read a typed
/// variant from a map (the derived code), and `unknown` must keep the object it is given
/// unchanged, so that it is written back byte for byte.
trait TagFirstEnum: Sized {
    const TAGS: &'static [&'static str];
    const EXPECTING: &'static str;
    fn known<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
    fn unknown(object: Value) -> Self;
}

impl TagFirstEnum for ResponseItem {
    const TAGS: &'static [&'static str] = RESPONSE_ITEM_TAGS;
    const EXPECTING: &'static str = "a response item: an object with a string `type`";

    fn known<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ResponseItem::deserialize(deserializer)
    }

    fn unknown(object: Value) -> Self {
        Self::Other(object)
    }
}

impl TagFirstEnum for ContentItem {
    const TAGS: &'static [&'static str] =
        &["input_text", "input_image", "input_audio", "output_text"];
    const EXPECTING: &'static str = "a content part: an object with a string `type`";

    fn known<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ContentItem::deserialize(deserializer)
    }

    fn unknown(object: Value) -> Self {
        Self::Other(object)
    }
}

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
        deserializer.deserialize_map(TagFirstVisitor(PhantomData))
    }
}

impl Serialize for ContentItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            // Written back unchanged.
            Self::Other(value) => value.serialize(serializer),
            typed => ContentItem::serialize(typed, serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ContentItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TagFirstVisitor(PhantomData))
    }
}

struct TagFirstVisitor<T>(PhantomData<T>);

impl<'de, T: TagFirstEnum> Visitor<'de> for TagFirstVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let first: Option<String> = map.next_key()?;
        if first.as_deref() == Some("type") {
            // The common case: the tag leads, the rest is read straight into its variant.
            let tag: String = map.next_value()?;
            if T::TAGS.contains(&tag.as_str()) {
                return T::known(MapAccessDeserializer::new(TagFirst {
                    tag: Some(tag),
                    rest: map,
                }));
            }
            let mut object = Map::new();
            object.insert("type".to_string(), Value::String(tag));
            while let Some((key, value)) = map.next_entry::<String, Value>()? {
                object.insert(key, value);
            }
            return Ok(T::unknown(Value::Object(object)));
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
            Some(Value::String(tag)) if T::TAGS.contains(&tag.as_str()) => {
                T::known(Value::Object(object)).map_err(de::Error::custom)
            }
            Some(Value::String(_)) => Ok(T::unknown(Value::Object(object))),
            Some(_) => Err(de::Error::custom("field `type` must be a string")),
        }
    }
}

/// The map being read, with its `type` entry (already taken) handed out again first.
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

    #[test]
    fn content_parts_read_tag_first_and_keep_unknown_types_raw() {
        let part =
            |text: &str| serde_json::from_str::<ContentItem>(text).map_err(|e| e.to_string());
        assert_eq!(
            part(r#"{"type":"input_text","text":"hi"}"#),
            Ok(ContentItem::input_text("hi"))
        );
        assert_eq!(
            part(r#"{"text":"hi","type":"input_text"}"#),
            Ok(ContentItem::input_text("hi"))
        );
        let unknown = json!({"type": "input_file", "file_id": "f1"});
        assert_eq!(
            part(&unknown.to_string()),
            Ok(ContentItem::Other(unknown.clone()))
        );
        assert_eq!(
            serde_json::to_string(&ContentItem::Other(unknown.clone())).expect("JSON"),
            unknown.to_string()
        );
        assert_eq!(
            part(r#"{"type":"input_text"}"#),
            Err("missing field `text` at line 1 column 21".to_string())
        );
        assert_eq!(
            serde_json::to_string(&ContentItem::output_text("ok")).expect("JSON"),
            r#"{"type":"output_text","text":"ok"}"#
        );
    }
}
