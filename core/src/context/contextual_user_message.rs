//! Telling context the harness injected apart from what the user (or a configuration author)
//! wrote: the recogniser table of fragments.md §3.1, used to find user-turn boundaries, to keep
//! injected context out of compacted history and to trim context updates on rollback.
//!
//! Every entry of [`CONTEXTUAL_FRAGMENT_MATCHERS`] names one fragment type: the role it is sent
//! under, the content kinds it is recorded with and how its text looks. A content item is judged
//! by its recorded kind when the message carries a complete `content_item_kinds` list, because a
//! kind cannot be forged by typing: a user who pastes `<environment_context>…` produces a
//! `user.text` item, which is never context. Items without a usable kind (legacy and upstream
//! rollouts) fall back to the text rule. The table is deliberately plain data so that a fragment
//! registry can generate it later.

use codex_context_fragments::matches_marked_text;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::ResponseItem;

use crate::context::world_state::DEVELOPER_ROLE;
use crate::context::world_state::USER_ROLE;
use crate::context::world_state::sections::agents_md::AGENTS_MD_INSTRUCTIONS;
use crate::context::world_state::sections::environments::ENVIRONMENT_CONTEXT;

/// Content kind of text the user typed.
pub const USER_TEXT_KIND: &str = "user.text";
/// Content kind of the summary message that closes a compacted history.
pub const COMPACTION_SUMMARY_KIND: &str = "compaction.summary";
/// Kinds recorded for what stands in for user media; they belong to the user's own message.
const USER_MEDIA_KINDS: [&str; 3] = [
    "images.preparation_error",
    "images.unsupported",
    "audio.unsupported",
];
/// Upstream's compaction summary prefix. Recognition only: summaries in upstream rollouts start
/// with it (followed by a newline); this project writes its own prefix from the prompts crate.
pub const UPSTREAM_SUMMARY_PREFIX: &str = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:";

