//! Writes the template-derived fields of `models-manager/models.json`.
//!
//! The file is edited as a JSON value with key order preserved, so every field the manifest
//! does not own keeps its value and position, and a regeneration without template changes
//! reproduces the file byte for byte (2-space pretty JSON plus a final newline, the same form
//! `ModelsResponse` serializes to).

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Path;

use codex_protocol::openai_models::ModelInstructionsVariables;
use codex_protocol::openai_models::ModelMessages;
use codex_protocol::openai_models::ModelsResponse;
use codex_protocol::openai_models::PERSONALITY_PLACEHOLDER;
use serde_json::Map;
use serde_json::Value;

use crate::error::XtaskError;
use crate::manifest::Manifest;
use crate::manifest::PersonalitySlot;
use crate::manifest::PersonalityText;

/// Key of the legacy per-model copy of the rendered instructions.
const BASE_INSTRUCTIONS_KEY: &str = "base_instructions";

/// Where a generated value comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeSource {
    /// A file under `prompts/templates/` (path relative to that directory).
    Template(String),
    /// The manifest's `metadata` table.
    Manifest,
}

/// A field whose generated value differs from the file's current one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    pub slug: String,
    /// Dotted path inside the model entry.
    pub field: String,
    pub sources: Vec<ChangeSource>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCatalog {
    pub text: String,
    pub changes: Vec<FieldChange>,
}

