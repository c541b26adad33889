//! RFC 7386 (JSON Merge Patch) generation and application.
//!
//! The format cannot express "set this key to `null`": a `null` in a patch always means
//! "remove". Round trips are therefore exact only for documents without `null` values.

use serde_json::Map;
use serde_json::Value;

/// The merge patch that turns `previous` into `current`, or `None` when they are equal.
///
/// Keys removed from an object come first (as `null`, in `previous`'s key order), then added or
/// changed keys in `current`'s key order, as upstream writes its world-state patches
/// (codex-rs/core/src/context/world_state/mod.rs): a snapshot serialized from a struct keeps
/// its field order in the patch. Objects are diffed recursively; any other value (arrays
/// included) is replaced whole.
pub fn create_merge_patch(previous: &Value, current: &Value) -> Option<Value> {
    if previous == current {
        return None;
    }
    let Value::Object(current_map) = current else {
        return Some(current.clone());
    };
    let mut patch = Map::new();
    if let Value::Object(previous_map) = previous {
        for key in previous_map
            .keys()
            .filter(|key| !current_map.contains_key(key.as_str()))
        {
            patch.insert(key.clone(), Value::Null);
        }
    }
    for (key, current_value) in current_map {
        let entry = match previous.get(key.as_str()) {
            Some(previous_value) => create_merge_patch(previous_value, current_value),
            None => Some(current_value.clone()),
        };
        if let Some(entry) = entry {
            patch.insert(key.clone(), entry);
        }
    }
    // Only reachable with an empty object when `previous` was not an object and `current` is
    // `{}`; the empty patch is still meaningful then, as it turns the target into `{}`.
    Some(Value::Object(patch))
}

/// Applies an RFC 7386 merge `patch` to `target` in place.
///
/// A non-object patch replaces the target. An object patch first turns a non-object target
/// into `{}`, then per key: `null` removes the key, anything else is merged into the existing
/// value (or into `null` when the key is new, which drops nested `null`s). Surviving keys keep
/// their relative order.
pub fn apply_merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(target_map) = target {
        for (key, patch_value) in patch_map {
            if patch_value.is_null() {
                target_map.shift_remove(key.as_str());
            } else {
                let slot = target_map.entry(key.clone()).or_insert(Value::Null);
                apply_merge_patch(slot, patch_value);
            }
        }
    }
}

#[cfg(test)]
#[path = "merge_patch_tests.rs"]
mod tests;
