//! Fragment types that upstream no longer produces (or produced only on branches) but that old
//! rollouts still contain. They are recognised, never rendered. Types that were unmarked and
//! had no content kind (image-generation and model instructions, the multi-agent spawn policy)
//! cannot be told apart from other text and are not listed.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;

const fn historical(
    role: &'static str,
    content_kind: &'static str,
    start_marker: &'static str,
    end_marker: &'static str,
) -> FragmentSpec {
    FragmentSpec {
        role,
        content_kind,
        start_marker,
        end_marker,
        placement: MessagePlacement::Mergeable,
    }
}

/// Told a newly spawned agent that it works for a parent agent.
pub const SPAWNED_AGENT_CONTEXT: FragmentSpec = historical(
    DEVELOPER_ROLE,
    "",
    "<spawned_agent_context>",
    "</spawned_agent_context>",
);
/// User instructions before they became `# AGENTS.md instructions`.
pub const USER_INSTRUCTIONS: FragmentSpec =
    historical(USER_ROLE, "", "<user_instructions>", "</user_instructions>");
/// Hidden extension steering before `<codex_internal_context>`.
pub const EXTENSION_CONTEXT: FragmentSpec =
    historical(USER_ROLE, "", "<extension_context>", "</extension_context>");
/// Asked the model to predict the user's next message.
pub const NEXT_PROMPT_SUGGESTION: FragmentSpec = historical(
    USER_ROLE,
    "",
    "<next_prompt_suggestion>",
    "</next_prompt_suggestion>",
);
/// Listed URL prefixes where the managed proxy attaches stored credentials.
pub const CREDENTIALED_ROUTES: FragmentSpec = historical(
    DEVELOPER_ROLE,
    "",
    "<credentialed_routes>",
    "</credentialed_routes>",
);
/// Told the model that automatic review denied network access to a host.
pub const GUARDIAN_NETWORK_ACCESS_DENIED: FragmentSpec = historical(
    DEVELOPER_ROLE,
    "",
    "<guardian_network_access_denied>",
    "</guardian_network_access_denied>",
);
/// Announced a new post on the agents' message board.
pub const AGENT_MESSAGE_BOARD_NOTIFICATION: FragmentSpec = historical(
    USER_ROLE,
    "agent_message_board.notification",
    "<agent_message_board_notification>",
    "</agent_message_board_notification>",
);
/// The transcript tail flushed when a realtime session ended, as a developer message.
pub const REALTIME_TRANSCRIPT_TAIL: FragmentSpec = historical(
    DEVELOPER_ROLE,
    "",
    "<realtime_delegation>",
    "</realtime_delegation>",
);
/// The context-window block before it was renamed `<context_window>`.
pub const TOKEN_BUDGET: FragmentSpec =
    historical(DEVELOPER_ROLE, "", "<token_budget>", "</token_budget>");
