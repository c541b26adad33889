//! `[skills]`: the skills extension, and the discovery of `SKILL.md` files on the host.
//! The released CLI installs the extension on every thread ([`ExtensionHost::Cli`]); a library
//! session has it only when `[skills]` is configured. `include_instructions` is upstream's switch
//! for listing the catalogue in the model context, `bundled.enabled` for the release's bundled
//! (system) skills. Besides the skills discovered on disk ([`discover_skills`]), skills can be
//! declared as `[[skills.host]]` entries (this project's extension).

mod discover;
mod front_matter;
mod policy;
mod walk;

pub use discover::ADMIN_CONFIG_DIR;
pub use discover::BundledSkills;
pub use discover::DiscoveredSkill;
pub use discover::SkillLoadError;
pub use discover::SkillScope;
pub use discover::SkillsDiscovery;
pub use discover::SkillsDiscoveryRequest;
pub use discover::SystemSkills;
pub use discover::discover_skills;
pub use front_matter::MAX_NAME_CHARS;
pub use front_matter::SkillFrontMatter;
pub use front_matter::SkillFrontMatterError;
pub use front_matter::parse_skill_front_matter;
pub use policy::Invocation;
pub use walk::MAX_DIRS_PER_ROOT;
pub use walk::MAX_ENTRIES_PER_ROOT;
pub use walk::MAX_SCAN_DEPTH;
pub use walk::SKILL_FILE;

use codex_release::CodexRelease;
use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

/// The `[skills]` table of one configuration layer; `None` fields are not set here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkillsToml {
    /// Whether skills catalogues are listed in the model context (default `true`).
    pub include_instructions: Option<bool>,
    /// Skills on the host file system.
    pub host: Option<Vec<SkillToml>>,
    /// `[skills.bundled]`: whether the release's bundled skills are discovered.
    pub bundled: Option<BundledSkillsToml>,
    /// Upstream's `config` and `max_context_tokens`: accepted, without effect here.
    pub config: Option<toml::Value>,
    pub max_context_tokens: Option<toml::Value>,
}

/// `[skills.bundled]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BundledSkillsToml {
    /// Default `true`.
    pub enabled: Option<bool>,
}

/// One declared skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillToml {
    pub name: String,
    pub description: String,
    /// Its `SKILL.md`; a relative path resolves like the layer's other paths.
    pub path: PathBuf,
}

impl SkillsToml {
    /// `higher` wins for every field it sets.
    pub(crate) fn overlay(self, higher: SkillsToml) -> SkillsToml {
        SkillsToml {
            include_instructions: higher.include_instructions.or(self.include_instructions),
            host: higher.host.or(self.host),
            bundled: higher.bundled.or(self.bundled),
            config: higher.config.or(self.config),
            max_context_tokens: higher.max_context_tokens.or(self.max_context_tokens),
        }
    }

    /// Joins every relative host-skill path onto `base`.
    pub fn resolve_paths(&mut self, base: &Path) {
        for skill in self.host.iter_mut().flatten() {
            if skill.path.is_relative() {
                skill.path = base.join(&skill.path);
            }
        }
    }
}

/// Which extensions a session's host installs without being asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExtensionHost {
    /// Upstream's core library on its own (as its test harness runs it): the skills extension
    /// only when `[skills]` is configured, with no orchestrator skill provider.
    #[default]
    Library,
    /// The released CLI (`codex exec`, the TUI, the app server): the skills extension on every
    /// thread, with the host's and the orchestrator's skill providers.
    Cli,
}

impl ExtensionHost {
    /// The release a session reproduces when nothing names one: the released CLI follows the
    /// latest release ([`DEFAULT_RELEASE`](crate::DEFAULT_RELEASE)); upstream's core library on
    /// its own is the reference commit's ([`CodexRelease::REFERENCE`]).
    pub fn default_release(self) -> CodexRelease {
        match self {
            ExtensionHost::Library => CodexRelease::REFERENCE,
            ExtensionHost::Cli => crate::DEFAULT_RELEASE,
        }
    }
}

/// Whether the orchestrator's skill catalogue exists in the session (world-state section
/// `orchestrator_skills`), and whether it is switched on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrchestratorSkills {
    /// No orchestrator provider: the section is absent.
    Absent,
    /// The provider is there but its skills are off (`[orchestrator.skills]`'s default).
    Disabled,
}

/// The installed skills extension, defaults applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillsConfig {
    pub include_instructions: bool,
    pub bundled: BundledSkills,
    pub host: Vec<SkillToml>,
    pub orchestrator: OrchestratorSkills,
}

impl SkillsConfig {
    /// The extension as `host` installs it, with the `[skills]` table when one is configured;
    /// `None` when it is not installed.
    pub fn installed(toml: Option<SkillsToml>, host: ExtensionHost) -> Option<Self> {
        let orchestrator = match host {
            ExtensionHost::Library => OrchestratorSkills::Absent,
            ExtensionHost::Cli => OrchestratorSkills::Disabled,
        };
        let toml = match (toml, host) {
            (Some(toml), _) => toml,
            (None, ExtensionHost::Cli) => SkillsToml::default(),
            (None, ExtensionHost::Library) => return None,
        };
        Some(Self {
            include_instructions: toml.include_instructions.unwrap_or(true),
            bundled: match toml.bundled.and_then(|bundled| bundled.enabled) {
                Some(false) => BundledSkills::Disabled,
                Some(true) | None => BundledSkills::Enabled,
            },
            host: toml.host.unwrap_or_default(),
            orchestrator,
        })
    }
}
