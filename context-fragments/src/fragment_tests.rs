use codex_protocol::models::ContentItem;
use codex_protocol::models::InternalChatMessageMetadataPassthrough;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::*;
use crate::fingerprint::FragmentFingerprint;

const START: &str = "<collaboration_mode>";
const END: &str = "</collaboration_mode>";

struct CollaborationMode {
    instructions: String,
}

impl ContextualUserFragment for CollaborationMode {
    fn role(&self) -> &'static str {
        "developer"
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new("collaboration_mode.instructions")
    }

    fn markers(&self) -> (&'static str, &'static str) {
        Self::type_markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        (START, END)
    }

    fn body(&self) -> String {
        self.instructions.clone()
    }
}

/// Rendered without markers, yet recognised by its type markers: the split that
/// `markers` / `type_markers` exists for.
struct UnmarkedRoleNote;

impl ContextualUserFragment for UnmarkedRoleNote {
    fn role(&self) -> &'static str {
        "user"
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new("multi_agent.role_instructions")
    }

    fn markers(&self) -> (&'static str, &'static str) {
        ("", "")
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("<role>", "</role>")
    }

    fn body(&self) -> String {
        "plain body".to_string()
    }

    fn requires_separate_message(&self) -> bool {
        true
    }
}

/// Only a start marker: still rendered as marked, never recognised.
struct StartMarkerOnly;

impl ContextualUserFragment for StartMarkerOnly {
    fn role(&self) -> &'static str {
        "user"
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new("generic.start_only")
    }

    fn markers(&self) -> (&'static str, &'static str) {
        Self::type_markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("<notice>", "")
    }

    fn body(&self) -> String {
        "\nbody\n".to_string()
    }
}

fn pairing() -> CollaborationMode {
    CollaborationMode {
        instructions: "pair with the user".to_string(),
    }
}

#[test]
fn render_joins_markers_and_body_without_separator() {
    assert_eq!(
        pairing().render(),
        "<collaboration_mode>pair with the user</collaboration_mode>"
    );
}

#[test]
fn render_with_both_markers_empty_is_the_body() {
    assert_eq!(UnmarkedRoleNote.render(), "plain body");
}

#[test]
fn render_with_one_empty_marker_still_adds_the_other() {
    assert_eq!(StartMarkerOnly.render(), "<notice>\nbody\n");
}

#[test]
fn requires_separate_message_defaults_to_false() {
    assert!(!pairing().requires_separate_message());
    assert!(UnmarkedRoleNote.requires_separate_message());
}

#[test]
fn matches_text_recognises_own_rendering() {
    assert!(CollaborationMode::matches_text(&pairing().render()));
}

#[test]
fn matches_text_uses_type_markers_not_instance_markers() {
    assert!(!UnmarkedRoleNote::matches_text(&UnmarkedRoleNote.render()));
    assert!(UnmarkedRoleNote::matches_text("<role>plain body</role>"));
}

#[test]
fn marker_with_an_empty_side_never_matches() {
    assert!(!StartMarkerOnly::matches_text(&StartMarkerOnly.render()));
    assert!(!matches_marked_text("", "", ""));
    assert!(!matches_marked_text("", "", "anything"));
    assert!(!matches_marked_text("", "</x>", "<x>a</x>"));
}

#[test]
fn matching_ignores_surrounding_whitespace_and_ascii_case() {
    assert!(matches_marked_text(
        START,
        END,
        " \n\t<COLLABORATION_mode>x</Collaboration_Mode>\n  "
    ));
    assert!(matches_marked_text("<x>", "</x>", "<x></x>"));
    // Nothing between the markers is checked, not even that they do not overlap.
    assert!(matches_marked_text("<x>", "x>", "<x>"));
}

#[test]
fn matching_requires_both_markers() {
    assert!(!matches_marked_text(START, END, "<collaboration_mode>x"));
    assert!(!matches_marked_text(START, END, "x</collaboration_mode>"));
    assert!(!matches_marked_text(
        START,
        END,
        "prefix <collaboration_mode>x</collaboration_mode>"
    ));
    assert!(!matches_marked_text("<x>", "</x>", ""));
    assert!(!matches_marked_text("<x>", "</x>", "<x"));
}

