//! Helpers shared by the fragment tests.

use codex_context_fragments::ContextualUserFragment;
use codex_fragments::Recognition;
use codex_fragments::classify;
use codex_fragments::fragment_type;
use pretty_assertions::assert_eq;

/// Renders `fragment` and checks it against the registry row `name`: same role, a content
/// kind the row accepts, classified as `name` by its kind, and by its text alone unless the
/// type is unmarked (then the text alone is not a fragment of that role).
pub fn render_and_recognise(fragment: &dyn ContextualUserFragment, name: &str) -> String {
    let info = fragment_type(name).expect("registered fragment type");
    let rendered = fragment.render();
    let kind = fragment.content_kind();
    assert_eq!(fragment.role(), info.role(), "role of {name}");
    assert!(
        info.content_kind().matches(kind.as_str()),
        "{name}: kind {kind:?} does not fit {:?}",
        info.content_kind()
    );
    let by_kind = classify(fragment.role(), &rendered, Some(kind.as_str()));
    assert_eq!(by_kind.map(|info| info.name), Some(name), "{name} by kind");
    let by_text = classify(fragment.role(), &rendered, None).map(|info| info.name);
    match info.recognition {
        Recognition::ContentKindOnly => assert_eq!(by_text, None, "{name} by text"),
        Recognition::Markers
        | Recognition::Prefix(_)
        | Recognition::ExactPrefixSuffix { .. }
        | Recognition::Custom(_) => assert_eq!(by_text, Some(name), "{name} by text"),
    }
    rendered
}

/// The registry's answer for text that must not be recognised as any fragment of `role`.
pub fn classified_name(role: &str, text: &str) -> Option<&'static str> {
    classify(role, text, None).map(|info| info.name)
}
