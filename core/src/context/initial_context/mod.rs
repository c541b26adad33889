//! Full-context assembly for a turn with no baseline (first turn, after a clear, new context
//! window): `build_initial_context_with_world_state`, routed as upstream's function of that
//! name in `codex-rs/core/src/session/mod.rs` routes it.
//!
//! Fragments are routed into buckets and each bucket becomes one message with one annotated
//! `input_text` per fragment:
//! 1. the developer bundle: a `<model_switch>` notice first, then configured developer
//!    instructions, then every other developer fragment in section order;
//! 2. one developer message per separate fragment (`<context_window>`, `<multi_agent_role>`,
//!    unmarked usage hints);
//! 3. the `<multi_agent_mode>` message;
//! 4. the contextual user message (AGENTS.md, `<environment_context>`);
//! 5. a guardian reviewer's policy;
//! 6. managed developer instructions, last.
//!
//! Every item is stamped with the turn id, because new windows and compaction install these
//! items directly into history.

use codex_prompts::TemplateSet;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;

pub use codex_fragments::developer_instructions::DEVELOPER_INSTRUCTIONS_KIND;
pub use codex_fragments::developer_instructions::DeveloperInstructions;
pub use codex_fragments::guardian_policy::GUARDIAN_POLICY_KIND;
pub use codex_fragments::guardian_policy::GuardianPolicy;

use crate::context::world_state::WorldState;
use crate::turn_context::TurnContext;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::SectionFragment;
use codex_context_fragments::USER_ROLE;
use codex_fragments::sections::CONTEXT_WINDOW;
use codex_fragments::sections::MANAGED_DEVELOPER_INSTRUCTIONS;
use codex_fragments::sections::MODEL_SWITCH;
use codex_fragments::sections::MULTI_AGENT_MODE;
use codex_fragments::sections::MULTI_AGENT_ROLE;

/// Where one content entry of the assembled context came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ContextSource {
    /// `developer_instructions` in configuration.
    DeveloperInstructions,
    /// A guardian reviewer's developer instructions.
    GuardianPolicy,
    /// The full render of a world-state section (by section ID).
    Section(String),
}

/// One assembled message and, index-aligned with its content, where each entry came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextMessage {
    pub item: ResponseItem,
    pub sources: Vec<ContextSource>,
}

/// The initial context: ordered messages ready to be recorded into history.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InitialContext {
    messages: Vec<ContextMessage>,
}

impl InitialContext {
    pub fn messages(&self) -> &[ContextMessage] {
        &self.messages
    }

    pub fn items(&self) -> impl Iterator<Item = &ResponseItem> {
        self.messages.iter().map(|message| &message.item)
    }

    pub fn into_messages(self) -> Vec<ContextMessage> {
        self.messages
    }

    pub fn into_items(self) -> Vec<ResponseItem> {
        self.messages
            .into_iter()
            .map(|message| message.item)
            .collect()
    }
}

/// A fragment waiting in a bucket, with its source.
struct Routed {
    fragment: SectionFragment,
    source: ContextSource,
}

#[derive(Default)]
struct Buckets {
    developer: Vec<Routed>,
    separate_developer: Vec<Routed>,
    multi_agent_mode: Option<Routed>,
    contextual_user: Vec<Routed>,
    guardian_policy: Option<Routed>,
    managed_developer_instructions: Option<Routed>,
}

/// Assembles the full context of `turn` from the full render of `world_state` (every section
/// rendered against an Absent previous state).
pub fn build_initial_context_with_world_state(
    turn: &TurnContext,
    world_state: &WorldState,
    templates: &TemplateSet,
) -> InitialContext {
    let mut buckets = Buckets::default();
    let guardian = turn.session_source.is_guardian_reviewer();
    let developer_instructions = turn
        .developer_instructions
        .as_deref()
        .filter(|text| !text.is_empty());
    if let Some(text) = developer_instructions {
        if guardian {
            // A reviewer's instructions are its policy: held back for a message of their own.
            buckets.guardian_policy = Some(Routed {
                fragment: Box::new(GuardianPolicy::new(text, templates)),
                source: ContextSource::GuardianPolicy,
            });
        } else {
            buckets.developer.push(Routed {
                fragment: Box::new(DeveloperInstructions::new(text, templates)),
                source: ContextSource::DeveloperInstructions,
            });
        }
    }

    for section in world_state.sections() {
        let Some(fragment) = section.render_initial_fragment() else {
            continue;
        };
        let routed = Routed {
            fragment,
            source: ContextSource::Section(section.section_id().to_string()),
        };
        // Route by role and markers into the buckets listed above.
        let fragment = routed.fragment.as_ref();
        if fragment.role() != DEVELOPER_ROLE {
            buckets.contextual_user.push(routed);
            continue;
        }
        let markers = fragment.markers();
        if markers == MODEL_SWITCH.markers() {
            // The new model's instructions must precede the rest of the developer context.
            buckets.developer.insert(0, routed);
        } else if markers.0 == MULTI_AGENT_MODE.start_marker {
            buckets.multi_agent_mode = Some(routed);
        } else if markers == MANAGED_DEVELOPER_INSTRUCTIONS.markers() {
            buckets.managed_developer_instructions = Some(routed);
        } else if markers == CONTEXT_WINDOW.markers()
            || markers == MULTI_AGENT_ROLE.markers()
            || (fragment.requires_separate_message() && markers == ("", ""))
        {
            buckets.separate_developer.push(routed);
        } else {
            buckets.developer.push(routed);
        }
    }

    let turn_id = turn.turn_id.as_str();
    let mut messages = Vec::new();
    // One message per bucket, one annotated `input_text` per fragment; empty buckets add
    // nothing.
    let mut emit = |role: &'static str, entries: Vec<Routed>| {
        if entries.is_empty() {
            return;
        }
        let mut content = Vec::with_capacity(entries.len());
        let mut kinds = Vec::with_capacity(entries.len());
        let mut sources = Vec::with_capacity(entries.len());
        for Routed { fragment, source } in entries {
            let (item, kind): (ContentItem, ContentItemKind) =
                fragment.render_fragment().into_parts().1.into_parts();
            content.push(item);
            kinds.push(kind);
            sources.push(source);
        }
        let mut item = ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: role.to_string(),
            content,
            phase: None,
            internal_chat_message_metadata_passthrough: Some(
                InternalChatMessageMetadataPassthrough {
                    content_item_kinds: Some(kinds),
                    ..InternalChatMessageMetadataPassthrough::default()
                },
            ),
        };
        item.set_turn_id_if_missing(turn_id);
        messages.push(ContextMessage { item, sources });
    };
    emit(DEVELOPER_ROLE, buckets.developer);
    for routed in buckets.separate_developer {
        emit(DEVELOPER_ROLE, vec![routed]);
    }
    emit(
        DEVELOPER_ROLE,
        buckets.multi_agent_mode.into_iter().collect(),
    );
    emit(USER_ROLE, buckets.contextual_user);
    emit(
        DEVELOPER_ROLE,
        buckets.guardian_policy.into_iter().collect(),
    );
    emit(
        DEVELOPER_ROLE,
        buckets.managed_developer_instructions.into_iter().collect(),
    );
    InitialContext { messages }
}

#[cfg(test)]
#[path = "initial_context_tests.rs"]
mod tests;
