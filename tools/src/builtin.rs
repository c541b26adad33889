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
use codex_protocol::openai_models::ToolMode;
use codex_protocol::openai_models::WebSearchToolType;
use codex_release::InlineMultiAgentPosition;
use codex_release::PlanTool;
use codex_release::ReleaseProfile;
use codex_release::SpawnAgentServiceTier;
use codex_release::ViewImageDetail;

use super::code_mode::CodeModeExposure;
use super::code_mode::ToolLayout;
use super::code_mode::code_mode_tools;
use super::spec::FreeformTool;
use super::spec::FreeformToolFormat;
use super::spec::FunctionTool;
use super::spec::NamespaceTool;
use super::spec::ToolSpec;
use super::spec::ToolSpecError;
use super::spec::WebSearchTool;

/// Whether `view_image` offers the `detail` parameter (`high` / `original`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageDetailParameter {
    Offered,
    Omitted,
}

/// Whether and how the multi-agent tools are offered: v1's `multi_agent_v1` namespace
/// (`spawn_agent`, `send_input`, `resume_agent`, `wait_agent`, `close_agent`) or v2's
/// `collaboration` namespace (`followup_task`, `interrupt_agent`, `list_agents`,
/// `send_message`, `spawn_agent`, `wait_agent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MultiAgentTools {
    /// Not offered: the `multi_agent` feature is off.
    Omitted,
    /// v1, held back behind a `tool_search` tool (models whose catalog entry sets
    /// `supports_search_tool`); the namespace itself is not sent.
    Deferred,
    /// The `multi_agent_v1` namespace sent in full.
    Inline,
    /// v2: the `collaboration` namespace, always sent in full.
    Collaboration,
}

/// The multi-agent version a session runs, as upstream chooses it: the `multi_agent_v2`
/// feature forces v2; otherwise the `multi_agent` feature (on by default) enables the version
/// the model's catalog entry names, v1 when it names none. `None`: no multi-agent tools.
pub fn multi_agent_version(model: &ModelInfo, features: &Features) -> Option<MultiAgentVersion> {
    if features.enabled(Feature::MultiAgentV2) {
        Some(MultiAgentVersion::V2)
    } else if features.enabled(Feature::MultiAgent) {
        Some(model.multi_agent_version.unwrap_or(MultiAgentVersion::V1))
    } else {
        None
    }
}

impl MultiAgentTools {
    /// v1 tools are deferred when the model supports the search tool; v2 tools never are.
    pub fn for_model(model: &ModelInfo, features: &Features) -> Self {
        match multi_agent_version(model, features) {
            Some(MultiAgentVersion::V1) if model.supports_search_tool => Self::Deferred,
            Some(MultiAgentVersion::V1) => Self::Inline,
            Some(MultiAgentVersion::V2) => Self::Collaboration,
            None => Self::Omitted,
        }
    }
}

/// Tools a catalog entry opts into by name (`experimental_supported_tools`) that this project
/// knows how to describe; other names are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExperimentalTool {
    /// `request_user_input_async`: questions that do not end the turn.
    RequestUserInputAsync,
    /// `send_message_to_user_async`: a message that does not end the turn.
    SendMessageToUserAsync,
    /// The `clock` namespace (`sleep`).
    Clock,
}

impl ExperimentalTool {
    /// The catalog's name of the tool.
    pub fn catalog_name(self) -> &'static str {
        match self {
            Self::RequestUserInputAsync => "request_user_input_async",
            Self::SendMessageToUserAsync => "send_message_to_user_async",
            Self::Clock => "clock",
        }
    }

    const ALL: [Self; 3] = [
        Self::RequestUserInputAsync,
        Self::SendMessageToUserAsync,
        Self::Clock,
    ];

    /// The known tools a model's catalog entry names, in this project's order.
    pub fn for_model(model: &ModelInfo) -> Vec<Self> {
        Self::ALL
            .into_iter()
            .filter(|tool| {
                model
                    .experimental_supported_tools
                    .iter()
                    .any(|name| name == tool.catalog_name())
            })
            .collect()
    }
}

/// Whether a tool offers the `service_tier` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServiceTierParameter {
    Offered,
    Omitted,
}

