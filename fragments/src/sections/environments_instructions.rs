//! Fragment kinds of the `environments_instructions` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<environments_instructions>` fragment.
pub const ENVIRONMENTS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "environments.instructions",
    start_marker: "<environments_instructions>",
    end_marker: "</environments_instructions>",
    placement: MessagePlacement::Mergeable,
};
