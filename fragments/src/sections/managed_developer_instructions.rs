//! Fragment kinds of the `managed_developer_instructions` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<managed_developer_instructions>` fragment; initial-context assembly emits it last.
pub const MANAGED_DEVELOPER_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "managed_config.developer_instructions",
    start_marker: "<managed_developer_instructions>",
    end_marker: "</managed_developer_instructions>",
    placement: MessagePlacement::Separate,
};
