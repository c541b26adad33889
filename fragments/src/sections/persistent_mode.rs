//! Fragment kinds of the `persistent_mode` world-state section: codex-core records the section
//! and takes its role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<persistent_mode>` fragment (the instructions of a model's persistent mode). This
/// project never turns that mode on, so it only recognises the fragment in rollouts.
pub const PERSISTENT_MODE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "persistent_mode.instructions",
    start_marker: "<persistent_mode>",
    end_marker: "</persistent_mode>",
    placement: MessagePlacement::Mergeable,
};
