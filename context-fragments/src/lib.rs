//! Contextual fragments: the harness-authored pieces of context (instructions, environment
//! descriptions, notices) that are rendered into messages for the model, the [`FragmentSpec`]
//! every fragment kind is described by, plus the two tools the world state builds on them:
//! fragment fingerprints and RFC 7386 merge patches.

mod annotated_content;
mod fingerprint;
mod fragment;
mod merge_patch;
mod permissions;
mod spec;

pub use annotated_content::AnnotatedContent;
pub use annotated_content::NotAMessageError;
pub use annotated_content::RenderedFragment;
pub use annotated_content::set_annotated_content;
pub use annotated_content::to_annotated_content;
pub use fingerprint::FragmentFingerprint;
pub use fingerprint::fingerprint;
pub use fragment::ContextualUserFragment;
pub use fragment::matches_marked_text;
pub use merge_patch::apply_merge_patch;
pub use merge_patch::create_merge_patch;

// Fragment kinds described as data: the spec, the message roles and placements, and the
// fragment a spec builds (see also `spec_fragment!`).
pub use spec::DEVELOPER_ROLE;
pub use spec::FragmentSpec;
pub use spec::MessagePlacement;
pub use spec::SectionFragment;
pub use spec::USER_ROLE;
pub use spec::WorldStateFragment;

// The `<permissions instructions>` kind, here because codex-prompts renders that fragment.
pub use permissions::PERMISSIONS_INSTRUCTIONS;

/// Paths [`spec_fragment!`] expands to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use codex_protocol::models::ContentItemKind;
}
