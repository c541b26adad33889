//! `cargo xtask upstream-compare CATALOG_OR_DIR`: do the bundled catalog's facts agree with
//! another catalog (upstream's models.json)?
//!
//! Facts are every catalog field except prose: model and reasoning-level descriptions, service
//! tier descriptions, upgrade migration texts, availability notices and `model_messages` are
//! written in this project's own words and are expected to differ. Reasoning levels compare by
//! effort name; personality support compares the derived `supports_personality`.

use std::path::Path;

use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ModelsResponse;
use serde_json::Map;
use serde_json::Value;

use crate::error::XtaskError;
use crate::prompts_check::CATALOG_PATH;

/// Which fields take part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareScope {
    /// Metadata and flags.
    Facts,
    /// Facts plus the shape of `model_messages`: which message families and texts exist,
    /// whether a text is empty, and their non-text values.
    FactsAndMessageShapes,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldDifference {
    pub field: String,
    /// `null` when the field is absent.
    pub bundled: Value,
    pub upstream: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ModelOutcome {
    Agree,
    Differ(Vec<FieldDifference>),
    OnlyBundled,
    OnlyUpstream,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelComparison {
    pub slug: String,
    pub outcome: ModelOutcome,
}

/// Per model, in bundled order followed by models only upstream has.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogComparison {
    pub models: Vec<ModelComparison>,
}

impl CatalogComparison {
    pub fn agrees(&self) -> bool {
        self.models
            .iter()
            .all(|model| model.outcome == ModelOutcome::Agree)
    }

    /// One line per model (`OK` or the number of differences, then one indented line each).
    pub fn render(&self) -> String {
        let mut output = String::new();
        for model in &self.models {
            let slug = &model.slug;
            match &model.outcome {
                ModelOutcome::Agree => output.push_str(&format!("{slug}: OK\n")),
                ModelOutcome::OnlyBundled => {
                    output.push_str(&format!("{slug}: only in the bundled catalog\n"));
                }
                ModelOutcome::OnlyUpstream => {
                    output.push_str(&format!("{slug}: only in upstream's catalog\n"));
                }
                ModelOutcome::Differ(differences) => {
                    output.push_str(&format!("{slug}: {} difference(s)\n", differences.len()));
                    for difference in differences {
                        output.push_str(&format!(
                            "  {}: bundled {}, upstream {}\n",
                            difference.field, difference.bundled, difference.upstream
                        ));
                    }
                }
            }
        }
        let agreeing = self
            .models
            .iter()
            .filter(|model| model.outcome == ModelOutcome::Agree)
            .count();
        output.push_str(&format!(
            "{agreeing} of {} models agree\n",
            self.models.len()
        ));
        output
    }
}

/// Reads a catalog from a file, or from `models.json` inside a directory.
pub fn load_catalog(path: &Path) -> Result<ModelsResponse, XtaskError> {
    let file = if path.is_dir() {
        path.join("models.json")
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&file).map_err(|source| XtaskError::io(&file, source))?;
    serde_json::from_str(&text).map_err(|source| XtaskError::Json { path: file, source })
}

/// Compares the workspace's bundled catalog with the catalog at `other`.
pub fn upstream_compare(
    root: &Path,
    other: &Path,
    scope: CompareScope,
) -> Result<CatalogComparison, XtaskError> {
    let bundled = load_catalog(&root.join(CATALOG_PATH))?;
    let upstream = load_catalog(other)?;
    compare_catalogs(&bundled, &upstream, scope).map_err(|source| XtaskError::Json {
        path: other.to_path_buf(),
        source,
    })
}

pub fn compare_catalogs(
    bundled: &ModelsResponse,
    upstream: &ModelsResponse,
    scope: CompareScope,
) -> Result<CatalogComparison, serde_json::Error> {
    let mut models = Vec::new();
    for model in &bundled.models {
        let outcome = match upstream
            .models
            .iter()
            .find(|other| other.slug == model.slug)
        {
            None => ModelOutcome::OnlyBundled,
            Some(other) => {
                let differences = field_differences(&facts(model, scope)?, &facts(other, scope)?);
                if differences.is_empty() {
                    ModelOutcome::Agree
                } else {
                    ModelOutcome::Differ(differences)
                }
            }
        };
        models.push(ModelComparison {
            slug: model.slug.clone(),
            outcome,
        });
    }
    for other in &upstream.models {
        if !bundled.models.iter().any(|model| model.slug == other.slug) {
            models.push(ModelComparison {
                slug: other.slug.clone(),
                outcome: ModelOutcome::OnlyUpstream,
            });
        }
    }
    Ok(CatalogComparison { models })
}

fn field_differences(
    bundled: &Map<String, Value>,
    upstream: &Map<String, Value>,
) -> Vec<FieldDifference> {
    let mut fields: Vec<&String> = bundled.keys().collect();
    fields.extend(upstream.keys().filter(|key| !bundled.contains_key(*key)));
    fields
        .into_iter()
        .filter_map(|field| {
            let ours = bundled.get(field).cloned().unwrap_or(Value::Null);
            let theirs = upstream.get(field).cloned().unwrap_or(Value::Null);
            (ours != theirs).then(|| FieldDifference {
                field: field.clone(),
                bundled: ours,
                upstream: theirs,
            })
        })
        .collect()
}

/// The model's comparable fields: its wire form (so absent keys and defaults compare equal)
/// without prose, plus derived values.
fn facts(model: &ModelInfo, scope: CompareScope) -> Result<Map<String, Value>, serde_json::Error> {
    let Value::Object(mut fields) = serde_json::to_value(model)? else {
        return Ok(Map::new());
    };
    fields.shift_remove("description");
    let messages = fields.shift_remove("model_messages").unwrap_or(Value::Null);
    let efforts: Vec<String> = model
        .supported_reasoning_levels
        .iter()
        .map(|level| level.effort.to_string())
        .collect();
    fields.insert("supported_reasoning_levels".to_string(), efforts.into());
    let tiers: Vec<Value> = model
        .service_tiers
        .iter()
        .map(|tier| serde_json::json!({ "id": tier.id, "name": tier.name }))
        .collect();
    fields.insert("service_tiers".to_string(), tiers.into());
    if let Some(Value::Object(upgrade)) = fields.get_mut("upgrade") {
        upgrade.shift_remove("migration_markdown");
    }
    if let Some(notice) = fields.get_mut("availability_nux") {
        *notice = Value::Bool(!notice.is_null());
    }
    fields.insert(
        "supports_personality".to_string(),
        model.supports_personality().into(),
    );
    match scope {
        CompareScope::Facts => {}
        CompareScope::FactsAndMessageShapes => {
            flatten_into(
                &mut fields,
                "model_messages".to_string(),
                text_shape(messages),
            );
        }
    }
    Ok(fields)
}

/// Adds `value` under `key`, nested objects as one `key.child` entry per leaf, so a family
/// present on one side only lists each of its fields.
fn flatten_into(fields: &mut Map<String, Value>, key: String, value: Value) {
    match value {
        Value::Object(object) => {
            for (child, value) in object {
                flatten_into(fields, format!("{key}.{child}"), value);
            }
        }
        leaf @ (Value::Null
        | Value::Bool(_)
        | Value::Number(_)
        | Value::String(_)
        | Value::Array(_)) => {
            fields.insert(key, leaf);
        }
    }
}

/// Texts become `"<empty>"` or `"<text>"`; everything else is kept.
fn text_shape(value: Value) -> Value {
    match value {
        Value::String(text) if text.is_empty() => Value::String("<empty>".to_string()),
        Value::String(_) => Value::String("<text>".to_string()),
        Value::Array(items) => Value::Array(items.into_iter().map(text_shape).collect()),
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| (key, text_shape(value)))
                .collect(),
        ),
        other @ (Value::Null | Value::Bool(_) | Value::Number(_)) => other,
    }
}

#[cfg(test)]
#[path = "upstream_compare_tests.rs"]
mod tests;
