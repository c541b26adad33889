//! Fragment kinds of the `model_catalog` world-state section: codex-core records the section and
//! takes its role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;

/// The `<model_catalog>` fragment (the models a sub-agent may be started on). The release sends
/// it only under a feature this project does not have, so it is only recognised in rollouts.
pub const MODEL_CATALOG: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "multi_agent.model_catalog",
    start_marker: "<model_catalog>",
    end_marker: "</model_catalog>",
    placement: MessagePlacement::Mergeable,
};
