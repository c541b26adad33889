//! Wire types shared by every crate of the workspace: conversation items, model catalog entries,
//! policy/config enums and rollout lines. Pure data: serde shapes that match upstream Codex byte for
//! byte, no IO.

pub mod config_types;
pub mod models;
pub mod openai_models;
pub mod protocol;
pub mod rollout;
mod wire_enum;

pub use config_types::ApprovalsReviewer;
pub use config_types::CollaborationMode;
pub use config_types::CollaborationModeMask;
pub use config_types::CollaborationModeSettings;
pub use config_types::ModeKind;
pub use config_types::Personality;
pub use config_types::ReasoningSummary;
pub use config_types::SandboxMode;
pub use config_types::TrustLevel;
pub use config_types::Verbosity;
pub use config_types::WebSearchMode;

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
pub use openai_models::ApplyPatchToolType;
pub use openai_models::ConfigShellToolType;
pub use openai_models::EmptyReasoningEffortError;
pub use openai_models::InputModality;
pub use openai_models::ModelInfo;
pub use openai_models::ModelInstructionsVariables;
pub use openai_models::ModelMessages;
pub use openai_models::ModelVisibility;
pub use openai_models::ModelsResponse;
pub use openai_models::ModelsResponseError;
pub use openai_models::PERSONALITY_PLACEHOLDER;
pub use openai_models::PERSONALITY_SECTION_HEADING;
pub use openai_models::ReasoningEffort;
pub use openai_models::ReasoningEffortPreset;
pub use openai_models::TruncationMode;
pub use openai_models::TruncationPolicyConfig;
pub use protocol::ApprovalChoiceError;
pub use protocol::AskForApproval;
pub use protocol::GranularApprovalConfig;
pub use protocol::NetworkAccess;
pub use protocol::ReadOnlyAccess;
pub use protocol::SandboxPolicy;
pub use protocol::TemporaryDirectories;
pub use protocol::UnsupportedApprovalPolicy;
pub use rollout::CompactedItem;
pub use rollout::RolloutItem;
pub use rollout::RolloutLine;
pub use rollout::SessionMeta;
pub use rollout::TokenUsage;
pub use rollout::TokenUsageInfo;
pub use rollout::TurnContextItem;
pub use rollout::WorldStateItem;
pub use wire_enum::ParseEnumError;
