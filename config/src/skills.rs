//! `[skills]`: the skills extension. Present, it installs the extension (world-state sections
//! `skills` and `host_skills`); `include_instructions` is upstream's switch for listing the
//! catalogue in the model context. Upstream discovers host skills from `SKILL.md` files; here
//! they are declared as `[[skills.host]]` entries.

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
    /// Upstream's `bundled`, `config` and `max_context_tokens`: accepted, without effect here.
    pub bundled: Option<toml::Value>,
    pub config: Option<toml::Value>,
    pub max_context_tokens: Option<toml::Value>,
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

/// The installed skills extension, defaults applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillsConfig {
    pub include_instructions: bool,
    pub host: Vec<SkillToml>,
}

impl From<SkillsToml> for SkillsConfig {
    fn from(toml: SkillsToml) -> Self {
        Self {
            include_instructions: toml.include_instructions.unwrap_or(true),
            host: toml.host.unwrap_or_default(),
        }
    }
}
