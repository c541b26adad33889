//! The built-in tool list, chosen from the model's catalog flags.

use codex_config::Feature;
use codex_config::Features;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_protocol::WebSearchMode;
use codex_protocol::openai_models::ApplyPatchToolType;
use codex_protocol::openai_models::ConfigShellToolType;
use codex_protocol::openai_models::InputModality;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::MultiAgentVersion;
use codex_protocol::openai_models::WebSearchToolType;

use super::spec::FreeformTool;
use super::spec::FreeformToolFormat;
use super::spec::FunctionTool;
use super::spec::ToolSpec;
use super::spec::ToolSpecError;
use super::spec::WebSearchTool;

/// Whether `view_image` offers the `detail` parameter (`high` / `original`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageDetailParameter {
    Offered,
    Omitted,
}

/// Whether and how the multi-agent tools (the `multi_agent_v1` namespace: `spawn_agent`,
/// `send_input`, `resume_agent`, `wait_agent`, `close_agent`) are offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MultiAgentTools {
    /// Not offered: the `multi_agent` feature is off, or the session runs multi-agent v2, whose
    /// tools this project does not model.
    Omitted,
    /// Held back behind a `tool_search` tool (models whose catalog entry sets
    /// `supports_search_tool`); the namespace itself is not sent.
    Deferred,
    /// The `multi_agent_v1` namespace sent in full.
    Inline,
}

impl MultiAgentTools {
    /// Upstream's choice: the `multi_agent_v2` feature forces v2; otherwise the `multi_agent`
    /// feature (on by default) enables the version the model's catalog entry names, v1 when it
    /// names none. v1 tools are deferred when the model supports the search tool.
    pub fn for_model(model: &ModelInfo, features: &Features) -> Self {
        let version = if features.enabled(Feature::MultiAgentV2) {
            Some(MultiAgentVersion::V2)
        } else if features.enabled(Feature::MultiAgent) {
            Some(model.multi_agent_version.unwrap_or(MultiAgentVersion::V1))
        } else {
            None
        };
        match version {
            Some(MultiAgentVersion::V1) if model.supports_search_tool => Self::Deferred,
            Some(MultiAgentVersion::V1) => Self::Inline,
            Some(MultiAgentVersion::V2) | None => Self::Omitted,
        }
    }
}

/// What decides which built-in tools a request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinToolsConfig {
    pub shell_type: ConfigShellToolType,
    pub apply_patch_tool_type: Option<ApplyPatchToolType>,
    /// `disabled` drops the tool; `cached` / `live` set `external_web_access`.
    pub web_search_mode: WebSearchMode,
    pub web_search_tool_type: WebSearchToolType,
    /// `view_image` is offered only to models that accept image input.
    pub image_input: bool,
    pub image_detail: ImageDetailParameter,
    pub multi_agent: MultiAgentTools,
}

impl BuiltinToolsConfig {
    /// Flags taken from the model's catalog entry and the session's features; the web search
    /// mode is a session setting (upstream uses `live` under `danger-full-access` and `cached`
    /// otherwise unless configured).
    pub fn for_model(
        model: &ModelInfo,
        web_search_mode: WebSearchMode,
        features: &Features,
    ) -> Self {
        Self {
            shell_type: model.shell_type,
            apply_patch_tool_type: model.apply_patch_tool_type,
            web_search_mode,
            web_search_tool_type: model.web_search_tool_type,
            image_input: model.supports_input_modality(InputModality::Image),
            image_detail: if model.supports_image_detail_original {
                ImageDetailParameter::Offered
            } else {
                ImageDetailParameter::Omitted
            },
            multi_agent: MultiAgentTools::for_model(model, features),
        }
    }
}

