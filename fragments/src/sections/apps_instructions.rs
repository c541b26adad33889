//! Fragment kinds of the `apps_instructions` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<apps_instructions>` fragment.
pub const APPS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "apps.instructions",
    start_marker: "<apps_instructions>",
    end_marker: "</apps_instructions>",
    placement: MessagePlacement::Mergeable,
};
