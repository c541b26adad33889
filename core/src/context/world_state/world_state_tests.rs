use std::sync::Arc;
use std::sync::Mutex;

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentFingerprint;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::SectionFragment;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use serde_json::json;

use super::*;

const TEST_FRAGMENT: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "test.instructions",
    start_marker: "<test_section>",
    end_marker: "</test_section>",
    placement: MessagePlacement::Mergeable,
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TestSnapshot {
    value: String,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    list: Vec<Option<String>>,
}

/// Records the previous state it was rendered against and renders `<test_section>value`.
struct TestSection {
    snapshot: TestSnapshot,
    seen: Arc<Mutex<Vec<String>>>,
}

impl TestSection {
    fn new(value: &str) -> Self {
        Self {
            snapshot: TestSnapshot {
                value: value.to_string(),
                note: None,
                list: Vec::new(),
            },
            seen: Arc::default(),
        }
    }
}

impl WorldStateSection for TestSection {
    const ID: &'static str = "test";
    type Snapshot = TestSnapshot;

    fn snapshot(&self) -> TestSnapshot {
        self.snapshot.clone()
    }

    fn matches_legacy_fragment(role: &str, text: &str) -> bool {
        TEST_FRAGMENT.recognises(role, text)
    }

    fn has_retained_fragment_matcher() -> bool {
        true
    }

    fn matches_retained_fragment(role: &str, text: &str) -> bool {
        TEST_FRAGMENT.recognises(role, text)
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, TestSnapshot>,
    ) -> Option<SectionFragment> {
        let description = match previous {
            PreviousSectionState::Absent => "absent".to_string(),
            PreviousSectionState::Unknown => "unknown".to_string(),
            PreviousSectionState::Known(snapshot) => format!("known:{}", snapshot.value),
        };
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(description);
        }
        match previous {
            PreviousSectionState::Known(snapshot) if snapshot == &self.snapshot => None,
            PreviousSectionState::Known(_)
            | PreviousSectionState::Absent
            | PreviousSectionState::Unknown => {
                Some(TEST_FRAGMENT.fragment(self.snapshot.value.clone()))
            }
        }
    }
}

/// Same behaviour, but the snapshot is trusted without a retained fragment.
struct UnretainedSection(TestSection);

impl WorldStateSection for UnretainedSection {
    const ID: &'static str = "unretained";
    type Snapshot = TestSnapshot;

    fn snapshot(&self) -> TestSnapshot {
        self.0.snapshot()
    }

    fn render_diff(
        &self,
        previous: PreviousSectionState<'_, TestSnapshot>,
    ) -> Option<SectionFragment> {
        self.0.render_diff(previous)
    }
}

fn developer_message(texts: &[&str]) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: texts
            .iter()
            .map(|text| ContentItem::input_text(*text))
            .collect(),
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

fn renders(fragments: &[SectionFragment]) -> Vec<String> {
    fragments.iter().map(|fragment| fragment.render()).collect()
}

#[test]
fn world_state_hash_normalizes_crlf_line_endings() {
    let lf = TEST_FRAGMENT.fragment("line one\nline two\n".to_string());
    let crlf = TEST_FRAGMENT.fragment("line one\r\nline two\r\n".to_string());
    assert_eq!(
        FragmentFingerprint::from_fragment(lf.as_ref()),
        FragmentFingerprint::from_fragment(crlf.as_ref())
    );
}

#[test]
fn snapshot_uses_stable_section_ids_and_omits_null_fields() {
    let mut section = TestSection::new("current");
    section.snapshot.list = vec![Some("kept".to_string()), None];
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");

    assert_eq!(
        world_state.snapshot().into_value(),
        json!({"test": {"list": ["kept", null], "value": "current"}})
    );
}

#[test]
fn render_diff_restores_the_typed_section_snapshot() {
    let section = TestSection::new("after");
    let seen = Arc::clone(&section.seen);
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    let previous =
        WorldStateSnapshot::from_value(json!({"test": {"value": "before"}})).expect("object");

    let fragments = world_state.render_diff(&previous);

    assert_eq!(
        renders(&fragments),
        vec!["<test_section>after</test_section>"]
    );
    assert_eq!(
        *seen.lock().expect("lock"),
        vec!["known:before".to_string()]
    );
}

