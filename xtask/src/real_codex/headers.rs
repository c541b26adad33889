//! Comparing the HTTP headers of two `/responses` requests: which names each sends, the
//! values of the headers that are neither secrets nor ids, the product token of
//! `user-agent`, and the key set of the `x-codex-turn-metadata` JSON.

use std::collections::BTreeSet;

use serde_json::Value;

/// Headers whose values are protocol facts, compared as sent.
const VALUE_HEADERS: [&str; 5] = [
    "accept",
    "content-type",
    "originator",
    "x-codex-beta-features",
    "x-openai-internal-codex-responses-lite",
];
/// Set by the HTTP stack per connection, not by the client's code.
const TRANSPORT_HEADERS: [&str; 3] = ["host", "content-length", "connection"];
const USER_AGENT: &str = "user-agent";
const TURN_METADATA: &str = "x-codex-turn-metadata";

fn value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// The product before the version: `codex_exec` of `codex_exec/0.149.1 (…)`.
fn product(user_agent: &str) -> &str {
    user_agent.split(['/', ' ']).next().unwrap_or("")
}

/// The key set of a JSON-object header value (`None` when it is not one).
pub fn json_keys(text: &str) -> Option<BTreeSet<String>> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(map) => Some(map.keys().cloned().collect()),
        _ => None,
    }
}

/// One line per difference, `A` being `a`.
pub fn header_differences(a: &[(String, String)], b: &[(String, String)]) -> Vec<String> {
    let names = |headers: &[(String, String)]| -> BTreeSet<String> {
        headers
            .iter()
            .map(|(name, _)| name.clone())
            .filter(|name| !TRANSPORT_HEADERS.contains(&name.as_str()))
            .collect()
    };
    let (names_a, names_b) = (names(a), names(b));
    let mut differences = Vec::new();
    for (side, only) in [
        ("A", names_a.difference(&names_b).collect::<Vec<_>>()),
        ("B", names_b.difference(&names_a).collect::<Vec<_>>()),
    ] {
        for name in only {
            differences.push(format!("header {name} only in {side}"));
        }
    }
    for name in VALUE_HEADERS {
        if let (Some(value_a), Some(value_b)) = (value(a, name), value(b, name))
            && value_a != value_b
        {
            differences.push(format!("header {name}: {value_a:?} != {value_b:?}"));
        }
    }
    if let (Some(agent_a), Some(agent_b)) = (value(a, USER_AGENT), value(b, USER_AGENT))
        && product(agent_a) != product(agent_b)
    {
        differences.push(format!(
            "header {USER_AGENT} product {:?} != {:?}",
            product(agent_a),
            product(agent_b)
        ));
    }
    if let (Some(meta_a), Some(meta_b)) = (value(a, TURN_METADATA), value(b, TURN_METADATA)) {
        let (keys_a, keys_b) = (
            json_keys(meta_a).unwrap_or_default(),
            json_keys(meta_b).unwrap_or_default(),
        );
        for (side, only) in [
            ("A", keys_a.difference(&keys_b).cloned().collect::<Vec<_>>()),
            ("B", keys_b.difference(&keys_a).cloned().collect::<Vec<_>>()),
        ] {
            if !only.is_empty() {
                differences.push(format!(
                    "header {TURN_METADATA} keys [{}] only in {side}",
                    only.join(", ")
                ));
            }
        }
    }
    differences
}
