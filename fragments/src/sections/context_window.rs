//! Fragment kinds of the `context_window` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<context_window>` fragment (token-budget context).
pub const CONTEXT_WINDOW: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "token_budget.context_window",
    start_marker: "<context_window>",
    end_marker: "</context_window>",
    placement: MessagePlacement::Separate,
};
