//! `codex-context instructions`: a model's base instructions.

use std::path::PathBuf;

use codex_config::ConfigOverrides;
use codex_core::AgentsMd;
use codex_core::Assembler;
use codex_core::IdGenerator;
use codex_models_manager::MetadataSource;
use codex_prompts::TemplateSet;
use tracing::debug;
use tracing::warn;

use crate::catalog::CatalogArgs;
use crate::catalog::configured_catalog;
use crate::config_flags::load_config;
use crate::config_flags::personality_flag;
use codex_release::CodexRelease;

/// Print a model's base instructions
///
/// Exactly the text `request --model SLUG` sends in its `instructions` field (no newline added):
/// the catalog's instructions template with the personality text that configuration chooses
/// (`--personality`, else `personality` in config.toml, else the default of the personality
/// feature), or the configured `base_instructions` when config.toml sets them.
#[derive(Debug, clap::Args)]
pub struct InstructionsArgs {
    /// Model slug; resolved like a request's model (longest catalog slug that prefixes it).
    #[arg(long, value_name = "SLUG")]
    pub model: String,

    /// Personality: `none`, `friendly` or `pragmatic` (default: as `request` chooses it).
    #[arg(long, value_name = "PERSONALITY")]
    pub personality: Option<String>,

    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// The upstream Codex release whose bundled catalog is read (`0.149`, `0.171`; default:
    /// `codex_version` from config, else the latest supported release).
    #[arg(long, value_name = "VERSION")]
    pub codex_version: Option<CodexRelease>,

    /// Directory overlaying the bundled templates file by file (same relative paths as
    /// `prompts/templates/`). Changes model instructions only with the bundled catalog.
    #[arg(long, value_name = "DIR")]
    pub prompts_dir: Option<PathBuf>,

    /// CODEX_HOME (config.toml); default `$CODEX_HOME`, else `~/.codex`.
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// A configuration override `key=value` (TOML value), like a config.toml line; repeatable.
    #[arg(short = 'c', long = "config", value_name = "KEY=VALUE")]
    pub config_overrides: Vec<String>,
}

pub fn run(args: &InstructionsArgs) -> anyhow::Result<String> {
    let personality = personality_flag(args.personality.as_deref())?;
    let flags = ConfigOverrides {
        codex_home: args.codex_home.clone(),
        model: Some(args.model.clone()),
        personality,
        codex_version: args.codex_version,
        model_catalog: args.catalog.model_catalog.clone(),
        ..ConfigOverrides::default()
    };
    let config = load_config(&flags, &args.config_overrides)?;
    let templates = match &args.prompts_dir {
        Some(dir) => {
            if let Some(catalog) = &config.model_catalog {
                warn!(
                    "--prompts-dir does not change the instructions of --model-catalog {}",
                    catalog.display()
                );
            }
            TemplateSet::from_dir(dir)?
        }
        None => TemplateSet::embedded(),
    };
    let catalog = configured_catalog(&config, &templates)?;
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
    // The same turn context a request is built from; its ids are never printed.
    let drawn = IdGenerator::seeded(0, jiff::Timestamp::UNIX_EPOCH).draw_turn_ids();
    let turn = Assembler {
        catalog: &catalog,
        templates: &templates,
    }
    .turn_context(
        &config,
        &drawn.identity,
        drawn.turn_id,
        None,
        AgentsMd::Omitted,
    )?;
    Ok(turn.base_instructions.text().to_string())
}