#[test]
fn unreadable_section_snapshot_is_treated_as_unknown() {
    let section = TestSection::new("after");
    let seen = Arc::clone(&section.seen);
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    let previous =
        WorldStateSnapshot::from_value(json!({"test": ["not", "a", "snapshot"]})).expect("object");

    let fragments = world_state.render_diff(&previous);

    assert_eq!(
        renders(&fragments),
        vec!["<test_section>after</test_section>"]
    );
    assert_eq!(*seen.lock().expect("lock"), vec!["unknown".to_string()]);
}

#[test]
fn missing_retained_fragment_is_rendered_again() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(TestSection::new("current"))
        .expect("unique section");
    let snapshot = world_state.snapshot();

    assert_eq!(
        renders(&world_state.render_history_diff(Some(&snapshot), &[] as &[ResponseItem])),
        vec!["<test_section>current</test_section>"]
    );
    let retained = developer_message(&["<test_section>current</test_section>"]);
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), &[retained])
            .is_empty()
    );
}

#[test]
fn persisted_snapshot_without_retained_matcher_is_trusted() {
    let section = UnretainedSection(TestSection::new("current"));
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    let snapshot = world_state.snapshot();

    assert!(
        world_state
            .render_history_diff(Some(&snapshot), &[] as &[ResponseItem])
            .is_empty()
    );
}

#[test]
fn legacy_fragment_without_baseline_is_unknown_and_bundles_are_searched() {
    let section = TestSection::new("current");
    let seen = Arc::clone(&section.seen);
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique section");
    let bundled = developer_message(&["other text", "  <TEST_SECTION>old</test_section>\n"]);
    let assistant = ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: vec![ContentItem::output_text("<test_section>x</test_section>")],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    };

    world_state.render_history_diff(None, &[assistant]);
    world_state.render_history_diff(None, &[bundled]);

    assert_eq!(
        *seen.lock().expect("lock"),
        vec!["absent".to_string(), "unknown".to_string()]
    );
}

#[test]
fn extension_owned_section_uses_its_snapshot_and_renderer() {
    let previous_seen = Arc::new(Mutex::new(Vec::new()));
    let recorder = Arc::clone(&previous_seen);
    let contribution = WorldStateSectionContribution::new(
        "extension_test",
        json!({"kept": "after", "dropped": null}),
        move |previous| {
            if let Ok(mut seen) = recorder.lock() {
                seen.push(match previous {
                    PreviousSectionState::Absent => "absent".to_string(),
                    PreviousSectionState::Unknown => "unknown".to_string(),
                    PreviousSectionState::Known(value) => value.to_string(),
                });
            }
            Some(RenderedWorldStateFragment {
                role: "developer",
                markers: ("<extension_test>", "</extension_test>"),
                body: "after".to_string(),
            })
        },
    );
    let mut world_state = WorldState::new();
    world_state
        .add_contribution(contribution)
        .expect("unique section");
    let previous = WorldStateSnapshot::from_value(json!({"extension_test": {"kept": "before"}}))
        .expect("object");

    let fragments = world_state.render_diff(&previous);

    assert_eq!(
        world_state.snapshot().into_value(),
        json!({"extension_test": {"kept": "after"}})
    );
    assert_eq!(
        renders(&fragments),
        vec!["<extension_test>after</extension_test>"]
    );
    assert_eq!(fragments[0].role(), "developer");
    assert_eq!(
        fragments[0].content_kind().as_str(),
        "extension_test.instructions"
    );
    assert_eq!(
        *previous_seen.lock().expect("lock"),
        vec![r#"{"kept":"before"}"#.to_string()]
    );
}

#[test]
fn null_extension_snapshot_is_not_persisted() {
    let contribution = WorldStateSectionContribution::new("nothing", Value::Null, |_| None);
    let mut world_state = WorldState::new();
    world_state
        .add_contribution(contribution)
        .expect("unique section");
    assert_eq!(world_state.snapshot(), WorldStateSnapshot::new());
}

#[test]
fn host_skills_is_placed_before_permissions() {
    let mut world_state = WorldState::new();
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            "first",
            json!(true),
            |_| None,
        ))
        .expect("unique");
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            PERMISSIONS_SECTION_ID,
            json!(true),
            |_| None,
        ))
        .expect("unique");
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            "skills",
            json!(true),
            |_| None,
        ))
        .expect("unique");
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            HOST_SKILLS_SECTION_ID,
            json!(true),
            |_| None,
        ))
        .expect("unique");

    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        vec!["first", "host_skills", "permissions", "skills"]
    );
}

