//! The key sets of a rollout's lines, read from the raw JSON: per line type (`event_msg` and
//! `response_item` lines by their payload's `type`), the keys of the line and of its payload,
//! and the section keys of each `world_state` record in file order. `compare` sees typed
//! lines, which keep neither unknown payload keys nor the order of world-state sections.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use serde_json::Value;

/// The line and payload keys seen for one line type, over every line of that type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineKeys {
    pub line: BTreeSet<String>,
    pub payload: BTreeSet<String>,
}

/// What the key comparison reads from one rollout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RolloutShape {
    pub keys: BTreeMap<String, LineKeys>,
    /// The `state` keys of each `world_state` line, in file order.
    pub world_state_sections: Vec<Vec<String>>,
    /// Per `turn_context` line, the values of [`TURN_SETTINGS`] (`None` when absent).
    pub turn_settings: Vec<Vec<Option<String>>>,
    /// Lines that are not JSON objects (1-based numbers).
    pub unreadable: Vec<usize>,
}

/// `turn_context` settings compared by value: protocol enums and slugs, never ids, paths or
/// dates. Each is a JSON pointer into the payload.
pub const TURN_SETTINGS: [&str; 6] = [
    "/model",
    "/approval_policy",
    "/approvals_reviewer",
    "/sandbox_policy/type",
    "/personality",
    "/collaboration_mode/mode",
];

/// `event_msg/task_started`, `response_item/message`, `turn_context`, ….
fn line_type(line: &Value) -> String {
    let kind = line
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("<untyped>");
    let payload_type = line
        .get("payload")
        .and_then(|payload| payload.get("type"))
        .and_then(Value::as_str);
    match payload_type {
        Some(inner) if kind == "event_msg" || kind == "response_item" => format!("{kind}/{inner}"),
        Some(_) | None => kind.to_string(),
    }
}

pub fn rollout_shape(text: &str) -> RolloutShape {
    let mut shape = RolloutShape::default();
    for (index, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let Ok(Value::Object(line)) = serde_json::from_str::<Value>(raw) else {
            shape.unreadable.push(index + 1);
            continue;
        };
        let value = Value::Object(line);
        let kind = line_type(&value);
        let entry = shape.keys.entry(kind.clone()).or_default();
        if let Value::Object(line) = &value {
            entry.line.extend(line.keys().cloned());
        }
        if let Some(Value::Object(payload)) = value.get("payload") {
            entry.payload.extend(payload.keys().cloned());
            if kind == "turn_context" {
                let payload = Value::Object(payload.clone());
                shape.turn_settings.push(
                    TURN_SETTINGS
                        .iter()
                        .map(|pointer| payload.pointer(pointer).map(ToString::to_string))
                        .collect(),
                );
            }
            if kind == "world_state"
                && let Some(Value::Object(state)) = payload.get("state")
            {
                shape
                    .world_state_sections
                    .push(state.keys().cloned().collect());
            }
        }
    }
    shape
}

/// One line per difference, `A` being `a`: keys of a line type both rollouts have, and the
/// order of the sections of world-state records with the same sections.
pub fn shape_differences(a: &RolloutShape, b: &RolloutShape) -> Vec<String> {
    let mut differences = Vec::new();
    for (side, shape) in [("A", a), ("B", b)] {
        if let Some(line) = shape.unreadable.first() {
            differences.push(format!(
                "rollout: line {line} of {side} is not a JSON object"
            ));
        }
    }
    for (kind, keys_a) in &a.keys {
        let Some(keys_b) = b.keys.get(kind) else {
            continue;
        };
        for (what, set_a, set_b) in [
            ("keys", &keys_a.line, &keys_b.line),
            ("payload keys", &keys_a.payload, &keys_b.payload),
        ] {
            for (side, only) in [
                ("A", set_a.difference(set_b).cloned().collect::<Vec<_>>()),
                ("B", set_b.difference(set_a).cloned().collect::<Vec<_>>()),
            ] {
                if !only.is_empty() {
                    differences.push(format!(
                        "rollout: {kind} {what} [{}] only in {side}",
                        only.join(", ")
                    ));
                }
            }
        }
    }
    for (sections_a, sections_b) in a.world_state_sections.iter().zip(&b.world_state_sections) {
        let (mut sorted_a, mut sorted_b) = (sections_a.clone(), sections_b.clone());
        sorted_a.sort();
        sorted_b.sort();
        if sorted_a == sorted_b && sections_a != sections_b {
            differences.push(format!(
                "rollout: world_state section order [{}] != [{}]",
                sections_a.join(", "),
                sections_b.join(", ")
            ));
        }
    }
    for (index, (settings_a, settings_b)) in
        a.turn_settings.iter().zip(&b.turn_settings).enumerate()
    {
        for (pointer, (value_a, value_b)) in
            TURN_SETTINGS.iter().zip(settings_a.iter().zip(settings_b))
        {
            if value_a != value_b {
                let show =
                    |value: &Option<String>| value.clone().unwrap_or_else(|| "absent".to_string());
                differences.push(format!(
                    "rollout: turn_context {} {}: {} != {}",
                    index + 1,
                    pointer.trim_start_matches('/'),
                    show(value_a),
                    show(value_b)
                ));
            }
        }
    }
    differences.dedup();
    differences
}
