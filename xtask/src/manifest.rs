//! `prompts/models.toml`: which templates make up each bundled model's catalog entry.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Component;
use std::path::Path;

use serde::Deserialize;

use crate::error::XtaskError;

/// Top-level keys of a catalog entry that `metadata` may not set: the slug identifies the entry
/// and the instruction texts come from templates.
const RESERVED_METADATA_KEYS: [&str; 3] = ["slug", "model_messages", "base_instructions"];

/// Message families `messages` may not write: the instruction texts have fields of their own.
const RESERVED_MESSAGE_PATHS: [&str; 2] = ["instructions_template", "instructions_variables"];

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Named sets of personality texts a model can refer to.
    #[serde(default)]
    pub personality_sets: BTreeMap<String, PersonalitySet>,
    /// One entry per model of the bundled catalog.
    pub models: Vec<ModelEntry>,
}

/// The texts substituted for `{{ personality }}`; an absent one is written as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonalitySet {
    pub default: Option<PersonalityText>,
    pub friendly: Option<PersonalityText>,
    pub pragmatic: Option<PersonalityText>,
}

/// A personality text: a template path, or `{ text = "" }` for a deliberately empty text (the
/// only inline text accepted, since prose lives in templates).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum PersonalityText {
    Template(String),
    Inline { text: String },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    pub slug: String,
    /// Template path (relative to `prompts/templates/`) written to
    /// `model_messages.instructions_template`.
    pub instructions_template: String,
    /// Name of a `[personality_sets.*]` table written to `model_messages.instructions_variables`;
    /// without one that field is `null`.
    #[serde(default)]
    pub personalities: Option<String>,
    /// A personality template substituted for `{{ personality }}` when the catalog is written,
    /// for models whose instructions carry one personality baked in (no variables).
    #[serde(default)]
    pub baked_personality: Option<String>,
    /// Further message texts: a dotted path inside `model_messages` (`multi_agent.role.root`,
    /// `collaboration_modes.default`, …) and the template written there.
    #[serde(default)]
    pub messages: BTreeMap<String, String>,
    /// Top-level catalog fields set verbatim (TOML values converted to JSON).
    #[serde(default)]
    pub metadata: toml::Table,
}

/// The three personality slots, in catalog order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PersonalitySlot {
    Default,
    Friendly,
    Pragmatic,
}

impl PersonalitySlot {
    pub const ALL: [PersonalitySlot; 3] = [
        PersonalitySlot::Default,
        PersonalitySlot::Friendly,
        PersonalitySlot::Pragmatic,
    ];

    /// The key inside `model_messages.instructions_variables`.
    pub fn catalog_key(self) -> &'static str {
        match self {
            PersonalitySlot::Default => "personality_default",
            PersonalitySlot::Friendly => "personality_friendly",
            PersonalitySlot::Pragmatic => "personality_pragmatic",
        }
    }
}

impl PersonalitySet {
    pub fn text(&self, slot: PersonalitySlot) -> Option<&PersonalityText> {
        match slot {
            PersonalitySlot::Default => self.default.as_ref(),
            PersonalitySlot::Friendly => self.friendly.as_ref(),
            PersonalitySlot::Pragmatic => self.pragmatic.as_ref(),
        }
    }
}

/// What a template referenced by the manifest becomes in the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CatalogField<'a> {
    InstructionsTemplate,
    Personality(PersonalitySlot),
    /// A text at a dotted path inside `model_messages`.
    Message(&'a str),
}

impl CatalogField<'_> {
    pub fn json_path(self) -> String {
        match self {
            CatalogField::InstructionsTemplate => {
                "model_messages.instructions_template".to_string()
            }
            CatalogField::Personality(slot) => {
                format!(
                    "model_messages.instructions_variables.{}",
                    slot.catalog_key()
                )
            }
            CatalogField::Message(path) => format!("model_messages.{path}"),
        }
    }
}

/// One use of a template file by one model.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TemplateUse<'a> {
    pub template: &'a str,
    pub slug: &'a str,
    pub field: CatalogField<'a>,
}

