//! The `<permissions instructions>` fragment kind. codex-prompts renders the body (what the
//! sandbox allows and how to ask for more) and the `permissions` world-state section recognises
//! it in history; both take role, content kind and markers from this one constant.

use crate::spec::DEVELOPER_ROLE;
use crate::spec::FragmentSpec;
use crate::spec::MessagePlacement;

/// The `<permissions instructions>` developer fragment.
pub const PERMISSIONS_INSTRUCTIONS: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "permissions.instructions",
    start_marker: "<permissions instructions>",
    end_marker: "</permissions instructions>",
    placement: MessagePlacement::Mergeable,
};
