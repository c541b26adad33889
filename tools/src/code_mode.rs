//! Code mode (`tool_mode = "code_mode_only"`): the model gets a freeform `exec` tool that runs
//! JavaScript, and the tools a script may call (upstream's nested tools) are described inside
//! `exec`'s description instead of being sent as tools of their own. Tools the model must call
//! directly (`request_user_input`, namespaces such as `collaboration`) stay in the list; the
//! hosted `web_search` is not offered (upstream's `codex-rs/core/src/tools/code_mode/`).

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use codex_prompts::render;
use serde_json::Value;

use super::builtin::custom_tool;
use super::builtin::function_tool;
use super::spec::FreeformTool;
use super::spec::FreeformToolFormat;
use super::spec::ToolSpec;
use super::spec::ToolSpecError;

/// How the built-in tools reach the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolLayout {
    /// Every tool is sent as itself (upstream's `direct`; its `code_mode`, which adds `exec`
    /// beside the direct tools, is not modelled and gets this layout too).
    Direct,
    /// `exec` and `wait` replace the tools a script can call (`code_mode_only`).
    CodeModeOnly,
}

/// Whether a tool can be called from an `exec` script or only by the model itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum CodeModeExposure {
    /// Callable from `exec` as `tools.<name>(…)`.
    Nested,
    /// Called by the model directly, also in code mode.
    Direct,
    /// Not offered in code mode (the hosted `web_search`).
    Dropped,
}

/// The code-mode list: the `exec` tool (describing every nested tool, by name), `wait`, then
/// the direct tools in their order.
pub(super) fn code_mode_tools(
    tools: Vec<(ToolSpec, CodeModeExposure)>,
    templates: &TemplateSet,
) -> Result<Vec<ToolSpec>, ToolSpecError> {
    let mut nested = Vec::new();
    let mut direct = Vec::new();
    for (tool, exposure) in tools {
        match exposure {
            CodeModeExposure::Nested => nested.push(tool),
            CodeModeExposure::Direct => direct.push(tool),
            CodeModeExposure::Dropped => {}
        }
    }
    nested.sort_by(|a, b| a.name().cmp(&b.name()));
    let exec = custom_tool(TemplateId::ToolCodeModeExec, templates)?;
    // The template's description opens the one sent; every nested tool follows, by name.
    let mut description = exec.description.clone();
    for tool in &nested {
        if let Some((name, tool_description, declaration)) = nested_declaration(tool) {
            description.push_str("\n\n");
            description.push_str(&render(
                templates.text(TemplateId::ToolCodeModeNestedTool),
                &[
                    ("name", name),
                    ("description", tool_description),
                    ("declaration", &declaration),
                ],
            ));
        }
    }
    let exec = FreeformTool {
        description,
        format: FreeformToolFormat {
            definition: templates
                .file(TemplateId::ToolCodeModeExecGrammar)
                .to_string(),
            ..exec.format
        },
        ..exec
    };
    let mut list = vec![
        ToolSpec::Custom(exec),
        ToolSpec::Function(function_tool(TemplateId::ToolCodeModeWait, templates)?),
    ];
    list.extend(direct);
    Ok(list)
}

/// Name, description and TypeScript declaration of a tool callable from `exec`.
fn nested_declaration(tool: &ToolSpec) -> Option<(&str, &str, String)> {
    match tool {
        ToolSpec::Function(function) => Some((
            &function.name,
            &function.description,
            format!(
                "{}(args: {}): Promise<unknown>;",
                function.name,
                typescript_type(&function.parameters, 0)
            ),
        )),
        ToolSpec::Custom(custom) => Some((
            &custom.name,
            &custom.description,
            format!("{}(input: string): Promise<unknown>;", custom.name),
        )),
        ToolSpec::LocalShell {}
        | ToolSpec::WebSearch(_)
        | ToolSpec::Namespace(_)
        | ToolSpec::ToolSearch(_)
        | ToolSpec::Other(_) => None,
    }
}

/// The TypeScript type of a JSON schema: objects list their properties (optional ones with
/// `?`, each after a comment with its description), string enums become unions.
fn typescript_type(schema: &Value, depth: usize) -> String {
    let kind = schema.get("type").and_then(Value::as_str);
    match kind {
        Some("object") => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return "{}".to_string();
            };
            if properties.is_empty() {
                return "{}".to_string();
            }
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let indent = "  ".repeat(depth + 1);
            let mut out = String::from("{\n");
            for (name, property) in properties {
                if let Some(description) = property.get("description").and_then(Value::as_str) {
                    for line in description.lines() {
                        out.push_str(&format!("{indent}// {line}\n"));
                    }
                }
                let optional = if required.contains(&name.as_str()) {
                    ""
                } else {
                    "?"
                };
                out.push_str(&format!(
                    "{indent}{name}{optional}: {};\n",
                    typescript_type(property, depth + 1)
                ));
            }
            out.push_str(&"  ".repeat(depth));
            out.push('}');
            out
        }
        Some("array") => match schema.get("items") {
            Some(items) => format!("Array<{}>", typescript_type(items, depth)),
            None => "Array<unknown>".to_string(),
        },
        Some("string") => match schema.get("enum").and_then(Value::as_array) {
            Some(values) => values
                .iter()
                .map(|value| value.to_string())
                .collect::<Vec<_>>()
                .join(" | "),
            None => "string".to_string(),
        },
        Some("number" | "integer") => "number".to_string(),
        Some("boolean") => "boolean".to_string(),
        Some(_) | None => "unknown".to_string(),
    }
}
