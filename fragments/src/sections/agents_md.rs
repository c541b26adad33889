//! Fragment kinds of the `agents_md` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

/// The AGENTS.md fragment. The start marker is a prefix, so text written with the older
/// `… for <directory>` header is recognised as well.
pub const AGENTS_MD_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "agents_md.instructions",
    start_marker: "# AGENTS.md instructions",
    end_marker: "</INSTRUCTIONS>",
    placement: MessagePlacement::Mergeable,
};
