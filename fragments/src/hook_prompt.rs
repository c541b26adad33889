//! `<hook_prompt hook_run_id="…">…</hook_prompt>`: text a hook asked to show the model as if
//! the user had written it. The protocol layer renders it; this type only recognises it, so
//! that such user messages count as injected context.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

/// The start marker is the open tag without its `hook_run_id` attribute.
pub const HOOK_PROMPT: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "",
    start_marker: "<hook_prompt",
    end_marker: "</hook_prompt>",
    placement: MessagePlacement::Mergeable,
};

/// `<hook_prompt hook_run_id="ID">…</hook_prompt>` with a non-blank ID (case-sensitive,
/// surrounding whitespace ignored).
pub fn matches_hook_prompt(text: &str) -> bool {
    let trimmed = text.trim();
    let Some(open_tag_attributes) = trimmed
        .strip_prefix(HOOK_PROMPT.start_marker)
        .and_then(|rest| rest.split_once('>'))
        .map(|(attributes, _)| attributes)
    else {
        return false;
    };
    let has_run_id = open_tag_attributes
        .split_once("hook_run_id=\"")
        .and_then(|(_, value)| value.split_once('"'))
        .is_some_and(|(id, _)| !id.trim().is_empty());
    has_run_id && trimmed.ends_with(HOOK_PROMPT.end_marker)
}