/// The built-in tools in upstream's order: shell tools, `update_plan`, `request_user_input`,
/// `apply_patch`, `view_image`, `tool_search` or the `multi_agent_v1` namespace, `web_search`.
/// Each tool's name, description and parameters come from its template in `templates`, so a
/// `--prompts-dir` overlay reaches the tools too.
pub fn builtin_tools(
    config: &BuiltinToolsConfig,
    templates: &TemplateSet,
) -> Result<Vec<ToolSpec>, ToolSpecError> {
    let mut tools = Vec::new();
    match config.shell_type {
        // Upstream's shell tool type keeps `default`, `local` and `shell_command` only as
        // catalog aliases of `unified_exec`.
        ConfigShellToolType::UnifiedExec
        | ConfigShellToolType::Default
        | ConfigShellToolType::Local
        | ConfigShellToolType::ShellCommand => {
            tools.push(ToolSpec::Function(function_tool(
                TemplateId::ToolExecCommand,
                templates,
            )?));
            tools.push(ToolSpec::Function(function_tool(
                TemplateId::ToolWriteStdin,
                templates,
            )?));
        }
        ConfigShellToolType::Disabled => {}
    }
    tools.push(ToolSpec::Function(function_tool(
        TemplateId::ToolUpdatePlan,
        templates,
    )?));
    tools.push(ToolSpec::Function(function_tool(
        TemplateId::ToolRequestUserInput,
        templates,
    )?));
    match config.apply_patch_tool_type {
        Some(ApplyPatchToolType::Freeform) => {
            match parse_template(TemplateId::ToolApplyPatchFreeform, templates)? {
                ToolSpec::Custom(tool) => tools.push(ToolSpec::Custom(FreeformTool {
                    format: FreeformToolFormat {
                        definition: templates
                            .file(TemplateId::ToolApplyPatchGrammar)
                            .to_string(),
                        ..tool.format
                    },
                    ..tool
                })),
                ToolSpec::Function(_)
                | ToolSpec::LocalShell {}
                | ToolSpec::WebSearch(_)
                | ToolSpec::Namespace(_)
                | ToolSpec::ToolSearch(_)
                | ToolSpec::Other(_) => {
                    return Err(ToolSpecError::UnexpectedShape {
                        template: TemplateId::ToolApplyPatchFreeform.path(),
                        reason: "expected a `custom` tool with a grammar format",
                    });
                }
            }
        }
        Some(ApplyPatchToolType::Function) => tools.push(ToolSpec::Function(function_tool(
            TemplateId::ToolApplyPatchFunction,
            templates,
        )?)),
        None => {}
    }
    if config.image_input {
        let mut view_image = function_tool(TemplateId::ToolViewImage, templates)?;
        match config.image_detail {
            ImageDetailParameter::Offered => {}
            ImageDetailParameter::Omitted => {
                if let Some(properties) = view_image
                    .parameters
                    .get_mut("properties")
                    .and_then(serde_json::Value::as_object_mut)
                {
                    properties.shift_remove("detail");
                }
            }
        }
        tools.push(ToolSpec::Function(view_image));
    }
    match config.multi_agent {
        MultiAgentTools::Omitted => {}
        MultiAgentTools::Deferred => match parse_template(TemplateId::ToolSearch, templates)? {
            ToolSpec::ToolSearch(tool) => tools.push(ToolSpec::ToolSearch(tool)),
            ToolSpec::Function(_)
            | ToolSpec::Custom(_)
            | ToolSpec::LocalShell {}
            | ToolSpec::WebSearch(_)
            | ToolSpec::Namespace(_)
            | ToolSpec::Other(_) => {
                return Err(ToolSpecError::UnexpectedShape {
                    template: TemplateId::ToolSearch.path(),
                    reason: "expected a `tool_search` tool with execution, description and parameters",
                });
            }
        },
        MultiAgentTools::Inline => match parse_template(TemplateId::ToolMultiAgentV1, templates)? {
            ToolSpec::Namespace(namespace)
                if namespace
                    .tools
                    .iter()
                    .all(|tool| matches!(tool, ToolSpec::Function(_))) =>
            {
                tools.push(ToolSpec::Namespace(namespace))
            }
            ToolSpec::Function(_)
            | ToolSpec::Custom(_)
            | ToolSpec::LocalShell {}
            | ToolSpec::WebSearch(_)
            | ToolSpec::Namespace(_)
            | ToolSpec::ToolSearch(_)
            | ToolSpec::Other(_) => {
                return Err(ToolSpecError::UnexpectedShape {
                    template: TemplateId::ToolMultiAgentV1.path(),
                    reason: "expected a `namespace` of `function` tools",
                });
            }
        },
    }
    let external_web_access = match config.web_search_mode {
        WebSearchMode::Disabled => None,
        WebSearchMode::Cached => Some(false),
        WebSearchMode::Live => Some(true),
    };
    if let Some(external_web_access) = external_web_access {
        let search_content_types = match config.web_search_tool_type {
            WebSearchToolType::Text => None,
            WebSearchToolType::TextAndImage => Some(vec!["text".to_string(), "image".to_string()]),
        };
        tools.push(ToolSpec::WebSearch(WebSearchTool {
            external_web_access,
            search_content_types,
        }));
    }
    Ok(tools)
}

fn parse_template(
    template: TemplateId,
    templates: &TemplateSet,
) -> Result<ToolSpec, ToolSpecError> {
    serde_json::from_str(templates.text(template)).map_err(|source| {
        ToolSpecError::InvalidTemplate {
            template: template.path(),
            source,
        }
    })
}

fn function_tool(
    template: TemplateId,
    templates: &TemplateSet,
) -> Result<FunctionTool, ToolSpecError> {
    match parse_template(template, templates)? {
        ToolSpec::Function(tool) => Ok(tool),
        ToolSpec::Custom(_)
        | ToolSpec::LocalShell {}
        | ToolSpec::WebSearch(_)
        | ToolSpec::Namespace(_)
        | ToolSpec::ToolSearch(_)
        | ToolSpec::Other(_) => Err(ToolSpecError::UnexpectedShape {
            template: template.path(),
            reason: "expected a `function` tool with name, description, strict and parameters",
        }),
    }
}
