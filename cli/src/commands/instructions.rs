//! `codex-context instructions`: a model's base instructions.

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::Context;
use codex_models_manager::MetadataSource;
use codex_models_manager::Personality;
use codex_prompts::TemplateSet;
use tracing::debug;
use tracing::warn;

use crate::catalog::CatalogArgs;

/// Print a model's base instructions
///
/// Exactly the text a request's `instructions` field carries, with no newline added: the
/// catalog's instructions template with the chosen personality text substituted.
#[derive(Debug, clap::Args)]
pub struct InstructionsArgs {
    /// Model slug; resolved like a request's model (longest catalog slug that prefixes it).
    #[arg(long, value_name = "SLUG")]
    pub model: String,

    /// Personality: `none`, `friendly` or `pragmatic` (default: the model's default text).
    #[arg(long, value_name = "PERSONALITY")]
    pub personality: Option<String>,

    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// Directory overlaying the bundled templates file by file (same relative paths as
    /// `prompts/templates/`). Changes model instructions only with the bundled catalog.
    #[arg(long, value_name = "DIR")]
    pub prompts_dir: Option<PathBuf>,
}

pub fn run(args: &InstructionsArgs) -> anyhow::Result<String> {
    // Parsed here rather than by clap so that a bad value is a one-line error like the others.
    let personality = args
        .personality
        .as_deref()
        .map(Personality::from_str)
        .transpose()
        .context("invalid --personality")?;
    let templates = match &args.prompts_dir {
        Some(dir) => {
            if let Some(catalog) = &args.catalog.model_catalog {
                warn!(
                    "--prompts-dir does not change the instructions of --model-catalog {}",
                    catalog.display()
                );
            }
            TemplateSet::from_dir(dir)?
        }
        None => TemplateSet::embedded(),
    };
    let catalog = args.catalog.load(&templates)?;
    // An unknown slug is an error here, so the lookup's own fallback warning would only be a
    // second, redundant line on stderr.
    let resolved =
        tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
            catalog.lookup(&args.model)
        });
    match &resolved.source {
        MetadataSource::Catalog { matched_slug } => {
            debug!(model = %args.model, matched_slug, "resolved model");
        }
        MetadataSource::Fallback => {
            anyhow::bail!("model `{}` is not in the {}", args.model, catalog.origin());
        }
    }
    if personality.is_some() && !resolved.info.supports_personality() {
        warn!(
            "model `{}` does not support personalities, so --personality may have no effect",
            args.model
        );
    }
    Ok(resolved.info.get_model_instructions(personality))
}