impl Manifest {
    pub fn load(path: &Path) -> Result<Self, XtaskError> {
        let text = std::fs::read_to_string(path).map_err(|source| XtaskError::io(path, source))?;
        let manifest: Manifest = toml::from_str(&text).map_err(|source| XtaskError::Toml {
            path: path.to_path_buf(),
            source,
        })?;
        manifest.validate().map_err(|message| XtaskError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(manifest)
    }

    fn validate(&self) -> Result<(), String> {
        for (name, set) in &self.personality_sets {
            for slot in PersonalitySlot::ALL {
                match set.text(slot) {
                    Some(PersonalityText::Template(path)) => check_template_path(path)?,
                    Some(PersonalityText::Inline { text }) if !text.is_empty() => {
                        return Err(format!(
                            "personality set `{name}`: inline {} text must be empty; put prose in a template",
                            slot.catalog_key()
                        ));
                    }
                    Some(PersonalityText::Inline { .. }) | None => {}
                }
            }
        }
        let mut slugs = BTreeSet::new();
        for model in &self.models {
            if !slugs.insert(model.slug.as_str()) {
                return Err(format!("model `{}` is listed twice", model.slug));
            }
            check_template_path(&model.instructions_template)?;
            if let Some(baked) = &model.baked_personality {
                check_template_path(baked)?;
                if model.personalities.is_some() {
                    return Err(format!(
                        "model `{}` has both a personality set and a baked personality",
                        model.slug
                    ));
                }
            }
            for (path, template) in &model.messages {
                check_template_path(template)?;
                if path.is_empty()
                    || path.split('.').any(str::is_empty)
                    || RESERVED_MESSAGE_PATHS.contains(&path.split('.').next().unwrap_or_default())
                {
                    return Err(format!(
                        "model `{}`: `{path}` is not a message path the manifest may set",
                        model.slug
                    ));
                }
            }
            if let Some(set) = &model.personalities
                && !self.personality_sets.contains_key(set)
            {
                return Err(format!(
                    "model `{}` names personality set `{set}`, which is not defined",
                    model.slug
                ));
            }
            if let Some(key) = RESERVED_METADATA_KEYS
                .iter()
                .find(|key| model.metadata.contains_key(**key))
            {
                return Err(format!(
                    "model `{}`: metadata may not set `{key}`",
                    model.slug
                ));
            }
        }
        Ok(())
    }

    pub fn personality_set(&self, model: &ModelEntry) -> Option<&PersonalitySet> {
        model
            .personalities
            .as_ref()
            .and_then(|name| self.personality_sets.get(name))
    }

    /// Every template file use, in model order.
    pub fn template_uses(&self) -> Vec<TemplateUse<'_>> {
        let mut uses = Vec::new();
        for model in &self.models {
            uses.push(TemplateUse {
                template: &model.instructions_template,
                slug: &model.slug,
                field: CatalogField::InstructionsTemplate,
            });
            if let Some(baked) = &model.baked_personality {
                uses.push(TemplateUse {
                    template: baked,
                    slug: &model.slug,
                    field: CatalogField::InstructionsTemplate,
                });
            }
            if let Some(set) = self.personality_set(model) {
                for slot in PersonalitySlot::ALL {
                    if let Some(PersonalityText::Template(template)) = set.text(slot) {
                        uses.push(TemplateUse {
                            template,
                            slug: &model.slug,
                            field: CatalogField::Personality(slot),
                        });
                    }
                }
            }
            for (path, template) in &model.messages {
                uses.push(TemplateUse {
                    template,
                    slug: &model.slug,
                    field: CatalogField::Message(path),
                });
            }
        }
        uses
    }
}

/// Template paths are relative, with `/` separators and no `.` / `..` steps, so they name the
/// same file as the `include_str!` scan.
fn check_template_path(path: &str) -> Result<(), String> {
    let is_plain = !path.is_empty()
        && Path::new(path)
            .components()
            .all(|component| matches!(component, Component::Normal(_)));
    if is_plain && !path.contains('\\') {
        Ok(())
    } else {
        Err(format!(
            "template path `{path}` must be relative to prompts/templates/ without `.`/`..` steps"
        ))
    }
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
