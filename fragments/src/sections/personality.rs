//! Fragment kinds of the `personality` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<personality_spec>` fragment.
pub const PERSONALITY_SPEC: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "personality.spec_instructions",
    start_marker: "<personality_spec>",
    end_marker: "</personality_spec>",
    placement: MessagePlacement::Separate,
};
