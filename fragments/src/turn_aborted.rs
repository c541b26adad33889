//! `<turn_aborted>`: recorded after the user interrupts a turn, so the model knows the turn was
//! cut short on purpose and that its side effects may be partial. The same markers go out in a
//! user message (the usual case) or in a developer message.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::size_cap::cap_rendered_body;

/// The marker in a user message.
pub const TURN_ABORTED: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "generic.turn_aborted",
    start_marker: "<turn_aborted>",
    end_marker: "</turn_aborted>",
    placement: MessagePlacement::Mergeable,
};

/// The marker in a developer message.
pub const TURN_ABORTED_DEVELOPER: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    ..TURN_ABORTED
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 1_000;

/// Which message the marker is written into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnAbortedAudience {
    User,
    Developer,
}

impl TurnAbortedAudience {
    pub fn spec(self) -> &'static FragmentSpec {
        match self {
            Self::User => &TURN_ABORTED,
            Self::Developer => &TURN_ABORTED_DEVELOPER,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnAborted {
    audience: TurnAbortedAudience,
    body: String,
}

impl TurnAborted {
    pub fn new(audience: TurnAbortedAudience, templates: &TemplateSet) -> Self {
        let guidance = templates.text(match audience {
            TurnAbortedAudience::User => TemplateId::FragmentTurnAbortedUser,
            TurnAbortedAudience::Developer => TemplateId::FragmentTurnAbortedDeveloper,
        });
        let body = format!("\n{guidance}\n");
        Self {
            audience,
            body: cap_rendered_body(audience.spec(), body, MAX_TOKENS, templates),
        }
    }
}

impl ContextualUserFragment for TurnAborted {
    fn role(&self) -> &'static str {
        self.audience.spec().role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(TURN_ABORTED.content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        TURN_ABORTED.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        TURN_ABORTED.markers()
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
