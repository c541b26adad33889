//! Fragment kinds of the `environments` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

/// The `<environment_context>` fragment (full render and diffs share it).
pub const ENVIRONMENT_CONTEXT: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "environments.environment_context",
    start_marker: "<environment_context>",
    end_marker: "</environment_context>",
    placement: MessagePlacement::Mergeable,
};