/// Regenerates `current` (the catalog's text, read from `path`) from the manifest and the
/// template texts (keyed by path relative to `prompts/templates/`; every template the manifest
/// names must be present).
pub fn generate_catalog(
    path: &Path,
    current: &str,
    manifest: &Manifest,
    templates: &BTreeMap<String, String>,
) -> Result<GeneratedCatalog, XtaskError> {
    let invalid = |message: String| XtaskError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let mut document: Value = serde_json::from_str(current).map_err(|source| XtaskError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    let models = document
        .get_mut("models")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| invalid("no `models` array".to_string()))?;
    let catalog_slugs: BTreeSet<String> = models
        .iter()
        .filter_map(|model| model.get("slug").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let manifest_slugs: BTreeSet<String> = manifest
        .models
        .iter()
        .map(|model| model.slug.clone())
        .collect();
    if catalog_slugs != manifest_slugs || catalog_slugs.len() != models.len() {
        return Err(invalid(format!(
            "models differ from prompts/models.toml: only in the catalog {:?}, only in the manifest {:?} \
             (every catalog entry needs a unique slug and a manifest entry)",
            catalog_slugs
                .difference(&manifest_slugs)
                .collect::<Vec<_>>(),
            manifest_slugs
                .difference(&catalog_slugs)
                .collect::<Vec<_>>(),
        )));
    }
    let template_text = |template: &str| {
        templates
            .get(template)
            .cloned()
            .ok_or_else(|| invalid(format!("template {template} was not loaded")))
    };

    let mut changes = Vec::new();
    for model in models.iter_mut() {
        let Value::Object(entry) = model else {
            return Err(invalid("a catalog entry is not an object".to_string()));
        };
        let slug = entry
            .get("slug")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(spec) = manifest.models.iter().find(|spec| spec.slug == slug) else {
            return Err(invalid(format!("model `{slug}` has no manifest entry")));
        };
        let mut record = |field: &str, sources: Vec<ChangeSource>| {
            changes.push(FieldChange {
                slug: slug.clone(),
                field: field.to_string(),
                sources,
            });
        };

        let mut template = template_text(&spec.instructions_template)?;
        let mut template_source = ChangeSource::Template(spec.instructions_template.clone());
        if let Some(baked) = &spec.baked_personality {
            template = template.replace(PERSONALITY_PLACEHOLDER, &template_text(baked)?);
            // Either file changes the written text; the personality is named as the source.
            template_source = ChangeSource::Template(baked.clone());
        }
        let personality_set = manifest.personality_set(spec);
        // Each slot's text and where it comes from, when the model has a personality set.
        let mut slots: Vec<(PersonalitySlot, Option<String>, ChangeSource)> = Vec::new();
        if let Some(set) = personality_set {
            for slot in PersonalitySlot::ALL {
                slots.push(match set.text(slot) {
                    Some(PersonalityText::Template(path)) => (
                        slot,
                        Some(template_text(path)?),
                        ChangeSource::Template(path.clone()),
                    ),
                    Some(PersonalityText::Inline { text }) => {
                        (slot, Some(text.clone()), ChangeSource::Manifest)
                    }
                    None => (slot, None, ChangeSource::Manifest),
                });
            }
        }
        let text_of = |wanted: PersonalitySlot| {
            slots
                .iter()
                .find(|(slot, _, _)| *slot == wanted)
                .and_then(|(_, text, _)| text.clone())
        };
        let variables = personality_set.map(|_| ModelInstructionsVariables {
            personality_default: text_of(PersonalitySlot::Default),
            personality_friendly: text_of(PersonalitySlot::Friendly),
            personality_pragmatic: text_of(PersonalitySlot::Pragmatic),
        });
        let variables_value =
            serde_json::to_value(&variables).map_err(|source| XtaskError::Json {
                path: path.to_path_buf(),
                source,
            })?;

        if !matches!(entry.get("model_messages"), Some(Value::Object(_))) {
            set_keeping_base_instructions_last(entry, "model_messages", Value::Object(Map::new()));
        }
        let Some(Value::Object(messages)) = entry.get_mut("model_messages") else {
            return Err(invalid(format!(
                "model `{slug}`: model_messages is not an object"
            )));
        };
        let template_value = Value::String(template.clone());
        let template_changed = messages.get("instructions_template") != Some(&template_value);
        if template_changed {
            messages.insert("instructions_template".to_string(), template_value);
            record(
                "model_messages.instructions_template",
                vec![template_source.clone()],
            );
        }
        let current_variables = messages
            .get("instructions_variables")
            .cloned()
            .unwrap_or(Value::Null);
        let changed_slots: Vec<&(PersonalitySlot, Option<String>, ChangeSource)> = slots
            .iter()
            .filter(|(slot, text, _)| {
                current_variables.get(slot.catalog_key())
                    != Some(&text.clone().map_or(Value::Null, Value::String))
            })
            .collect();
        if messages.get("instructions_variables") != Some(&variables_value) {
            messages.insert("instructions_variables".to_string(), variables_value);
            let mut sources: Vec<ChangeSource> = changed_slots
                .iter()
                .map(|(_, _, source)| source.clone())
                .collect();
            if sources.is_empty() {
                // The personality set was added or removed.
                sources.push(ChangeSource::Manifest);
            }
            record("model_messages.instructions_variables", sources);
        }

        for (message_path, message_template) in &spec.messages {
            let text = Value::String(template_text(message_template)?);
            let slot = message_slot(messages, message_path)
                .map_err(|reason| invalid(format!("model `{slug}`: {reason}")))?;
            if *slot != text {
                *slot = text;
                record(
                    &format!("model_messages.{message_path}"),
                    vec![ChangeSource::Template(message_template.clone())],
                );
            }
        }

        for (key, value) in &spec.metadata {
            let value = serde_json::to_value(value).map_err(|source| XtaskError::Json {
                path: path.to_path_buf(),
                source,
            })?;
            if entry.get(key) != Some(&value) {
                set_keeping_base_instructions_last(entry, key, value);
                record(key, vec![ChangeSource::Manifest]);
            }
        }

        if entry.contains_key(BASE_INSTRUCTIONS_KEY) {
            let rendered = ModelMessages {
                instructions_template: Some(template),
                instructions_variables: variables,
                ..ModelMessages::default()
            }
            .render_instructions(None);
            let rendered = Value::String(rendered);
            if entry.get(BASE_INSTRUCTIONS_KEY) != Some(&rendered) {
                entry.insert(BASE_INSTRUCTIONS_KEY.to_string(), rendered);
                // Empty when only the copy itself was edited by hand.
                let default_changed = changed_slots
                    .iter()
                    .find(|(slot, _, _)| *slot == PersonalitySlot::Default)
                    .map(|(_, _, source)| source.clone());
                let sources = [template_changed.then_some(template_source), default_changed]
                    .into_iter()
                    .flatten()
                    .collect();
                record(BASE_INSTRUCTIONS_KEY, sources);
            }
        }
    }

    let text = serde_json::to_string_pretty(&document).map_err(|source| XtaskError::Json {
        path: path.to_path_buf(),
        source,
    })? + "\n";
    // The result must still be a catalog the crates can load.
    serde_json::from_str::<ModelsResponse>(&text).map_err(|source| XtaskError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(GeneratedCatalog { text, changes })
}

/// The value at dotted `path` inside `messages`, creating objects (over `null`) on the way.
fn message_slot<'m>(
    messages: &'m mut Map<String, Value>,
    path: &str,
) -> Result<&'m mut Value, String> {
    let mut steps = path.split('.');
    let first = steps.next().unwrap_or_default();
    let mut slot = messages.entry(first.to_string()).or_insert(Value::Null);
    for step in steps {
        if slot.is_null() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(object) = slot else {
            return Err(format!(
                "model_messages.{path} crosses a value that is not an object"
            ));
        };
        slot = object.entry(step.to_string()).or_insert(Value::Null);
    }
    Ok(slot)
}

/// Sets `key`, keeping an existing key's position; a new key goes before `base_instructions`,
/// which the wire form always writes last.
fn set_keeping_base_instructions_last(entry: &mut Map<String, Value>, key: &str, value: Value) {
    if entry.contains_key(key) {
        entry.insert(key.to_string(), value);
        return;
    }
    let base_instructions = entry.shift_remove(BASE_INSTRUCTIONS_KEY);
    entry.insert(key.to_string(), value);
    if let Some(base_instructions) = base_instructions {
        entry.insert(BASE_INSTRUCTIONS_KEY.to_string(), base_instructions);
    }
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
