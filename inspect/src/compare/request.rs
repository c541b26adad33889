//! Comparing one pair of request bodies: the top-level fields, then the aligned `input` items.

use serde_json::Value;

use super::ProseMode;
use super::align::align;
use super::report::Difference;
use super::report::DifferenceDetail;
use super::report::Position;
use super::report::ProseDifference;
use super::report::Side;
use super::schema::key_set_differences;
use super::schema::object_keys;
use super::schema::tool_list_differences;
use super::shape::EntryClass;
use super::shape::ItemShape;
use super::shape::base_instructions_item;
use super::shape::item_shape;
use super::structure::fixed_structure_differences;

/// Top-level fields compared by value. `model`, `prompt_cache_key`, `client_metadata` and the
/// rest are volatile or not part of the context's structure: only their presence, the order
/// of all top-level keys and the key sets of [`KEY_SET_FIELDS`] are compared.
const VALUE_FIELDS: [&str; 6] = [
    "parallel_tool_calls",
    "reasoning",
    "include",
    "store",
    "stream",
    "text",
];

/// Top-level objects compared by their key sets (their values are ids and times).
const KEY_SET_FIELDS: [&str; 1] = ["client_metadata"];

/// A `client_metadata` entry holding a JSON object, compared by its key set.
const TURN_METADATA_KEY: &str = "x-codex-turn-metadata";

/// What comparing request pairs has found so far.
#[derive(Debug, Default)]
pub(super) struct Findings {
    pub differences: Vec<Difference>,
    pub prose: Vec<ProseDifference>,
}

