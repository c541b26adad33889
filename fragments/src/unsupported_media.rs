//! Stands in for an image or audio content item when the model cannot take that modality. It
//! replaces the item inside the user's own message, so it is never treated as injected context.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItemKind;

use super::size_cap::cap_rendered_body;

pub const UNSUPPORTED_IMAGE: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "images.unsupported",
    start_marker: "",
    end_marker: "",
    placement: MessagePlacement::Mergeable,
};

pub const UNSUPPORTED_AUDIO: FragmentSpec = FragmentSpec {
    content_kind: "audio.unsupported",
    ..UNSUPPORTED_IMAGE
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 200;

/// The modality that was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsupportedModality {
    Image,
    Audio,
}

impl UnsupportedModality {
    pub fn spec(self) -> &'static FragmentSpec {
        match self {
            Self::Image => &UNSUPPORTED_IMAGE,
            Self::Audio => &UNSUPPORTED_AUDIO,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedMedia {
    modality: UnsupportedModality,
    body: String,
}

impl UnsupportedMedia {
    pub fn new(modality: UnsupportedModality, templates: &TemplateSet) -> Self {
        let body = templates
            .text(match modality {
                UnsupportedModality::Image => TemplateId::FragmentUnsupportedImage,
                UnsupportedModality::Audio => TemplateId::FragmentUnsupportedAudio,
            })
            .to_string();
        Self {
            modality,
            body: cap_rendered_body(modality.spec(), body, MAX_TOKENS, templates),
        }
    }
}

impl ContextualUserFragment for UnsupportedMedia {
    fn role(&self) -> &'static str {
        self.modality.spec().role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(self.modality.spec().content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        UNSUPPORTED_IMAGE.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        UNSUPPORTED_IMAGE.markers()
    }

    fn body(&self) -> String {
        self.body.clone()
    }
}
