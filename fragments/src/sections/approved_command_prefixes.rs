//! Fragment kinds of the `approved_command_prefixes` world-state section: codex-core renders them and takes their
//! role, content kind and markers from here.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::SectionFragment;
use codex_prompts::TemplateSet;
use codex_prompts::format_allow_prefixes;

/// Leading text of every approved-prefix notice; history recognises notices by it.
pub const APPROVED_COMMAND_PREFIX_SAVED_PREFIX: &str = "Approved command prefix saved:";

/// The unmarked notice fragment.
pub const APPROVED_COMMAND_PREFIX_SAVED: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "permissions.approved_command_prefix_saved",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

/// `Approved command prefix saved:` followed by the formatted prefix list, or `None` when
/// nothing was added.
pub fn approved_prefix_saved_fragment(
    added: &[Vec<String>],
    templates: &TemplateSet,
) -> Option<SectionFragment> {
    let list = format_allow_prefixes(added, templates)?;
    Some(
        APPROVED_COMMAND_PREFIX_SAVED
            .fragment(format!("{APPROVED_COMMAND_PREFIX_SAVED_PREFIX}\n{list}")),
    )
}