/// Compares request pair `request` (1-based).
pub(super) fn compare_request(
    request: usize,
    a: &Value,
    b: &Value,
    prose: ProseMode,
    findings: &mut Findings,
) {
    let difference = |position: Position, detail: DifferenceDetail| Difference {
        request: Some(request),
        position,
        detail,
    };
    let field = |name: &str| Position::Field {
        field: name.to_string(),
    };

    match (a.get("instructions"), b.get("instructions")) {
        (Some(text_a), Some(text_b)) => {
            if let (ProseMode::Show, Some(text_a), Some(text_b)) =
                (prose, text_a.as_str(), text_b.as_str())
                && text_a != text_b
            {
                findings.prose.push(ProseDifference {
                    request,
                    position: field("instructions"),
                    classification: "instructions".to_string(),
                    diff: unified_diff(text_a, text_b),
                });
            }
        }
        (None, None) => {}
        (text_a, text_b) => findings.differences.push(difference(
            field("instructions"),
            DifferenceDetail::FieldPresence {
                a: text_a.is_some(),
                b: text_b.is_some(),
            },
        )),
    }

    match (
        a.get("tools").and_then(Value::as_array),
        b.get("tools").and_then(Value::as_array),
    ) {
        (Some(tools_a), Some(tools_b)) => {
            for detail in tool_list_differences(tools_a, tools_b) {
                findings
                    .differences
                    .push(difference(field("tools"), detail));
            }
        }
        (None, None) => {}
        (tools_a, tools_b) => findings.differences.push(difference(
            field("tools"),
            DifferenceDetail::FieldPresence {
                a: tools_a.is_some(),
                b: tools_b.is_some(),
            },
        )),
    }

    for name in VALUE_FIELDS {
        let detail = match (a.get(name), b.get(name)) {
            (Some(value_a), Some(value_b)) if value_a == value_b => continue,
            (None, None) => continue,
            (Some(value_a), Some(value_b)) => DifferenceDetail::FieldValue {
                a: value_a.clone(),
                b: value_b.clone(),
            },
            (value_a, value_b) => DifferenceDetail::FieldPresence {
                a: value_a.is_some(),
                b: value_b.is_some(),
            },
        };
        findings.differences.push(difference(field(name), detail));
    }
    if let Some(detail) = key_order_difference(a, b) {
        findings
            .differences
            .push(difference(Position::Request, detail));
    }
    for (name, present_a, present_b) in other_field_presence(a, b) {
        findings.differences.push(difference(
            field(&name),
            DifferenceDetail::FieldPresence {
                a: present_a,
                b: present_b,
            },
        ));
    }
    for name in KEY_SET_FIELDS {
        let (Some(value_a), Some(value_b)) = (a.get(name), b.get(name)) else {
            continue;
        };
        if let (Some(keys_a), Some(keys_b)) = (object_keys(value_a), object_keys(value_b)) {
            for detail in key_set_differences(&keys_a, &keys_b) {
                findings.differences.push(difference(field(name), detail));
            }
        }
        if let (Some(meta_a), Some(meta_b)) = (
            value_a.get(TURN_METADATA_KEY).and_then(object_keys),
            value_b.get(TURN_METADATA_KEY).and_then(object_keys),
        ) {
            for detail in key_set_differences(&meta_a, &meta_b) {
                findings.differences.push(difference(
                    field(&format!("{name}.{TURN_METADATA_KEY}")),
                    detail,
                ));
            }
        }
    }

    let [items_a, items_b] = [a, b].map(|body| {
        let base_instructions = base_instructions_item(body);
        body.get("input")
            .and_then(Value::as_array)
            .map(|input| {
                input
                    .iter()
                    .enumerate()
                    .map(|(index, item)| item_shape(item, base_instructions == Some(index)))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    let keys = |items: &[ItemShape<'_>]| -> Vec<String> {
        items
            .iter()
            .map(|item| item.alignment_key.clone())
            .collect()
    };
    // Items with a role (messages, `additional_tools`) can change in place and are compared
    // in detail; tool calls and outputs correspond only by signature, and base instructions
    // sent as a message only to base instructions.
    let alignment = align(&keys(&items_a), &keys(&items_b), |i, j| {
        items_a[i].item_type == items_b[j].item_type
            && items_a[i].role.is_some()
            && items_b[j].role.is_some()
            && items_a[i].is_base_instructions() == items_b[j].is_base_instructions()
    });

    // Item findings are reported in A's order; an item only in B comes just before the first
    // in-sequence pair that follows it in B.
    let mut item_findings: Vec<((usize, u8, usize), Findings)> = Vec::new();
    let pairs = alignment
        .matched
        .iter()
        .map(|pair| (pair, PairKind::Matched))
        .chain(alignment.moved.iter().map(|pair| (pair, PairKind::Moved)))
        .chain(
            alignment
                .changed
                .iter()
                .map(|pair| (pair, PairKind::Changed)),
        );
    for (&(i, j), kind) in pairs {
        let mut pair_findings = Findings::default();
        if let PairKind::Moved = kind {
            pair_findings.differences.push(difference(
                Position::Item {
                    a: Some(i),
                    b: Some(j),
                },
                DifferenceDetail::ItemMoved {
                    shape: items_a[i].signature.clone(),
                },
            ));
        }
        compare_items(
            request,
            (i, &items_a[i]),
            (j, &items_b[j]),
            prose,
            &mut pair_findings,
        );
        item_findings.push(((i, 1, j), pair_findings));
    }
    for (side, indexes, items) in [
        (Side::A, &alignment.only_a, &items_a),
        (Side::B, &alignment.only_b, &items_b),
    ] {
        for &index in indexes {
            let position = match side {
                Side::A => Position::Item {
                    a: Some(index),
                    b: None,
                },
                Side::B => Position::Item {
                    a: None,
                    b: Some(index),
                },
            };
            let detail = DifferenceDetail::ItemOnlyIn {
                side,
                shape: items[index].signature.clone(),
            };
            let order = match side {
                Side::A => (index, 1, 0),
                Side::B => {
                    let anchor = alignment
                        .matched
                        .iter()
                        .chain(&alignment.changed)
                        .filter(|(_, j)| *j > index)
                        .map(|(i, _)| *i)
                        .min()
                        .unwrap_or(items_a.len());
                    (anchor, 0, index)
                }
            };
            let only = Findings {
                differences: vec![difference(position, detail)],
                prose: Vec::new(),
            };
            item_findings.push((order, only));
        }
    }
    item_findings.sort_by_key(|(order, _)| *order);
    for (_, item) in item_findings {
        findings.differences.extend(item.differences);
        findings.prose.extend(item.prose);
    }
}

/// How an item pair was found.
#[derive(Debug, Clone, Copy)]
enum PairKind {
    Matched,
    Moved,
    Changed,
}

/// Fields compared by presence only: every top-level key but `instructions`, `tools` and
/// the value fields, which are compared above. `(name, in A, in B)` in A's order, then B's.
fn other_field_presence(a: &Value, b: &Value) -> Vec<(String, bool, bool)> {
    let compared =
        |key: &str| key == "instructions" || key == "tools" || VALUE_FIELDS.contains(&key);
    let (keys_a, keys_b) = (top_level_keys(a), top_level_keys(b));
    let mut presence = Vec::new();
    for (keys, other, in_a) in [(&keys_a, &keys_b, true), (&keys_b, &keys_a, false)] {
        for key in keys {
            if !compared(key) && !other.contains(key) {
                presence.push((key.clone(), in_a, !in_a));
            }
        }
    }
    presence
}

fn top_level_keys(body: &Value) -> Vec<String> {
    body.as_object()
        .map(|object| object.keys().cloned().collect())
        .unwrap_or_default()
}

/// The order of the top-level keys both sides have, when it differs.
fn key_order_difference(a: &Value, b: &Value) -> Option<DifferenceDetail> {
    let (keys_a, keys_b) = (top_level_keys(a), top_level_keys(b));
    let common_a: Vec<String> = keys_a
        .iter()
        .filter(|key| keys_b.contains(key))
        .cloned()
        .collect();
    let common_b: Vec<String> = keys_b
        .iter()
        .filter(|key| keys_a.contains(key))
        .cloned()
        .collect();
    (common_a != common_b).then_some(DifferenceDetail::KeyOrder {
        a: common_a,
        b: common_b,
    })
}

/// Compares two items that correspond: role, content entry count and classifications, the
/// fixed structure of each fragment, unrecognised text, and (`--prose show`) the prose.
fn compare_items(
    request: usize,
    (i, a): (usize, &ItemShape<'_>),
    (j, b): (usize, &ItemShape<'_>),
    prose: ProseMode,
    findings: &mut Findings,
) {
    let item = Position::Item {
        a: Some(i),
        b: Some(j),
    };
    let mut push = |position: Position, detail: DifferenceDetail| {
        findings.differences.push(Difference {
            request: Some(request),
            position,
            detail,
        });
    };
    if a.role != b.role {
        // Entries are classified per role, so a role change reclassifies them; it is
        // reported alone.
        push(
            item,
            DifferenceDetail::RoleChanged {
                a: a.role.unwrap_or("<none>").to_string(),
                b: b.role.unwrap_or("<none>").to_string(),
            },
        );
        return;
    }
    if a.has_id != b.has_id {
        push(
            item.clone(),
            DifferenceDetail::IdPresence {
                a: a.has_id,
                b: b.has_id,
            },
        );
    }
    let labels = |item: &ItemShape<'_>| -> Vec<String> {
        item.entries
            .iter()
            .map(|entry| entry.label.clone())
            .collect()
    };
    let (labels_a, labels_b) = (labels(a), labels(b));
    if labels_a.len() != labels_b.len() {
        push(
            item,
            DifferenceDetail::ContentCount {
                a: labels_a,
                b: labels_b,
            },
        );
        return;
    }
    if labels_a != labels_b {
        let (mut sorted_a, mut sorted_b) = (labels_a.clone(), labels_b.clone());
        sorted_a.sort();
        sorted_b.sort();
        if sorted_a == sorted_b {
            push(
                item,
                DifferenceDetail::ContentOrder {
                    a: labels_a,
                    b: labels_b,
                },
            );
            return;
        }
        for (entry, (label_a, label_b)) in labels_a.iter().zip(&labels_b).enumerate() {
            if label_a != label_b {
                push(
                    Position::Entry { a: i, b: j, entry },
                    DifferenceDetail::Classification {
                        a: label_a.clone(),
                        b: label_b.clone(),
                    },
                );
            }
        }
        return;
    }
    if let (Some(tools_a), Some(tools_b)) = (a.tools, b.tools) {
        for detail in tool_list_differences(tools_a, tools_b) {
            push(item.clone(), detail);
        }
    }
    if let (ProseMode::Show, Some(prose_a), Some(prose_b)) = (prose, &a.prose, &b.prose)
        && prose_a != prose_b
    {
        findings.prose.push(ProseDifference {
            request,
            position: item.clone(),
            classification: a.signature.clone(),
            diff: unified_diff(prose_a, prose_b),
        });
    }
    for (entry, (entry_a, entry_b)) in a.entries.iter().zip(&b.entries).enumerate() {
        let (Some(text_a), Some(text_b)) = (entry_a.text, entry_b.text) else {
            continue;
        };
        let position = Position::Entry { a: i, b: j, entry };
        match entry_a.class {
            EntryClass::Fragment(info) => {
                for detail in fixed_structure_differences(info, text_a, text_b) {
                    findings.differences.push(Difference {
                        request: Some(request),
                        position: position.clone(),
                        detail,
                    });
                }
            }
            EntryClass::Text if text_a != text_b => {
                findings.differences.push(Difference {
                    request: Some(request),
                    position: position.clone(),
                    detail: DifferenceDetail::TextChanged {
                        classification: entry_a.label.clone(),
                        diff: match prose {
                            ProseMode::Show => Some(unified_diff(text_a, text_b)),
                            ProseMode::Ignore => None,
                        },
                    },
                });
            }
            EntryClass::Text | EntryClass::NonText | EntryClass::BaseInstructions => {}
        }
        if let EntryClass::Fragment(_) | EntryClass::BaseInstructions = entry_a.class {
            push_prose(
                findings,
                prose,
                request,
                position,
                &entry_a.label,
                text_a,
                text_b,
            );
        }
    }
}

/// With [`ProseMode::Show`], the diff of two texts that differ and are prose (compared for
/// their structure only, if at all).
fn push_prose(
    findings: &mut Findings,
    prose: ProseMode,
    request: usize,
    position: Position,
    classification: &str,
    a: &str,
    b: &str,
) {
    if let ProseMode::Show = prose
        && a != b
    {
        findings.prose.push(ProseDifference {
            request,
            position,
            classification: classification.to_string(),
            diff: unified_diff(a, b),
        });
    }
}

/// A line-based unified diff from A to B with three lines of context.
fn unified_diff(a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(3)
        .header("A", "B")
        .to_string()
}