#[test]
fn host_skills_is_appended_without_permissions() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(TestSection::new("x"))
        .expect("unique");
    world_state
        .add_contribution(WorldStateSectionContribution::new(
            HOST_SKILLS_SECTION_ID,
            json!(true),
            |_| None,
        ))
        .expect("unique");
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        vec!["test", "host_skills"]
    );
}

#[test]
fn duplicate_section_ids_are_rejected() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(TestSection::new("one"))
        .expect("first registration");
    let error = world_state
        .add_section(TestSection::new("two"))
        .expect_err("duplicate");
    assert_eq!(error.to_string(), "duplicate world-state section ID: test");
    let error = world_state
        .add_contribution(WorldStateSectionContribution::new("test", json!(1), |_| {
            None
        }))
        .expect_err("duplicate");
    assert_eq!(error.to_string(), "duplicate world-state section ID: test");
}

#[test]
fn snapshot_merge_patch_changes_and_removes_nested_values() {
    let previous = WorldStateSnapshot::from_value(json!({
        "changed": {"value": "before", "nested": {"gone": 1, "kept": 2}},
        "removed": {"value": "x"},
        "same": true
    }))
    .expect("object");
    let current = WorldStateSnapshot::from_value(json!({
        "added": [1, 2],
        "changed": {"value": "after", "nested": {"kept": 2}},
        "same": true
    }))
    .expect("object");

    let patch = current.merge_patch_from(&previous).expect("a change");

    assert_eq!(
        serde_json::to_string(&patch).expect("serialize"),
        r#"{"removed":null,"added":[1,2],"changed":{"value":"after","nested":{"gone":null}}}"#
    );
    let mut applied = previous.clone();
    applied.apply_merge_patch(&patch).expect("object patch");
    assert_eq!(applied, current);
    assert_eq!(current.merge_patch_from(&current), None);
}

#[test]
fn merge_patch_must_be_an_object() {
    let mut snapshot = WorldStateSnapshot::new();
    let error = snapshot
        .apply_merge_patch(&json!(["x"]))
        .expect_err("array patch");
    assert_eq!(
        error.to_string(),
        "a world-state merge patch must be a JSON object"
    );
    assert!(WorldStateSnapshot::from_value(json!("x")).is_err());
}

#[test]
fn render_full_renders_every_section_as_absent() {
    let section = TestSection::new("full");
    let seen = Arc::clone(&section.seen);
    let mut world_state = WorldState::new();
    world_state.add_section(section).expect("unique");
    assert_eq!(
        renders(&world_state.render_full()),
        vec!["<test_section>full</test_section>"]
    );
    assert_eq!(*seen.lock().expect("lock"), vec!["absent".to_string()]);
}

#[test]
fn indexed_history_answers_like_a_full_scan_as_history_grows() {
    let mut world_state = WorldState::new();
    world_state
        .add_section(TestSection::new("current"))
        .expect("unique");
    let snapshot = world_state.snapshot();
    let mut index = HistoryFragmentIndex::default();
    let mut history = vec![developer_message(&["unrelated"])];

    let first = world_state.render_history_diff(Some(&snapshot), index.over(&history));
    assert_eq!(
        renders(&first),
        vec!["<test_section>current</test_section>"]
    );

    history.push(developer_message(&["<test_section>current</test_section>"]));
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), index.over(&history))
            .is_empty()
    );
    history.push(developer_message(&["more"]));
    assert!(
        world_state
            .render_history_diff(Some(&snapshot), index.over(&history))
            .is_empty()
    );

    // Replaced history: the owner invalidates, and the fragment is missed again.
    history = vec![developer_message(&["summary"])];
    index.invalidate();
    assert_eq!(
        renders(&world_state.render_history_diff(Some(&snapshot), index.over(&history))),
        vec!["<test_section>current</test_section>"]
    );
}
