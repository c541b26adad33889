//! Fragment kinds of the `tools` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<tools>` fragment.
pub const DEFERRED_TOOLS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "tools.deferred_namespaces",
    start_marker: "<tools>",
    end_marker: "</tools>",
    placement: MessagePlacement::Mergeable,
};
