//! Fragment kinds of the `multi_agent_usage_hint` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// Role instructions from the model catalog.
pub const MULTI_AGENT_ROLE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "multi_agent.role_instructions",
    start_marker: "<multi_agent_role>",
    end_marker: "</multi_agent_role>",
    placement: MessagePlacement::Separate,
};

/// How the root agent's role text under multi-agent v2 begins: by naming the agent's path.
/// Upstream's bundled text and this project's both start so; nothing else marks the message.
pub const ROOT_AGENT_ROLE_PREFIX: &str = "You are `/root`";

/// A usage hint from configuration, or the bundled root-agent text, sent as plain text.
pub const MULTI_AGENT_USAGE_HINT: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "multi_agent.usage_hint",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Separate,
};
