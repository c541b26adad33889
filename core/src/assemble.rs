//! The one way a turn is assembled: loaded configuration, templates and catalog, the thread's
//! identity (drawn once, when the thread starts), the AGENTS.md and skills discovered for the
//! turn's cwd, then the [`TurnContext`] every section and the request are built from.
//!
//! `request`, `explain`, `send` and scripted sessions (`session run/resume/fork`) all build
//! their turn contexts here; the request itself is
//! [`build_turn_request`](crate::request::build_turn_request) (after
//! [`build_first_turn_request`](crate::first_turn::build_first_turn_request)'s initial context
//! on a thread's first turn).

use std::path::PathBuf;
use std::sync::Arc;

use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;

use crate::ids::IdGenerator;
use crate::ids::ThreadIdentity;
use crate::ids::seeded_clock_start;
use crate::turn_context::TurnContext;
use crate::turn_context::TurnContextError;
use crate::turn_context::TurnContextSources;
use codex_config::AgentsMdError;
use codex_config::Config;
use codex_config::LocalFileSystem;
use codex_config::discover_agents_md_blocking;
use codex_config::discover_skills;

/// Why a turn could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum AssemblyError {
    #[error(transparent)]
    TurnContext(#[from] TurnContextError),
    #[error("cannot discover AGENTS.md: {0}")]
    AgentsMd(#[from] AgentsMdError),
    /// A seed was given but the configured date cannot start a clock.
    #[error("cannot start the seeded clock on {date}: it is not a YYYY-MM-DD date")]
    Clock { date: String },
}

/// Whether a turn's context includes AGENTS.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentsMd {
    /// Discovered for the configuration's cwd; the global files are read from `codex_home`
    /// (none when `None`). Every discovery warning is logged once.
    Discover { codex_home: Option<PathBuf> },
    /// Left out (settings that only shape metadata, not the model's context).
    Omitted,
}

impl AgentsMd {
    /// Discovery with the global files of the configuration's CODEX_HOME.
    pub fn from_config(config: &Config) -> Self {
        AgentsMd::Discover {
            codex_home: Some(config.codex_home.clone()),
        }
    }
}

/// What every turn is assembled from besides its configuration.
#[derive(Debug, Clone, Copy)]
pub struct Assembler<'a> {
    pub catalog: &'a ModelCatalog,
    pub templates: &'a TemplateSet,
}

impl Assembler<'_> {
    /// Turn `turn_id` of the thread `identity` under `config`. `recorded` is the base
    /// instructions a resumed or forked thread recorded.
    pub fn turn_context(
        &self,
        config: &Config,
        identity: &ThreadIdentity,
        turn_id: String,
        recorded: Option<&BaseInstructions>,
        agents_md: AgentsMd,
    ) -> Result<TurnContext, AssemblyError> {
        let (discovery, skills) = match agents_md {
            AgentsMd::Discover { codex_home } => {
                let skills = config
                    .skills_discovery_request(codex_home.clone())
                    .map(|request| discover_skills(&request));
                let mut request = config.agents_md_request("");
                request.codex_home = codex_home;
                // Discovery logs some of its warnings itself; every one is logged below, once.
                let discovery = tracing::subscriber::with_default(
                    tracing::subscriber::NoSubscriber::default(),
                    || discover_agents_md_blocking(&request, Arc::new(LocalFileSystem)),
                )?;
                for warning in &discovery.warnings {
                    tracing::warn!("{warning}");
                }
                if let Some(skills) = &skills {
                    for warning in &skills.warnings {
                        tracing::warn!("{warning}");
                    }
                    for error in &skills.errors {
                        tracing::warn!("{error}");
                    }
                }
                (Some(discovery), skills)
            }
            AgentsMd::Omitted => (None, None),
        };
        let mut turn = TurnContext::from_config(
            config,
            TurnContextSources {
                catalog: self.catalog,
                templates: self.templates,
                identity,
                recorded_base_instructions: recorded,
            },
            turn_id,
            discovery,
        )?;
        if let (Some(settings), Some(skills)) = (&mut turn.skills, &skills) {
            settings.add_discovered(skills);
        }
        Ok(turn)
    }
}

/// The id generator of a one-shot command's thread: with a configured seed, a seeded clock
/// starting at midnight UTC of the configured date (so a seed and pinned date reproduce every
/// id and timestamp); otherwise the live clock.
pub fn thread_ids(config: &Config) -> Result<IdGenerator, AssemblyError> {
    match config.seed {
        Some(seed) => {
            let start =
                seeded_clock_start(&config.current_date).ok_or_else(|| AssemblyError::Clock {
                    date: config.current_date.clone(),
                })?;
            Ok(IdGenerator::seeded(seed, start))
        }
        None => Ok(IdGenerator::live()),
    }
}
