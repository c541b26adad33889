//! Per-model message texts carried by the catalog (`model_messages`).

use std::borrow::Cow;

use serde::Deserialize;
use serde::Serialize;

use crate::config_types::Personality;

/// Literal placeholder in an instructions template that the personality text replaces (plain
/// string replacement, not a template engine).
pub const PERSONALITY_PLACEHOLDER: &str = "{{ personality }}";

/// Heading line of a personality section written straight into an instructions template; the
/// section is dropped when the personality is explicitly `none`.
pub const PERSONALITY_SECTION_HEADING: &str = "# Personality";

/// Message texts a catalog entry may override. The families upstream's models.json always writes
/// are serialized as `null` when absent; newer families are omitted when absent. Families whose
/// shape this workspace does not interpret are kept as raw JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelMessages {
    #[serde(default)]
    pub instructions_template: Option<String>,
    #[serde(default)]
    pub instructions_variables: Option<ModelInstructionsVariables>,
    #[serde(default)]
    pub approvals: Option<ApprovalMessages>,
    #[serde(default)]
    pub collaboration_modes: Option<CollaborationModeMessages>,
    #[serde(default)]
    pub auto_review: Option<serde_json::Value>,
    #[serde(default)]
    pub multi_agent: Option<serde_json::Value>,
    #[serde(default)]
    pub permissions: Option<PermissionMessages>,
    #[serde(default)]
    pub token_budget: Option<serde_json::Value>,
    #[serde(default)]
    pub guardian_v2: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation_policies: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_filter_guidance: Option<String>,
}

/// The texts substituted for [`PERSONALITY_PLACEHOLDER`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInstructionsVariables {
    #[serde(default)]
    pub personality_default: Option<String>,
    #[serde(default)]
    pub personality_friendly: Option<String>,
    #[serde(default)]
    pub personality_pragmatic: Option<String>,
}

impl ModelInstructionsVariables {
    /// All three personality texts are present.
    pub fn is_complete(&self) -> bool {
        self.personality_default.is_some()
            && self.personality_friendly.is_some()
            && self.personality_pragmatic.is_some()
    }

    /// The personality text for a requested personality: no preference → the default text,
    /// `none` → empty, `friendly` / `pragmatic` → that text (which may be missing).
    pub fn personality_message(&self, personality: Option<Personality>) -> Option<&str> {
        match personality {
            None => self.personality_default.as_deref(),
            Some(Personality::None) => Some(""),
            Some(Personality::Friendly) => self.personality_friendly.as_deref(),
            Some(Personality::Pragmatic) => self.personality_pragmatic.as_deref(),
        }
    }
}

/// Approval-policy sections a model may override (`None` = use the bundled text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalMessages {
    #[serde(default)]
    pub on_request: Option<String>,
    #[serde(default)]
    pub on_request_auto_review: Option<String>,
    #[serde(default)]
    pub never: Option<String>,
    #[serde(default)]
    pub unless_trusted: Option<String>,
}

/// Sandbox-mode sections a model may override (`None` = use the bundled text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermissionMessages {
    #[serde(default)]
    pub danger_full_access: Option<String>,
    #[serde(default)]
    pub workspace_write: Option<String>,
    #[serde(default)]
    pub read_only: Option<String>,
}

/// Collaboration-mode instructions a model may override (`None` = use the bundled text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollaborationModeMessages {
    #[serde(default)]
    pub default: Option<String>,
    #[serde(default)]
    pub plan: Option<String>,
}

impl ModelMessages {
    /// Instructions for a personality choice: the template with every placeholder replaced by the
    /// personality text (missing text → empty). Without variables the template is returned as
    /// is; without a template the result is empty. An explicit `none` also drops a personality
    /// section baked into the template: from the line that is exactly
    /// [`PERSONALITY_SECTION_HEADING`] up to the next top-level (`#`) heading line, or to the end.
    pub fn render_instructions(&self, personality: Option<Personality>) -> String {
        let Some(template) = &self.instructions_template else {
            return String::new();
        };
        let template = match personality {
            Some(Personality::None) => {
                let mut kept = String::with_capacity(template.len());
                let mut inside_section = false;
                for line in template.split_inclusive('\n') {
                    // A CRLF template still names its headings on the text before the `\r`.
                    let text = line.trim_end_matches('\n').trim_end_matches('\r');
                    let top_level_heading = text
                        .strip_prefix('#')
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']));
                    if text == PERSONALITY_SECTION_HEADING {
                        inside_section = true;
                    } else if top_level_heading {
                        inside_section = false;
                    }
                    if !inside_section {
                        kept.push_str(line);
                    }
                }
                Cow::Owned(kept)
            }
            None | Some(Personality::Friendly) | Some(Personality::Pragmatic) => {
                Cow::Borrowed(template.as_str())
            }
        };
        match &self.instructions_variables {
            None => template.into_owned(),
            Some(variables) => template.replace(
                PERSONALITY_PLACEHOLDER,
                variables
                    .personality_message(personality)
                    .unwrap_or_default(),
            ),
        }
    }

    /// The template contains the placeholder and all three personality texts exist.
    pub fn supports_personality(&self) -> bool {
        self.instructions_template
            .as_deref()
            .is_some_and(|template| template.contains(PERSONALITY_PLACEHOLDER))
            && self
                .instructions_variables
                .as_ref()
                .is_some_and(ModelInstructionsVariables::is_complete)
    }
}
