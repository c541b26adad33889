//! The Responses API request: body model, builder, Responses Lite prefix, client metadata, and
//! the stamping of ids and metadata onto recorded items.

mod body;
mod build;
mod client_metadata;
mod lite;
mod stamp;
mod turn;

pub use body::INCLUDE_REASONING_ENCRYPTED_CONTENT;
pub use body::OUTPUT_SCHEMA_FORMAT_NAME;
pub use body::Reasoning;
pub use body::ReasoningContext;
pub use body::ReasoningSummaryDelivery;
pub use body::ResponsesRequest;
pub use body::StreamOptions;
pub use body::TextControls;
pub use body::TextFormat;
pub use body::TextFormatType;
pub use body::ToolChoice;
pub use build::ContentItemKindsPolicy;
pub use build::ModelProviderKind;
pub use build::OutputSchemaStrictness;
pub use build::ParallelToolCalls;
pub use build::RequestBuildError;
pub use build::ResponsesRequestInputs;
pub use build::build_responses_request;
pub use build::prepare_outgoing_items;
pub use client_metadata::ClientMetadata;
pub use client_metadata::ClientSurface;
pub use client_metadata::CompactionMetadata;
pub use client_metadata::ROOT_AGENT_NAME;
pub use client_metadata::RequestKind;
pub use client_metadata::TurnMetadata;
pub use client_metadata::TurnMetadataWorkspace;
pub use lite::LITE_FUNCTIONS_NAMESPACE;
pub use lite::LitePrefixIds;
pub use lite::LiteToolCatalog;
pub use lite::lite_catalog_tools;
pub use lite::lite_prefix_items;
pub use stamp::stamp_recorded_item;
pub use turn::TurnRequestError;
pub use turn::build_compaction_request;
pub use turn::build_turn_request;
pub use turn::turn_metadata;
