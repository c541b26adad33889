//! Contextual fragments: the harness-authored pieces of context (instructions, environment
//! descriptions, notices) that are rendered into messages for the model, plus the two tools the
//! world state builds on them: fragment fingerprints and RFC 7386 merge patches.

mod annotated_content;
mod fingerprint;
mod fragment;
mod merge_patch;

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