/// How the text of one fragment type is recognised.
#[derive(Debug, Clone, Copy)]
pub enum TextMatcher {
    /// Wrapped in `start` … `end`, ASCII case-insensitive, surrounding whitespace ignored
    /// ([`matches_marked_text`]).
    Marked {
        start: &'static str,
        end: &'static str,
    },
    /// Starts with `prefix` after leading whitespace, ASCII case-insensitive.
    Prefix(&'static str),
    /// The whitespace-trimmed text starts with `prefix` and ends with `suffix` (case-sensitive;
    /// an empty suffix accepts any ending).
    ExactPrefixSuffix {
        prefix: &'static str,
        suffix: &'static str,
    },
    /// A rule of its own.
    Custom(fn(&str) -> bool),
}

impl TextMatcher {
    pub fn matches(&self, text: &str) -> bool {
        match *self {
            Self::Marked { start, end } => matches_marked_text(start, end, text),
            Self::Prefix(prefix) => text
                .trim_start()
                .get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
            Self::ExactPrefixSuffix { prefix, suffix } => {
                let trimmed = text.trim();
                trimmed.starts_with(prefix) && trimmed.ends_with(suffix)
            }
            Self::Custom(rule) => rule(text),
        }
    }
}

/// Which recorded content kinds belong to a fragment type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindMatcher {
    /// The type has no known kind; its items are recognised by text only.
    Unknown,
    Exact(&'static str),
    /// Kinds with a per-instance part after this prefix (`additional_content.<key>`).
    Prefix(&'static str),
    /// Kinds with a per-instance part before this suffix (`<source>.internal_context`).
    Suffix(&'static str),
}

impl KindMatcher {
    pub fn matches(&self, kind: &str) -> bool {
        match *self {
            Self::Unknown => false,
            Self::Exact(expected) => kind == expected,
            Self::Prefix(prefix) => kind.len() > prefix.len() && kind.starts_with(prefix),
            Self::Suffix(suffix) => kind.len() > suffix.len() && kind.ends_with(suffix),
        }
    }
}

/// One injected-context fragment type.
#[derive(Debug, Clone, Copy)]
pub struct ContextualFragmentMatcher {
    /// Short name for diagnostics and tests.
    pub name: &'static str,
    /// Role of the messages the fragment is sent in.
    pub role: &'static str,
    pub kind: KindMatcher,
    pub text: TextMatcher,
}

const fn user(
    name: &'static str,
    kind: KindMatcher,
    text: TextMatcher,
) -> ContextualFragmentMatcher {
    ContextualFragmentMatcher {
        name,
        role: USER_ROLE,
        kind,
        text,
    }
}

const fn developer(
    name: &'static str,
    kind: KindMatcher,
    prefix: &'static str,
) -> ContextualFragmentMatcher {
    ContextualFragmentMatcher {
        name,
        role: DEVELOPER_ROLE,
        kind,
        text: TextMatcher::Prefix(prefix),
    }
}

const fn marked(start: &'static str, end: &'static str) -> TextMatcher {
    TextMatcher::Marked { start, end }
}

/// Every injected-context fragment type, user side first in upstream's recogniser order, then
/// the developer-side prefixes. Fragments that are absent (realtime delegation, unmarked user
/// fragments, arbitrary tags such as `<project_context>`) stay visible as user text.
pub const CONTEXTUAL_FRAGMENT_MATCHERS: &[ContextualFragmentMatcher] = &[
    user(
        "agents_md",
        KindMatcher::Exact(AGENTS_MD_INSTRUCTIONS.content_kind),
        marked(
            AGENTS_MD_INSTRUCTIONS.start_marker,
            AGENTS_MD_INSTRUCTIONS.end_marker,
        ),
    ),
    user(
        "environment_context",
        KindMatcher::Exact(ENVIRONMENT_CONTEXT.content_kind),
        marked(
            ENVIRONMENT_CONTEXT.start_marker,
            ENVIRONMENT_CONTEXT.end_marker,
        ),
    ),
    user(
        "additional_context",
        KindMatcher::Prefix("additional_content."),
        TextMatcher::Custom(is_external_context),
    ),
    user(
        "skill",
        KindMatcher::Exact("skills.selected_skill_instructions"),
        marked("<skill>", "</skill>"),
    ),
    user(
        "user_shell_command",
        KindMatcher::Exact("shell.user_command"),
        marked("<user_shell_command>", "</user_shell_command>"),
    ),
    user(
        "turn_aborted",
        KindMatcher::Exact("generic.turn_aborted"),
        marked("<turn_aborted>", "</turn_aborted>"),
    ),
    user(
        "subagent_notification",
        KindMatcher::Exact("multi_agent.subagent_notification"),
        marked("<subagent_notification>", "</subagent_notification>"),
    ),
    user(
        "internal_model_context",
        KindMatcher::Suffix(".internal_context"),
        TextMatcher::Custom(is_internal_model_context),
    ),
    user(
        "recommended_plugins",
        KindMatcher::Exact("plugins.recommendations"),
        marked("<recommended_plugins>", "</recommended_plugins>"),
    ),
    user(
        "legacy_unified_exec_process_limit_warning",
        KindMatcher::Exact("unified_exec.legacy_process_limit_warning"),
        TextMatcher::ExactPrefixSuffix {
            prefix: "Warning: The maximum number of unified exec processes you can keep open is",
            suffix: "",
        },
    ),
    user(
        "legacy_apply_patch_exec_command_warning",
        KindMatcher::Exact("apply_patch.legacy_exec_command_warning"),
        TextMatcher::ExactPrefixSuffix {
            prefix: "Warning: apply_patch was requested via ",
            suffix: "Use the apply_patch tool instead of exec_command.",
        },
    ),
    user(
        "legacy_model_mismatch_warning",
        KindMatcher::Exact("model_switch.legacy_mismatch_warning"),
        TextMatcher::ExactPrefixSuffix {
            prefix: "Warning: Your account was flagged for potentially high-risk cyber activity",
            suffix: "",
        },
    ),
    user(
        "hook_prompt",
        KindMatcher::Unknown,
        TextMatcher::Custom(is_hook_prompt),
    ),
    developer(
        "permissions",
        KindMatcher::Exact("permissions.instructions"),
        "<permissions instructions>",
    ),
    developer(
        "approved_command_prefix_saved",
        KindMatcher::Exact("permissions.approved_command_prefix_saved"),
        "Approved command prefix saved:",
    ),
    developer(
        "model_switch",
        KindMatcher::Exact("model_switch.instructions"),
        "<model_switch>",
    ),
    developer(
        "managed_developer_instructions",
        KindMatcher::Exact("managed_config.developer_instructions"),
        "<managed_developer_instructions>",
    ),
    developer(
        "apps_instructions",
        KindMatcher::Exact("apps.instructions"),
        "<apps_instructions>",
    ),
    developer(
        "collaboration_mode",
        KindMatcher::Exact("collaboration_mode.instructions"),
        "<collaboration_mode>",
    ),
    developer(
        "multi_agent_role",
        KindMatcher::Exact("multi_agent.role_instructions"),
        "<multi_agent_role>",
    ),
    developer(
        "multi_agent_mode",
        KindMatcher::Exact("multi_agent.mode_instructions"),
        "<multi_agent_mode>",
    ),
    developer(
        "environments_instructions",
        KindMatcher::Exact("environments.instructions"),
        "<environments_instructions>",
    ),
    developer("git_attribution", KindMatcher::Unknown, "<git_attribution>"),
    developer(
        "plugins_instructions",
        KindMatcher::Exact("plugins.usage_instructions"),
        "<plugins_instructions>",
    ),
    developer(
        "realtime_conversation",
        KindMatcher::Prefix("realtime_conversation."),
        "<realtime_conversation>",
    ),
    developer(
        "skills_instructions",
        KindMatcher::Exact("skills.catalog"),
        "<skills_instructions>",
    ),
    developer(
        "tools",
        KindMatcher::Exact("tools.deferred_namespaces"),
        "<tools>",
    ),
    developer(
        "personality_spec",
        KindMatcher::Exact("personality.spec_instructions"),
        "<personality_spec>",
    ),
    developer(
        "legacy_token_budget",
        KindMatcher::Unknown,
        "<token_budget>",
    ),
    developer(
        "context_window",
        KindMatcher::Exact("token_budget.context_window"),
        "<context_window>",
    ),
    developer(
        "context_window_guidance",
        KindMatcher::Exact("token_budget.context_window_guidance"),
        "<context_window_guidance>",
    ),
    developer(
        "rollout_budget",
        KindMatcher::Exact("rollout_budget.remaining_tokens"),
        "<rollout_budget>",
    ),
];

/// `<external_KEY>…</external_KEY>`: the closing tag must name the same key.
fn is_external_context(text: &str) -> bool {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix("<external_") else {
        return false;
    };
    let Some((key, _)) = rest.split_once('>') else {
        return false;
    };
    trimmed
        .strip_suffix('>')
        .and_then(|head| head.strip_suffix(key))
        .is_some_and(|head| head.ends_with("</external_"))
}

/// `<codex_internal_context source="NAME">…</codex_internal_context>` with NAME matching
/// `[a-z][a-z0-9_]*`, or the legacy `<goal_context>…</goal_context>`.
fn is_internal_model_context(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed.starts_with("<goal_context>") && trimmed.ends_with("</goal_context>") {
        return true;
    }
    let Some(source) = trimmed
        .strip_prefix("<codex_internal_context source=\"")
        .and_then(|rest| rest.split_once("\">"))
        .map(|(source, _)| source)
    else {
        return false;
    };
    let mut chars = source.chars();
    let valid_source = chars.next().is_some_and(|first| first.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    valid_source && trimmed.ends_with("</codex_internal_context>")
}

/// `<hook_prompt hook_run_id="ID">…</hook_prompt>` with a non-blank id.
fn is_hook_prompt(text: &str) -> bool {
    let trimmed = text.trim();
    let Some(open_tag) = trimmed
        .strip_prefix("<hook_prompt")
        .and_then(|rest| rest.split_once('>'))
        .map(|(attributes, _)| attributes)
    else {
        return false;
    };
    let has_run_id = open_tag
        .split_once("hook_run_id=\"")
        .and_then(|(_, value)| value.split_once('"'))
        .is_some_and(|(id, _)| !id.trim().is_empty());
    has_run_id && trimmed.ends_with("</hook_prompt>")
}

/// Whether `text`, sent under `role`, looks like injected context (text rule only).
pub fn is_contextual_text(role: &str, text: &str) -> bool {
    CONTEXTUAL_FRAGMENT_MATCHERS
        .iter()
        .any(|matcher| matcher.role == role && matcher.text.matches(text))
}

/// What a recorded content kind says about its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KindVerdict {
    /// No usable kind: decide by text.
    Undecided,
    Contextual,
    NotContextual,
}

fn kind_verdict(role: &str, kind: Option<&ContentItemKind>) -> KindVerdict {
    let Some(kind) = kind.map(ContentItemKind::as_str) else {
        return KindVerdict::Undecided;
    };
    if kind.is_empty() || kind == ContentItemKind::UNKNOWN {
        return KindVerdict::Undecided;
    }
    if kind.starts_with("user.") || USER_MEDIA_KINDS.contains(&kind) {
        return KindVerdict::NotContextual;
    }
    let listed = CONTEXTUAL_FRAGMENT_MATCHERS
        .iter()
        .any(|matcher| matcher.role == role && matcher.kind.matches(kind));
    if listed {
        KindVerdict::Contextual
    } else {
        KindVerdict::NotContextual
    }
}

/// Whether one content item of a `role` message is injected context: its recorded kind decides
/// when there is one, its text otherwise. Only `input_text` items can be context.
pub fn is_contextual_content(
    role: &str,
    content: &ContentItem,
    kind: Option<&ContentItemKind>,
) -> bool {
    let ContentItem::InputText { text } = content else {
        return false;
    };
    match kind_verdict(role, kind) {
        KindVerdict::Contextual => true,
        KindVerdict::NotContextual => false,
        KindVerdict::Undecided => is_contextual_text(role, text),
    }
}

/// Each content item of a message with its recorded kind. Kinds are used only when the list is
/// complete (one per content item); a partial list cannot be aligned safely.
fn annotated_items<'a>(
    content: &'a [ContentItem],
    kinds: Option<&'a [ContentItemKind]>,
) -> impl Iterator<Item = (&'a ContentItem, Option<&'a ContentItemKind>)> {
    let kinds = kinds.filter(|kinds| kinds.len() == content.len());
    content
        .iter()
        .enumerate()
        .map(move |(index, item)| (item, kinds.and_then(|kinds| kinds.get(index))))
}

/// Per content item of a `role` message: whether it is injected context. `None` for items that
/// are not messages of that role.
fn contextual_flags<'a>(
    item: &'a ResponseItem,
    wanted_role: &'a str,
) -> Option<impl Iterator<Item = bool> + 'a> {
    let ResponseItem::Message { role, content, .. } = item else {
        return None;
    };
    if role != wanted_role {
        return None;
    }
    Some(
        annotated_items(content, item.content_item_kinds())
            .map(move |(content, kind)| is_contextual_content(wanted_role, content, kind)),
    )
}

