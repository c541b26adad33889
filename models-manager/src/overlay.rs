//! The bundled catalog read through a template set: its instruction and personality texts are
//! verbatim copies of template files, so each copy is swapped for the set's version of that file
//! and a `--prompts-dir` overlay changes model instructions too.

use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use codex_release::BundledCatalog;
use serde_json::Value;

use crate::catalog::ModelCatalog;
use crate::error::CatalogError;
use crate::error::CatalogOrigin;

/// Templates the bundled catalog's `instructions_template` texts were copied from.
const INSTRUCTION_TEMPLATES: [TemplateId; 5] = [
    TemplateId::BaseInstructionsDefault,
    TemplateId::BaseInstructionsGpt5,
    TemplateId::BaseInstructionsGpt56,
    TemplateId::BaseInstructionsGpt6,
    TemplateId::BaseInstructionsAutoReview,
];

/// Templates the bundled catalog's personality texts were copied from (its default texts are
/// empty, so no template stands behind them).
const PERSONALITY_TEMPLATES: [TemplateId; 2] = [
    TemplateId::PersonalityFriendly,
    TemplateId::PersonalityPragmatic,
];

impl ModelCatalog {
    /// The 0.149 bundled catalog with every copied template text taken from `templates`.
    pub fn bundled_with_templates(templates: &TemplateSet) -> Result<Self, CatalogError> {
        Self::bundled_for(BundledCatalog::V0_149, templates)
    }

    /// A release's bundled catalog (`ReleaseProfile::catalog`) with every copied template text
    /// (instructions, personality, role, mode and approval texts) taken from `templates`. Texts
    /// composed when the catalog was written (a baked personality) keep the embedded wording.
    pub fn bundled_for(
        catalog: BundledCatalog,
        templates: &TemplateSet,
    ) -> Result<Self, CatalogError> {
        let mut response = Self::bundled_release(catalog)?.into_response();
        for messages in response
            .models
            .iter_mut()
            .filter_map(|model| model.model_messages.as_mut())
        {
            if let Some(modes) = messages.collaboration_modes.as_mut() {
                use_overlaid_copy(
                    &mut modes.default,
                    &[TemplateId::CatalogCollaborationDefault],
                    templates,
                );
            }
            if let Some(approvals) = messages.approvals.as_mut() {
                use_overlaid_copy(
                    &mut approvals.on_request_auto_review,
                    &[TemplateId::CatalogApprovalOnRequestAutoReview],
                    templates,
                );
            }
            if let Some(Value::Object(roles)) = messages
                .multi_agent
                .as_mut()
                .and_then(|multi_agent| multi_agent.get_mut("role"))
            {
                for (key, id) in [
                    ("root", TemplateId::CatalogRoleRoot),
                    ("subagent", TemplateId::CatalogRoleSubagent),
                ] {
                    if let Some(Value::String(text)) = roles.get_mut(key)
                        && text.as_str() == id.embedded_file()
                    {
                        *text = templates.file(id).to_string();
                    }
                }
            }
            use_overlaid_copy(
                &mut messages.instructions_template,
                &INSTRUCTION_TEMPLATES,
                templates,
            );
            if let Some(variables) = messages.instructions_variables.as_mut() {
                for text in [
                    &mut variables.personality_default,
                    &mut variables.personality_friendly,
                    &mut variables.personality_pragmatic,
                ] {
                    use_overlaid_copy(text, &PERSONALITY_TEMPLATES, templates);
                }
            }
        }
        Ok(Self::from_response(response, CatalogOrigin::Bundled))
    }
}

/// Replaces `text` by `templates`' file when it is exactly the embedded file of one of `ids`.
fn use_overlaid_copy(text: &mut Option<String>, ids: &[TemplateId], templates: &TemplateSet) {
    let Some(current) = text.as_mut() else {
        return;
    };
    if let Some(id) = ids.iter().find(|id| id.embedded_file() == current.as_str()) {
        *current = templates.file(*id).to_string();
    }
}
