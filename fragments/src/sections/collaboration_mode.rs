//! Fragment kinds of the `collaboration_mode` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<collaboration_mode>` fragment; its body is the raw instructions, without padding.
pub const COLLABORATION_MODE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "collaboration_mode.instructions",
    start_marker: "<collaboration_mode>",
    end_marker: "</collaboration_mode>",
    placement: MessagePlacement::Mergeable,
};