/// A `user` message holding injected context: one injected part makes the whole message
/// contextual, as upstream decides.
pub fn is_contextual_user_message(item: &ResponseItem) -> bool {
    contextual_flags(item, USER_ROLE).is_some_and(|mut flags| flags.any(|flag| flag))
}

/// A `developer` message with at least one injected-context part.
pub fn is_contextual_developer_message(item: &ResponseItem) -> bool {
    contextual_flags(item, DEVELOPER_ROLE).is_some_and(|mut flags| flags.any(|flag| flag))
}

/// A `developer` message with at least one part that is not injected context (for example
/// configured developer instructions bundled with the initial context).
pub fn has_non_contextual_developer_content(item: &ResponseItem) -> bool {
    contextual_flags(item, DEVELOPER_ROLE).is_some_and(|mut flags| flags.any(|flag| !flag))
}

/// A context update the harness recorded before a turn: a contextual developer or user message.
pub fn is_context_update(item: &ResponseItem) -> bool {
    is_contextual_developer_message(item) || is_contextual_user_message(item)
}

/// A `user` message the user wrote, which starts a user turn.
pub fn is_user_turn_boundary(item: &ResponseItem) -> bool {
    item.is_user_message() && !is_contextual_user_message(item)
}

/// A compaction summary message: recorded with the summary kind, or (without kinds) a user
/// message whose first text starts with `own_prefix` or upstream's prefix, then a newline.
pub fn is_compaction_summary(item: &ResponseItem, own_prefix: &str) -> bool {
    let ResponseItem::Message { role, content, .. } = item else {
        return false;
    };
    if role != USER_ROLE {
        return false;
    }
    let mut items = annotated_items(content, item.content_item_kinds());
    let Some((first, kind)) = items.next() else {
        return false;
    };
    let kind = kind
        .map(ContentItemKind::as_str)
        .filter(|kind| !kind.is_empty() && *kind != ContentItemKind::UNKNOWN);
    if let Some(kind) = kind {
        return kind == COMPACTION_SUMMARY_KIND;
    }
    let ContentItem::InputText { text } = first else {
        return false;
    };
    [own_prefix, UPSTREAM_SUMMARY_PREFIX]
        .iter()
        .filter(|prefix| !prefix.is_empty())
        .any(|prefix| {
            text.strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('\n'))
        })
}

#[cfg(test)]
#[path = "contextual_user_message_tests.rs"]
mod tests;
