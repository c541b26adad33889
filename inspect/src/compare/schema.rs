//! The structure of tool lists and JSON objects, without their prose: tools by name (inside
//! namespaces too), each tool's type, keys and parameter keys; the key sets of objects whose
//! values are volatile (`client_metadata` and the turn-metadata JSON it carries).

use std::collections::BTreeSet;

use serde_json::Map;
use serde_json::Value;

use super::align::common_subsequence;
use super::report::DifferenceDetail;
use super::report::Side;
use super::shape::tool_names;

/// Keys of a tool spec that hold prose.
const PROSE_KEYS: [&str; 1] = ["description"];

/// Tools only on one side, a different order, and for tools on both sides their type, keys
/// and parameter keys; namespaces on both sides are compared tool by tool, their tools named
/// `namespace/tool`.
pub(super) fn tool_list_differences(a: &[Value], b: &[Value]) -> Vec<DifferenceDetail> {
    let mut differences = Vec::new();
    push_tool_list(a, b, "", &mut differences);
    differences
}

fn push_tool_list(a: &[Value], b: &[Value], prefix: &str, differences: &mut Vec<DifferenceDetail>) {
    let qualify = |names: Vec<String>| -> Vec<String> {
        names
            .into_iter()
            .map(|name| format!("{prefix}{name}"))
            .collect()
    };
    let (names_a, names_b) = (qualify(tool_names(a)), qualify(tool_names(b)));
    differences.extend(name_differences(&names_a, &names_b));
    for (index_a, name) in names_a.iter().enumerate() {
        let Some(index_b) = names_b.iter().position(|other| other == name) else {
            continue;
        };
        let (tool_a, tool_b) = (&a[index_a], &b[index_b]);
        let aspect = |aspect: &str, a: Vec<String>, b: Vec<String>| DifferenceDetail::ToolShape {
            tool: name.clone(),
            aspect: aspect.to_string(),
            a,
            b,
        };
        let kind = |tool: &Value| {
            vec![
                tool.get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("<untyped>")
                    .to_string(),
            ]
        };
        if kind(tool_a) != kind(tool_b) {
            differences.push(aspect("type", kind(tool_a), kind(tool_b)));
            continue;
        }
        let keys = |tool: &Value| -> Vec<String> {
            sorted_keys(tool.as_object())
                .into_iter()
                .filter(|key| !PROSE_KEYS.contains(&key.as_str()))
                .collect()
        };
        if keys(tool_a) != keys(tool_b) {
            differences.push(aspect("keys", keys(tool_a), keys(tool_b)));
        }
        let parameters = |tool: &Value| {
            sorted_keys(
                tool.get("parameters")
                    .and_then(|parameters| parameters.get("properties"))
                    .and_then(Value::as_object),
            )
        };
        if parameters(tool_a) != parameters(tool_b) {
            differences.push(aspect("parameters", parameters(tool_a), parameters(tool_b)));
        }
        if let (Some(inner_a), Some(inner_b)) = (
            tool_a.get("tools").and_then(Value::as_array),
            tool_b.get("tools").and_then(Value::as_array),
        ) {
            push_tool_list(inner_a, inner_b, &format!("{name}/"), differences);
        }
    }
}

/// Names only on one side, or (same names) a different order.
pub(super) fn name_differences(a: &[String], b: &[String]) -> Vec<DifferenceDetail> {
    let common = common_subsequence(a, b);
    let mut differences = Vec::new();
    for (side, names, other) in [(Side::A, a, b), (Side::B, b, a)] {
        for name in names {
            if !other.contains(name) {
                differences.push(DifferenceDetail::ToolOnlyIn {
                    side,
                    name: name.clone(),
                });
            }
        }
    }
    if differences.is_empty() && common.len() != a.len() {
        differences.push(DifferenceDetail::ToolOrder {
            a: a.to_vec(),
            b: b.to_vec(),
        });
    }
    differences
}

fn sorted_keys(object: Option<&Map<String, Value>>) -> Vec<String> {
    let mut keys: Vec<String> = object
        .map(|object| object.keys().cloned().collect())
        .unwrap_or_default();
    keys.sort();
    keys
}

/// The keys each side has and the other lacks (order ignored).
pub(super) fn key_set_differences(a: &[String], b: &[String]) -> Vec<DifferenceDetail> {
    let (set_a, set_b): (BTreeSet<&String>, BTreeSet<&String>) =
        (a.iter().collect(), b.iter().collect());
    [(Side::A, &set_a, &set_b), (Side::B, &set_b, &set_a)]
        .into_iter()
        .filter_map(|(side, this, other)| {
            let only: Vec<String> = this.difference(other).map(|key| (*key).clone()).collect();
            (!only.is_empty()).then_some(DifferenceDetail::KeysOnlyIn { side, keys: only })
        })
        .collect()
}

/// The keys of `value` as an object, or of the JSON object a string holds.
pub(super) fn object_keys(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Object(object) => Some(object.keys().cloned().collect()),
        Value::String(text) => match serde_json::from_str::<Value>(text).ok()? {
            Value::Object(object) => Some(object.keys().cloned().collect()),
            _ => None,
        },
        _ => None,
    }
}