/// Whether the goal extension's tools (`get_goal`, `create_goal`, `update_goal`) are offered.
/// Upstream's host installs that extension (`codex-rs/app-server/src/extensions.rs`) and it
/// offers its tools while the `goals` feature (on by default) is on; a host that installs no
/// extension, as upstream's core test harness, is a session with `features.goals = false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoalTools {
    Offered,
    Omitted,
}

impl GoalTools {
    pub fn for_features(features: &Features) -> Self {
        if features.enabled(Feature::Goals) {
            Self::Offered
        } else {
            Self::Omitted
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
    /// Where an inline `multi_agent_v1` namespace goes (the release's choice).
    pub inline_multi_agent_position: InlineMultiAgentPosition,
    /// Whether `multi_agent_v1`'s `spawn_agent` has the `service_tier` parameter.
    pub spawn_agent_service_tier: ServiceTierParameter,
    pub goals: GoalTools,
    /// Whether `update_plan` is offered (the release's choice).
    pub plan_tool: PlanTool,
    /// The catalog's opt-in tools this project describes.
    pub experimental: Vec<ExperimentalTool>,
    /// Code mode or direct tools, from the model's `tool_mode`.
    pub layout: ToolLayout,
}

impl BuiltinToolsConfig {
    /// Flags taken from the model's catalog entry and the session's features, as the release
    /// nearest the reference commit offers them ([`CodexRelease::REFERENCE`]; see
    /// [`BuiltinToolsConfig::for_release`]).
    ///
    /// [`CodexRelease::REFERENCE`]: codex_release::CodexRelease::REFERENCE
    pub fn for_model(
        model: &ModelInfo,
        web_search_mode: WebSearchMode,
        features: &Features,
    ) -> Self {
        Self::for_release(
            model,
            web_search_mode,
            features,
            codex_release::CodexRelease::REFERENCE.profile(),
        )
    }

    /// Flags taken from the model's catalog entry, the session's features and what `release`
    /// does differently; the web search mode is a session setting (upstream uses `live` under
    /// `danger-full-access` and `cached` otherwise unless configured).
    pub fn for_release(
        model: &ModelInfo,
        web_search_mode: WebSearchMode,
        features: &Features,
        release: &ReleaseProfile,
    ) -> Self {
        let image_detail = match release.view_image_detail {
            ViewImageDetail::FollowsCatalog if model.supports_image_detail_original => {
                ImageDetailParameter::Offered
            }
            ViewImageDetail::FollowsCatalog | ViewImageDetail::PathOnly => {
                ImageDetailParameter::Omitted
            }
        };
        Self {
            shell_type: model.shell_type,
            apply_patch_tool_type: model.apply_patch_tool_type,
            web_search_mode,
            web_search_tool_type: model.web_search_tool_type,
            image_input: model.supports_input_modality(InputModality::Image),
            image_detail,
            multi_agent: MultiAgentTools::for_model(model, features),
            inline_multi_agent_position: release.inline_multi_agent_position,
            spawn_agent_service_tier: match release.spawn_agent_service_tier {
                SpawnAgentServiceTier::WithModelServiceTiers if model.service_tiers.is_empty() => {
                    ServiceTierParameter::Omitted
                }
                SpawnAgentServiceTier::Always | SpawnAgentServiceTier::WithModelServiceTiers => {
                    ServiceTierParameter::Offered
                }
            },
            goals: GoalTools::for_features(features),
            plan_tool: release.plan_tool,
            experimental: ExperimentalTool::for_model(model),
            layout: match model.tool_mode {
                Some(ToolMode::CodeModeOnly) => ToolLayout::CodeModeOnly,
                Some(ToolMode::Direct | ToolMode::CodeMode) | None => ToolLayout::Direct,
            },
        }
    }
}

/// The built-in tools in upstream's order: shell tools, `update_plan`, `request_user_input` (and
/// the asynchronous user tools a catalog entry opts into), `apply_patch`, `view_image`, the
/// goal tools, the `clock` namespace, `tool_search` or a multi-agent namespace (an inline
/// `multi_agent_v1` before the goal tools where the release puts it there), `web_search`; in code mode `exec` and `wait` first, then the tools the model calls directly.
/// Each tool's name, description and parameters come from its template in `templates`, so a
/// `--prompts-dir` overlay reaches the tools too.
pub fn builtin_tools(
    config: &BuiltinToolsConfig,
    templates: &TemplateSet,
) -> Result<Vec<ToolSpec>, ToolSpecError> {
    let tools = direct_tools(config, templates)?;
    match config.layout {
        ToolLayout::Direct => Ok(tools.into_iter().map(|(tool, _)| tool).collect()),
        ToolLayout::CodeModeOnly => code_mode_tools(tools, templates),
    }
}

/// Every built-in tool as itself, each with how code mode exposes it.
fn direct_tools(
    config: &BuiltinToolsConfig,
    templates: &TemplateSet,
) -> Result<Vec<(ToolSpec, CodeModeExposure)>, ToolSpecError> {
    use CodeModeExposure::Direct;
    use CodeModeExposure::Dropped;
    use CodeModeExposure::Nested;
    let function = |template| function_tool(template, templates).map(ToolSpec::Function);
    let mut tools = Vec::new();
    match config.shell_type {
        // Upstream's shell tool type keeps `default`, `local` and `shell_command` only as
        // catalog aliases of `unified_exec`.
        ConfigShellToolType::UnifiedExec
        | ConfigShellToolType::Default
        | ConfigShellToolType::Local
        | ConfigShellToolType::ShellCommand => {
            tools.push((function(TemplateId::ToolExecCommand)?, Nested));
            tools.push((function(TemplateId::ToolWriteStdin)?, Nested));
        }
        ConfigShellToolType::Disabled => {}
    }
    match config.plan_tool {
        PlanTool::Offered => tools.push((function(TemplateId::ToolUpdatePlan)?, Nested)),
        PlanTool::Omitted => {}
    }
    // It waits on the user interface, so a script cannot call it.
    tools.push((function(TemplateId::ToolRequestUserInput)?, Direct));
    // The model calls them itself, also in code mode.
    for tool in &config.experimental {
        match tool {
            ExperimentalTool::RequestUserInputAsync => {
                tools.push((function(TemplateId::ToolRequestUserInputAsync)?, Direct));
            }
            ExperimentalTool::SendMessageToUserAsync => {
                tools.push((function(TemplateId::ToolSendMessageToUserAsync)?, Direct));
            }
            ExperimentalTool::Clock => {}
        }
    }
    match config.apply_patch_tool_type {
        Some(ApplyPatchToolType::Freeform) => {
            let tool = custom_tool(TemplateId::ToolApplyPatchFreeform, templates)?;
            tools.push((
                ToolSpec::Custom(FreeformTool {
                    format: FreeformToolFormat {
                        definition: templates
                            .file(TemplateId::ToolApplyPatchGrammar)
                            .to_string(),
                        ..tool.format
                    },
                    ..tool
                }),
                Nested,
            ));
        }
        Some(ApplyPatchToolType::Function) => {
            tools.push((function(TemplateId::ToolApplyPatchFunction)?, Nested))
        }
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
        tools.push((ToolSpec::Function(view_image), Nested));
    }
    let inline_multi_agent = || {
        let mut namespace = function_namespace(TemplateId::ToolMultiAgentV1, templates)?;
        match config.spawn_agent_service_tier {
            ServiceTierParameter::Offered => {}
            ServiceTierParameter::Omitted => drop_spawn_agent_service_tier(&mut namespace),
        }
        Ok::<_, ToolSpecError>((namespace, Direct))
    };
    match (config.multi_agent, config.inline_multi_agent_position) {
        (MultiAgentTools::Inline, InlineMultiAgentPosition::BeforeGoalTools) => {
            tools.push(inline_multi_agent()?);
        }
        (MultiAgentTools::Inline, InlineMultiAgentPosition::AfterGoalTools)
        | (
            MultiAgentTools::Omitted | MultiAgentTools::Deferred | MultiAgentTools::Collaboration,
            _,
        ) => {}
    }
    match config.goals {
        GoalTools::Offered => {
            for template in [
                TemplateId::ToolGetGoal,
                TemplateId::ToolCreateGoal,
                TemplateId::ToolUpdateGoal,
            ] {
                tools.push((function(template)?, Nested));
            }
        }
        GoalTools::Omitted => {}
    }
    if config.experimental.contains(&ExperimentalTool::Clock) {
        tools.push((
            function_namespace(TemplateId::ToolClock, templates)?,
            Direct,
        ));
    }
    match config.multi_agent {
        MultiAgentTools::Omitted => {}
        MultiAgentTools::Deferred => match parse_template(TemplateId::ToolSearch, templates)? {
            ToolSpec::ToolSearch(tool) => tools.push((ToolSpec::ToolSearch(tool), Direct)),
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
        MultiAgentTools::Inline => match config.inline_multi_agent_position {
            InlineMultiAgentPosition::AfterGoalTools => tools.push(inline_multi_agent()?),
            InlineMultiAgentPosition::BeforeGoalTools => {}
        },
        // Upstream keeps the collaboration tools out of `exec` (`non_code_mode_only`).
        MultiAgentTools::Collaboration => tools.push((
            function_namespace(TemplateId::ToolMultiAgentV2, templates)?,
            Direct,
        )),
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
        tools.push((
            ToolSpec::WebSearch(WebSearchTool {
                external_web_access,
                search_content_types,
            }),
            Dropped,
        ));
    }
    Ok(tools)
}

/// Removes `service_tier` from the `spawn_agent` tool of a namespace.
fn drop_spawn_agent_service_tier(namespace: &mut ToolSpec) {
    let ToolSpec::Namespace(namespace) = namespace else {
        return;
    };
    for tool in &mut namespace.tools {
        if let ToolSpec::Function(function) = tool
            && function.name == "spawn_agent"
            && let Some(properties) = function
                .parameters
                .get_mut("properties")
                .and_then(serde_json::Value::as_object_mut)
        {
            properties.shift_remove("service_tier");
        }
    }
}

/// The built-in namespaces `config` holds back behind `tool_search` (the model loads them on
/// demand): `multi_agent_v1` when the multi-agent tools are deferred.
pub fn deferred_builtin_namespaces(
    config: &BuiltinToolsConfig,
    templates: &TemplateSet,
) -> Result<Vec<NamespaceTool>, ToolSpecError> {
    match config.multi_agent {
        MultiAgentTools::Deferred => {
            match function_namespace(TemplateId::ToolMultiAgentV1, templates)? {
                ToolSpec::Namespace(namespace) => Ok(vec![namespace]),
                ToolSpec::Function(_)
                | ToolSpec::Custom(_)
                | ToolSpec::LocalShell {}
                | ToolSpec::WebSearch(_)
                | ToolSpec::ToolSearch(_)
                | ToolSpec::Other(_) => Ok(Vec::new()),
            }
        }
        MultiAgentTools::Omitted | MultiAgentTools::Inline | MultiAgentTools::Collaboration => {
            Ok(Vec::new())
        }
    }
}

/// A namespace template whose tools are all function tools.
fn function_namespace(
    template: TemplateId,
    templates: &TemplateSet,
) -> Result<ToolSpec, ToolSpecError> {
    match parse_template(template, templates)? {
        ToolSpec::Namespace(namespace)
            if namespace
                .tools
                .iter()
                .all(|tool| matches!(tool, ToolSpec::Function(_))) =>
        {
            Ok(ToolSpec::Namespace(namespace))
        }
        ToolSpec::Function(_)
        | ToolSpec::Custom(_)
        | ToolSpec::LocalShell {}
        | ToolSpec::WebSearch(_)
        | ToolSpec::Namespace(_)
        | ToolSpec::ToolSearch(_)
        | ToolSpec::Other(_) => Err(ToolSpecError::UnexpectedShape {
            template: template.path(),
            reason: "expected a `namespace` of `function` tools",
        }),
    }
}

pub(super) fn parse_template(
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

pub(super) fn function_tool(
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

/// The `custom` tool (a grammar-format tool) template `template` holds.
pub(super) fn custom_tool(
    template: TemplateId,
    templates: &TemplateSet,
) -> Result<FreeformTool, ToolSpecError> {
    match parse_template(template, templates)? {
        ToolSpec::Custom(tool) => Ok(tool),
        ToolSpec::Function(_)
        | ToolSpec::LocalShell {}
        | ToolSpec::WebSearch(_)
        | ToolSpec::Namespace(_)
        | ToolSpec::ToolSearch(_)
        | ToolSpec::Other(_) => Err(ToolSpecError::UnexpectedShape {
            template: template.path(),
            reason: "expected a `custom` tool with a grammar format",
        }),
    }
}
