//! Fragment kinds of the `context_window_guidance` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<context_window_guidance>` fragment.
pub const CONTEXT_WINDOW_GUIDANCE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "token_budget.context_window_guidance",
    start_marker: "<context_window_guidance>",
    end_marker: "</context_window_guidance>",
    placement: MessagePlacement::Mergeable,
};
