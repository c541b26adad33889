//! A skill's optional `agents/openai.yaml` next to its `SKILL.md`: its `policy` says whether the
//! skill may be used without being named (`allow_implicit_invocation`, default yes; a skill
//! that may not is left out of the catalogue) and for which products it exists (`products`,
//! all when empty; a skill restricted to other products than Codex is not loaded at all).
//! The file is optional: an unreadable or invalid one is ignored with a warning
//! (`codex-rs/ext/skills/src/loader/metadata.rs`).

use std::io;
use std::path::Path;

use serde::Deserialize;

/// Folder of the metadata file, inside the skill's folder.
pub const METADATA_DIR: &str = "agents";
/// The metadata file.
pub const METADATA_FILE: &str = "openai.yaml";

/// What the metadata file lets the skill do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillPolicy {
    /// Whether the skill is listed for the model to pick by itself.
    pub implicit: Invocation,
    /// Whether the skill exists for Codex.
    pub product: ProductMatch,
}

impl Default for SkillPolicy {
    fn default() -> Self {
        Self {
            implicit: Invocation::Implicit,
            product: ProductMatch::Codex,
        }
    }
}

/// Whether the model may use the skill without the user naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invocation {
    Implicit,
    /// Only when named (`allow_implicit_invocation: false`): not in the catalogue.
    ExplicitOnly,
}

/// Whether a skill's product restriction admits Codex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductMatch {
    Codex,
    OtherProducts,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Product {
    #[serde(alias = "CHATGPT")]
    Chatgpt,
    #[serde(alias = "CODEX")]
    Codex,
    #[serde(alias = "ATLAS")]
    Atlas,
}

#[derive(Default, Deserialize)]
struct MetadataFile {
    #[serde(default)]
    policy: Option<PolicyTable>,
}

#[derive(Deserialize)]
struct PolicyTable {
    #[serde(default)]
    allow_implicit_invocation: Option<bool>,
    #[serde(default)]
    products: Vec<Product>,
}

/// The policy of the skill in `skill_dir`; a missing file is the default policy, an unreadable
/// or invalid one too, with a warning pushed to `warnings`.
pub fn read_skill_policy(skill_dir: &Path, warnings: &mut Vec<String>) -> SkillPolicy {
    let path = skill_dir.join(METADATA_DIR).join(METADATA_FILE);
    let text = match codex_utils_fs::read_regular_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return SkillPolicy::default(),
        Err(error) => {
            warnings.push(format!(
                "ignoring {}: failed to read {METADATA_FILE}: {error}",
                path.display()
            ));
            return SkillPolicy::default();
        }
    };
    let file: MetadataFile = match serde_yaml::from_str(&text) {
        Ok(file) => file,
        Err(error) => {
            warnings.push(format!(
                "ignoring {}: invalid {METADATA_FILE}: {error}",
                path.display()
            ));
            return SkillPolicy::default();
        }
    };
    let Some(policy) = file.policy else {
        return SkillPolicy::default();
    };
    SkillPolicy {
        implicit: match policy.allow_implicit_invocation {
            Some(false) => Invocation::ExplicitOnly,
            Some(true) | None => Invocation::Implicit,
        },
        product: if policy.products.is_empty()
            || policy
                .products
                .iter()
                .any(|product| matches!(product, Product::Codex))
        {
            ProductMatch::Codex
        } else {
            ProductMatch::OtherProducts
        },
    }
}
