//! Tool specs as the Responses API receives them (`tools` of a request, or the Responses Lite
//! `additional_tools` item), and the built-in tool list.
//!
//! Shapes (names, parameter names and types, `required`, enums) are protocol facts matching
//! upstream; every description is this project's own text, kept as JSON templates under
//! `prompts/templates/tools/`.

mod builtin;
mod code_mode;
mod spec;

pub use builtin::BuiltinToolsConfig;
pub use builtin::ExperimentalTool;
pub use builtin::GoalTools;
pub use builtin::ImageDetailParameter;
pub use builtin::MultiAgentTools;
pub use builtin::ServiceTierParameter;
pub use builtin::builtin_tools;
pub use builtin::deferred_builtin_namespaces;
pub use builtin::multi_agent_version;
pub use code_mode::ToolLayout;
pub use spec::FreeformTool;
pub use spec::FreeformToolFormat;
pub use spec::FreeformToolFormatType;
pub use spec::FunctionTool;
pub use spec::GrammarSyntax;
pub use spec::NamespaceTool;
pub use spec::ToolSearchTool;
pub use spec::ToolSpec;
pub use spec::ToolSpecError;
pub use spec::WebSearchTool;
