//! Turning the fragments of a steady-state diff into history messages.

use codex_context_fragments::set_annotated_content;
use codex_context_fragments::to_annotated_content;
use codex_protocol::ResponseItem;

use codex_context_fragments::SectionFragment;

/// One message per run of consecutive same-role fragments that may share a message; a fragment
/// that requires a separate message always stands alone (and ends the run). Each fragment is
/// one `input_text` item with its content kind recorded beside it. No fragments, no messages.
pub fn merge_contextual_fragments(fragments: Vec<SectionFragment>) -> Vec<ResponseItem> {
    let mut messages: Vec<ResponseItem> = Vec::new();
    // Whether the last message may take further fragments.
    let mut last_open = false;
    for fragment in fragments {
        let mergeable = !fragment.requires_separate_message();
        let rendered = fragment.render_fragment();
        if let Some(last) = messages.last_mut()
            && last_open
            && mergeable
            && matches!(last, ResponseItem::Message { role, .. } if role == rendered.role())
            && let Ok(mut annotated) = to_annotated_content(last)
        {
            annotated.push(rendered.into_parts().1);
            // `last` is a message (checked above), so putting the content back cannot fail.
            if set_annotated_content(last, annotated).is_err() {
                tracing::warn!("could not extend a context update message");
            }
            continue;
        }
        messages.push(ResponseItem::from(rendered));
        last_open = mergeable;
    }
    messages
}

#[cfg(test)]
#[path = "updates_tests.rs"]
mod tests;
