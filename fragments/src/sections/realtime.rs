//! Fragment kinds of the `realtime` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

const START_MARKER: &str = "<realtime_conversation>";
const END_MARKER: &str = "</realtime_conversation>";

/// Built-in start text.
pub const REALTIME_START: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "realtime_conversation.start_instructions",
    start_marker: START_MARKER,
    end_marker: END_MARKER,
    placement: MessagePlacement::Mergeable,
};

/// Start text supplied by the realtime mode or by configuration.
pub const REALTIME_CUSTOM_START: FragmentSpec = FragmentSpec {
    content_kind: "realtime_conversation.custom_start_instructions",
    ..REALTIME_START
};

/// End text (built-in or configured).
pub const REALTIME_END: FragmentSpec = FragmentSpec {
    content_kind: "realtime_conversation.end_instructions",
    ..REALTIME_START
};
