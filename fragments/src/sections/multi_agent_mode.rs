//! Fragment kinds of the `multi_agent_mode` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<multi_agent_mode>` fragment.
pub const MULTI_AGENT_MODE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "multi_agent.mode_instructions",
    start_marker: "<multi_agent_mode>",
    end_marker: "</multi_agent_mode>",
    placement: MessagePlacement::Mergeable,
};
