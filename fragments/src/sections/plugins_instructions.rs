//! Fragment kinds of the `plugins_instructions` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<plugins_instructions>` fragment.
pub const PLUGINS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "plugins.usage_instructions",
    start_marker: "<plugins_instructions>",
    end_marker: "</plugins_instructions>",
    placement: MessagePlacement::Mergeable,
};
