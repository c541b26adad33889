//! Fragment kinds of the `model` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<model_switch>` fragment. Initial-context assembly puts it first in the developer
/// bundle, so it is identified by these markers there.
pub const MODEL_SWITCH: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "model_switch.instructions",
    start_marker: "<model_switch>",
    end_marker: "</model_switch>",
    placement: MessagePlacement::Separate,
};
