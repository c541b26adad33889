//! `codex-context models`: the catalog's models, one per line.

use codex_models_manager::ModelInfo;
use codex_prompts::TemplateSet;
use serde_json::json;

use crate::catalog::CatalogArgs;

/// List the catalog's models
///
/// One line per model, in priority order: slug, visibility, context window (`context_window`,
/// else `max_context_window`) and whether the model supports personalities.
#[derive(Debug, clap::Args)]
pub struct ModelsArgs {
    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// Print a JSON array of `{slug, visibility, context_window, supports_personality}`.
    #[arg(long)]
    pub json: bool,
}

const HEADERS: [&str; 4] = ["SLUG", "VISIBILITY", "CONTEXT WINDOW", "PERSONALITY"];

pub fn run(args: &ModelsArgs) -> anyhow::Result<String> {
    let catalog = args.catalog.load(&TemplateSet::embedded())?;
    let models = catalog.list();
    if args.json {
        let rows: Vec<serde_json::Value> = models
            .iter()
            .map(|model| {
                json!({
                    "slug": model.slug,
                    "visibility": model.visibility.as_str(),
                    "context_window": model.resolved_context_window(),
                    "supports_personality": model.supports_personality(),
                })
            })
            .collect();
        return Ok(serde_json::to_string_pretty(&rows)? + "\n");
    }
    Ok(table(&models))
}

/// Left-aligned columns separated by two spaces; no trailing spaces.
fn table(models: &[&ModelInfo]) -> String {
    let rows: Vec<[String; 4]> = models
        .iter()
        .map(|model| {
            [
                model.slug.clone(),
                model.visibility.as_str().to_string(),
                model
                    .resolved_context_window()
                    .map_or_else(|| "-".to_string(), |window| window.to_string()),
                if model.supports_personality() {
                    "yes"
                } else {
                    "no"
                }
                .to_string(),
            ]
        })
        .collect();
    let header = HEADERS.map(str::to_string);
    let mut widths = HEADERS.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(widths) {
            line.push_str(&format!("{cell:<width$}  "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
