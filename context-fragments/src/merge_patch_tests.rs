use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde_json::Value;
use serde_json::json;

use super::*;

/// RFC 7386 Appendix A: (target, patch, result).
fn rfc7386_appendix_a() -> Vec<(Value, Value, Value)> {
    vec![
        (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
        (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
        (json!({"a":"b"}), json!({"a":null}), json!({})),
        (
            json!({"a":"b","b":"c"}),
            json!({"a":null}),
            json!({"b":"c"}),
        ),
        (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
        (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
        (
            json!({"a":{"b":"c"}}),
            json!({"a":{"b":"d","c":null}}),
            json!({"a":{"b":"d"}}),
        ),
        (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
        (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
        (json!({"a":"b"}), json!(["c"]), json!(["c"])),
        (json!({"a":"foo"}), json!(null), json!(null)),
        (json!({"a":"foo"}), json!("bar"), json!("bar")),
        (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
        (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
        (
            json!({}),
            json!({"a":{"bb":{"ccc":null}}}),
            json!({"a":{"bb":{}}}),
        ),
    ]
}

#[test]
fn applies_every_rfc7386_appendix_a_vector() {
    for (index, (target, patch, expected)) in rfc7386_appendix_a().into_iter().enumerate() {
        let mut document = target.clone();
        apply_merge_patch(&mut document, &patch);
        assert_eq!(
            (index + 1, document),
            (index + 1, expected),
            "target {target} patch {patch}"
        );
    }
}

#[test]
fn agrees_with_json_patch_crate_on_appendix_a() {
    for (target, patch, _) in rfc7386_appendix_a() {
        let mut ours = target.clone();
        apply_merge_patch(&mut ours, &patch);
        let mut oracle = target.clone();
        json_patch::merge(&mut oracle, &patch);
        assert_eq!(ours, oracle, "target {target} patch {patch}");
    }
}

#[test]
fn created_patches_reproduce_appendix_a_results() {
    for (target, _, expected) in rfc7386_appendix_a() {
        let patch = create_merge_patch(&target, &expected);
        let mut document = target.clone();
        if let Some(patch) = &patch {
            apply_merge_patch(&mut document, patch);
        }
        // Vector 13 keeps an untouched `"e": null`, which a generated patch never mentions.
        assert_eq!(document, expected, "target {target}");
    }
}

#[test]
fn rfc_body_examples() {
    let mut document = json!({"a":"b","c":{"d":"e","f":"g"}});
    apply_merge_patch(&mut document, &json!({"a":"z","c":{"f":null}}));
    assert_eq!(document, json!({"a":"z","c":{"d":"e"}}));

    let mut document = json!({
        "title": "Goodbye!",
        "author": {"givenName": "John", "familyName": "Doe"},
        "tags": ["example", "sample"],
        "content": "This will be unchanged"
    });
    apply_merge_patch(
        &mut document,
        &json!({
            "title": "Hello!",
            "phoneNumber": "+01-123-456-7890",
            "author": {"familyName": null},
            "tags": ["example"]
        }),
    );
    assert_eq!(
        document,
        json!({
            "title": "Hello!",
            "author": {"givenName": "John"},
            "tags": ["example"],
            "content": "This will be unchanged",
            "phoneNumber": "+01-123-456-7890"
        })
    );
}

#[test]
fn equal_documents_have_no_patch() {
    assert_eq!(create_merge_patch(&json!(null), &json!(null)), None);
    assert_eq!(create_merge_patch(&json!([1, 2]), &json!([1, 2])), None);
    assert_eq!(
        create_merge_patch(
            &json!({"a":{"b":[1]},"c":"d"}),
            &json!({"c":"d","a":{"b":[1]}})
        ),
        None
    );
}

#[test]
fn removals_come_first_then_keys_in_their_document_order() {
    let previous = json!({"z": 1, "keep": true, "m": 2, "b": "old"});
    let current = json!({"keep": true, "y": 3, "b": "new", "a": 0});
    let patch = create_merge_patch(&previous, &current).unwrap();
    assert_eq!(
        serde_json::to_string(&patch).unwrap(),
        r#"{"z":null,"m":null,"y":3,"b":"new","a":0}"#
    );
}

#[test]
fn nested_objects_are_diffed_recursively() {
    let previous = json!({"section": {"inner": {"x": 1, "y": 2}, "same": "s"}});
    let current = json!({"section": {"inner": {"x": 1, "y": 3, "z": 4}, "same": "s"}});
    assert_eq!(
        create_merge_patch(&previous, &current),
        Some(json!({"section": {"inner": {"y": 3, "z": 4}}}))
    );
}

#[test]
fn arrays_are_replaced_whole() {
    assert_eq!(
        create_merge_patch(&json!({"a": [1, 2, 3]}), &json!({"a": [1, 2, 3, 4]})),
        Some(json!({"a": [1, 2, 3, 4]}))
    );
}

#[test]
fn non_object_current_replaces_whole() {
    assert_eq!(
        create_merge_patch(&json!({"a": 1}), &json!("text")),
        Some(json!("text"))
    );
    assert_eq!(
        create_merge_patch(&json!({"a": 1}), &json!(null)),
        Some(json!(null))
    );
}

#[test]
fn empty_object_replacing_a_scalar_is_an_empty_patch() {
    let patch = create_merge_patch(&json!(5), &json!({})).unwrap();
    assert_eq!(patch, json!({}));
    let mut document = json!(5);
    apply_merge_patch(&mut document, &patch);
    assert_eq!(document, json!({}));
}

#[test]
fn object_replacing_a_scalar_member_carries_the_whole_object() {
    assert_eq!(
        create_merge_patch(&json!({"a": "text"}), &json!({"a": {"b": 1}})),
        Some(json!({"a": {"b": 1}}))
    );
}

#[test]
fn apply_keeps_relative_key_order() {
    let mut document = json!({"a": 1, "b": 2, "c": 3, "d": 4});
    apply_merge_patch(&mut document, &json!({"b": null, "e": 5}));
    assert_eq!(
        serde_json::to_string(&document).unwrap(),
        r#"{"a":1,"c":3,"d":4,"e":5}"#
    );
}

#[test]
fn null_values_are_the_known_format_limit() {
    // A null member cannot be created by a merge patch: it reads as "remove".
    let previous = json!({"a": 1});
    let current = json!({"a": null});
    let patch = create_merge_patch(&previous, &current).unwrap();
    let mut document = previous.clone();
    apply_merge_patch(&mut document, &patch);
    assert_eq!(document, json!({}));
}

fn null_free_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-c]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-e]{1,2}", inner, 0..5)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn apply_of_created_patch_yields_current(
        previous in null_free_json(),
        current in null_free_json(),
    ) {
        let mut document = previous.clone();
        if let Some(patch) = create_merge_patch(&previous, &current) {
            apply_merge_patch(&mut document, &patch);
        }
        prop_assert_eq!(document, current);
    }

    #[test]
    fn document_against_itself_has_no_patch(document in null_free_json()) {
        prop_assert_eq!(create_merge_patch(&document, &document), None);
    }

    #[test]
    fn apply_agrees_with_json_patch_crate(
        target in null_free_json(),
        current in null_free_json(),
    ) {
        if let Some(patch) = create_merge_patch(&target, &current) {
            let mut ours = target.clone();
            apply_merge_patch(&mut ours, &patch);
            let mut oracle = target.clone();
            json_patch::merge(&mut oracle, &patch);
            prop_assert_eq!(ours, oracle);
        }
    }
}
