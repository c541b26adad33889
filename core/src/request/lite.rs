//! Responses Lite: the tool catalog and the base instructions travel as the first two input
//! items instead of the `tools` and `instructions` fields.

use codex_context_fragments::ContextualUserFragment;
use codex_protocol::ResponseItem;

use crate::ids::LiteIdNamespace;
use codex_fragments::base_instructions::BaseInstructionsFragment;
use codex_tools::NamespaceTool;
use codex_tools::ToolSpec;

/// Name of the namespace that top-level function and custom tools are folded into.
pub const LITE_FUNCTIONS_NAMESPACE: &str = "functions";

/// How the Lite tool catalog is laid out, depending on what the provider understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LiteToolCatalog {
    /// Top-level function and custom tools folded into one `functions` namespace (providers with
    /// namespace support); other tools follow unchanged.
    #[default]
    Namespaced,
    /// The same list as the `tools` field would carry.
    Flat,
}

/// Whether the spliced Lite items carry ids. The default is the release this project targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LitePrefixIds {
    /// No `id` on either item, as the release nearest the reference (0.149.1) sends them.
    #[default]
    Omitted,
    /// UUIDv5 names in the thread's namespace ([`LiteIdNamespace`]), as later releases give
    /// them ids: byte-identical across retries and resumes.
    Derived,
}

/// The tools as the Lite catalog lists them.
pub fn lite_catalog_tools(tools: &[ToolSpec], layout: LiteToolCatalog) -> Vec<ToolSpec> {
    match layout {
        LiteToolCatalog::Flat => tools.to_vec(),
        LiteToolCatalog::Namespaced => {
            let (functions, others): (Vec<ToolSpec>, Vec<ToolSpec>) =
                tools.iter().cloned().partition(|tool| match tool {
                    ToolSpec::Function(_) | ToolSpec::Custom(_) => true,
                    ToolSpec::LocalShell {}
                    | ToolSpec::WebSearch(_)
                    | ToolSpec::Namespace(_)
                    | ToolSpec::ToolSearch(_)
                    | ToolSpec::Other(_) => false,
                });
            let mut catalog = Vec::with_capacity(others.len() + 1);
            if !functions.is_empty() {
                catalog.push(ToolSpec::Namespace(NamespaceTool {
                    name: LITE_FUNCTIONS_NAMESPACE.to_string(),
                    description: String::new(),
                    tools: functions,
                }));
            }
            catalog.extend(others);
            catalog
        }
    }
}

/// The items spliced in front of the input: the `additional_tools` item, then (when the base
/// instructions are not empty) a [`BaseInstructionsFragment`] message carrying them, with ids
/// as `ids` says.
pub fn lite_prefix_items(
    thread_id: &str,
    tools: &[ToolSpec],
    layout: LiteToolCatalog,
    base_instructions: &str,
    ids: LitePrefixIds,
) -> Result<Vec<ResponseItem>, serde_json::Error> {
    let namespace = match ids {
        LitePrefixIds::Omitted => None,
        LitePrefixIds::Derived => Some(LiteIdNamespace::for_thread(thread_id)),
    };
    let catalog = lite_catalog_tools(tools, layout)
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()?;
    let serialized = serde_json::to_string(&catalog)?;
    let mut prefix = vec![ResponseItem::AdditionalTools {
        id: namespace
            .as_ref()
            .map(|namespace| namespace.additional_tools_id(&serialized)),
        role: "developer".to_string(),
        tools: catalog,
    }];
    if !base_instructions.is_empty() {
        let mut message =
            BaseInstructionsFragment::verbatim(base_instructions).into_response_item();
        if let ResponseItem::Message { id, .. } = &mut message {
            *id = namespace
                .as_ref()
                .map(|namespace| namespace.message_id(base_instructions));
        }
        prefix.push(message);
    }
    Ok(prefix)
}
