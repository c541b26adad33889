//! Fragment kinds of the `git_attribution` world-state extension: codex-core renders them and
//! takes their role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<git_attribution>` block. The extension renders it through
/// `RenderedWorldStateFragment` with these role and markers; its recorded kind follows the
/// extension rule `<section id>.instructions`.
pub const GIT_ATTRIBUTION: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "git_attribution.instructions",
    start_marker: "<git_attribution>",
    end_marker: "</git_attribution>",
    placement: MessagePlacement::Mergeable,
};
