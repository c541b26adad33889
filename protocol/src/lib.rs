//! Wire types shared by every crate of the workspace: conversation items, model catalog entries,
//! policy/config enums and rollout lines. Pure data: serde shapes that match upstream Codex byte for
//! byte, no IO.

pub mod models;

pub use models::BaseInstructions;
pub use models::BaseInstructionsProvenance;
pub use models::ContentItem;
pub use models::ContentItemKind;
pub use models::FunctionCallOutputBody;
pub use models::FunctionCallOutputContentItem;
pub use models::FunctionCallOutputPayload;
pub use models::ImageDetail;
pub use models::ImageReference;
pub use models::InternalChatMessageMetadataPassthrough;
pub use models::MessagePhase;
pub use models::ResponseItem;