#[test]
fn case_folding_is_ascii_only() {
    assert!(matches_marked_text("<É>", "</É>", "<É>a</É>"));
    assert!(!matches_marked_text("<É>", "</É>", "<é>a</é>"));
}

#[test]
fn multi_byte_text_around_markers_does_not_panic() {
    // Marker-sized slices that would split a character are simply "no match".
    assert!(!matches_marked_text("<ab>", "</x>", "<éé</x>"));
    assert!(!matches_marked_text("<x>", "</x>", "<x>a😀"));
    assert!(!matches_marked_text("<x>", "</x>", "<x>😀a"));
    assert!(!matches_marked_text("<x>", "</x>", "é"));
    assert!(!matches_marked_text("<x>", "</x>", "😀"));
    assert!(!matches_marked_text("<x>", "</x>", "é<x>body</x>é"));
    assert!(matches_marked_text(
        "<x>",
        "</x>",
        "\u{3000}<x>é😀</x>\u{3000}"
    ));
}

proptest! {
    #[test]
    fn matching_never_panics(
        start in "\\PC{0,4}",
        end in "\\PC{0,4}",
        text in "\\PC{0,12}",
    ) {
        let _ = matches_marked_text(&start, &end, &text);
        let _ = matches_marked_text(&start, &end, &format!("{start}{text}{end}"));
    }

    #[test]
    fn wrapped_text_always_matches(body in "\\PC{0,12}", padding in "[ \\t\\n]{0,3}") {
        let text = format!("{padding}<x>{body}</x>{padding}");
        prop_assert!(matches_marked_text("<x>", "</x>", &text));
    }
}

#[test]
fn render_fragment_annotates_the_rendered_text() {
    assert_eq!(
        pairing().render_fragment(),
        RenderedFragment::new(
            "developer",
            AnnotatedContent::input_text(
                "<collaboration_mode>pair with the user</collaboration_mode>",
                ContentItemKind::new("collaboration_mode.instructions"),
            ),
        )
    );
}

#[test]
fn into_response_item_records_the_content_kind() {
    assert_eq!(
        pairing().into_response_item(),
        ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: "developer".to_string(),
            content: vec![ContentItem::input_text(
                "<collaboration_mode>pair with the user</collaboration_mode>"
            )],
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    content_item_kinds: Some(vec![ContentItemKind::new(
                        "collaboration_mode.instructions"
                    )]),
                    ..Default::default()
                }
            ),
        }
    );
}

#[test]
fn response_item_wire_shape() {
    let item = pairing().into_response_item();
    insta::assert_json_snapshot!(item);
}

#[test]
fn contextual_user_fragment_is_dyn_compatible() {
    let fragments: Vec<Box<dyn ContextualUserFragment>> = vec![
        Box::new(pairing()),
        Box::new(UnmarkedRoleNote),
        Box::new(StartMarkerOnly),
    ];
    let rendered: Vec<(&str, String, bool)> = fragments
        .iter()
        .map(|fragment| {
            (
                fragment.role(),
                fragment.render(),
                fragment.requires_separate_message(),
            )
        })
        .collect();
    assert_eq!(
        rendered,
        vec![
            (
                "developer",
                "<collaboration_mode>pair with the user</collaboration_mode>".to_string(),
                false
            ),
            ("user", "plain body".to_string(), true),
            ("user", "<notice>\nbody\n".to_string(), false),
        ]
    );
    assert_eq!(
        FragmentFingerprint::from_fragment(fragments[0].as_ref()).as_str(),
        "90f8f6675171813762488f76c60b062fc8adeaec"
    );
    let items: Vec<ResponseItem> = fragments
        .into_iter()
        .map(ContextualUserFragment::into_boxed_response_item)
        .collect();
    assert_eq!(items[0], pairing().into_response_item());
    assert_eq!(items.len(), 3);
}
