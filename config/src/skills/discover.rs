//! Skills discovery on the host (`codex-rs/ext/skills/src/host_roots.rs`,
//! `loader/host.rs`, `loader/host_merge.rs`, `render.rs`): the roots, in upstream's order,
//!
//! 1. `<dir>/.codex/skills` for every `<dir>` from the cwd up to the project root that has a
//!    `.codex` folder (other than CODEX_HOME itself), repository scope;
//! 2. `$CODEX_HOME/skills` (hidden folders, so `.system`, not entered) and `~/.agents/skills`,
//!    user scope, then `$CODEX_HOME/skills/.system`, where the release installs its bundled
//!    skills, system scope (left out when `[skills.bundled] enabled = false`);
//! 3. the administrator's `<admin>/skills` (`/etc/codex/skills`), admin scope;
//! 4. `<dir>/.agents/skills` for every `<dir>` from the project root down to the cwd,
//!    repository scope;
//!
//! each walked once ([`walk_skills_root`]; symlinked folders followed except under the system
//! root). A skill is known by its real path: the first root that finds it wins. The listing
//! order is system, admin, repository, user skills, each by name, then by path. A `SKILL.md`
//! whose front matter is invalid is skipped with an error (silently for system skills).

use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;

use super::front_matter::parse_skill_front_matter;
use super::policy::Invocation;
use super::policy::ProductMatch;
use super::policy::read_skill_policy;
use super::walk::FolderLinks;
use super::walk::walk_skills_root;

/// Folder under CODEX_HOME (and the admin folder) holding skills.
pub const SKILLS_DIR: &str = "skills";
/// Folder under `$CODEX_HOME/skills` where the release installs its bundled skills.
pub const SYSTEM_SKILLS_DIR: &str = ".system";
/// The user's own skills folder under HOME and the repository's under each folder.
pub const AGENTS_DIR: &str = ".agents";
/// A project's configuration folder.
pub const PROJECT_CONFIG_DIR: &str = ".codex";
/// The administrator's configuration folder on Unix.
pub const ADMIN_CONFIG_DIR: &str = "/etc/codex";

/// Where a skill comes from, in listing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkillScope {
    /// The release's bundled skills under `$CODEX_HOME/skills/.system`.
    System,
    /// The administrator's skills.
    Admin,
    /// The repository's `.codex/skills` and `.agents/skills`.
    Repo,
    /// `$CODEX_HOME/skills` and `~/.agents/skills`.
    User,
}

/// Whether the release's bundled skills are discovered (`[skills.bundled] enabled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BundledSkills {
    #[default]
    Enabled,
    Disabled,
}

/// What discovery looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsDiscoveryRequest {
    /// CODEX_HOME; `None` leaves out its roots.
    pub codex_home: Option<PathBuf>,
    /// HOME, for `~/.agents/skills`; `None` leaves it out.
    pub home_dir: Option<PathBuf>,
    pub cwd: PathBuf,
    /// Names whose presence marks the project root (as for AGENTS.md).
    pub project_root_markers: Vec<String>,
    /// The administrator's configuration folder; `None` leaves it out.
    pub admin_dir: Option<PathBuf>,
    pub bundled: BundledSkills,
}

/// One skill found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveredSkill {
    pub name: String,
    pub description: String,
    pub short_description: Option<String>,
    /// The `SKILL.md` as found under its (real) root.
    pub path: PathBuf,
    pub scope: SkillScope,
    pub invocation: Invocation,
}

/// A `SKILL.md` that is not a valid skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillLoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for SkillLoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Failed to load skill at {}: {}",
            self.path.display(),
            self.message
        )
    }
}

/// Whether the release's bundled skills are on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SystemSkills {
    /// `$CODEX_HOME/skills/.system` exists.
    Installed,
    /// It does not: the released CLI would install its bundled skills there on first start.
    NotInstalled { dir: PathBuf },
    /// Bundled skills are switched off, or there is no CODEX_HOME.
    NotLooked,
}

/// Everything discovery found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsDiscovery {
    /// Every valid skill, in listing order (including those only used when named).
    pub skills: Vec<DiscoveredSkill>,
    pub errors: Vec<SkillLoadError>,
    /// Roots that could not be read completely, metadata files ignored.
    pub warnings: Vec<String>,
    pub system_skills: SystemSkills,
    /// Every root walked (its real path), in discovery order.
    pub roots: Vec<PathBuf>,
}

impl SkillsDiscovery {
    /// The skills the model is told about: all but those used only when named.
    pub fn listed(&self) -> impl Iterator<Item = &DiscoveredSkill> {
        self.skills
            .iter()
            .filter(|skill| skill.invocation == Invocation::Implicit)
    }
}

struct SkillsRoot {
    path: PathBuf,
    scope: SkillScope,
}

/// Discovers the skills of `request`.
pub fn discover_skills(request: &SkillsDiscoveryRequest) -> SkillsDiscovery {
    let mut skills = Vec::new();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut seen = HashSet::new();
    let mut walked = Vec::new();
    for root in skill_roots(request) {
        let links = match root.scope {
            SkillScope::System => FolderLinks::Ignore,
            SkillScope::Admin | SkillScope::Repo | SkillScope::User => FolderLinks::Follow,
        };
        let real_root = std::fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone());
        walked.push(real_root.clone());
        let walk = walk_skills_root(&real_root, links);
        warnings.extend(walk.warnings);
        for found in walk.skill_files {
            let real = std::fs::canonicalize(&found).unwrap_or_else(|_| found.clone());
            if !seen.insert(real.clone()) {
                continue;
            }
            match load_skill(&found, &real, root.scope, &mut warnings) {
                Ok(Some(skill)) => skills.push((real, skill)),
                Ok(None) => {}
                Err(message) if root.scope != SkillScope::System => errors.push(SkillLoadError {
                    path: real,
                    message,
                }),
                Err(_) => {}
            }
        }
    }
    skills.sort_by(|(left_real, left), (right_real, right)| {
        (left.scope, &left.name, left_real).cmp(&(right.scope, &right.name, right_real))
    });
    SkillsDiscovery {
        skills: skills.into_iter().map(|(_, skill)| skill).collect(),
        errors,
        warnings,
        system_skills: system_skills(request),
        roots: walked,
    }
}

/// The skill at `found` (real path `real`), `None` when it is not meant for Codex.
fn load_skill(
    found: &Path,
    real: &Path,
    scope: SkillScope,
    warnings: &mut Vec<String>,
) -> Result<Option<DiscoveredSkill>, String> {
    let contents = codex_utils_fs::read_regular_to_string(real)
        .map_err(|error| format!("failed to read file: {error}"))?;
    let skill_dir = real.parent().unwrap_or(real);
    let folder_name = skill_dir
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let front_matter =
        parse_skill_front_matter(&contents, &folder_name).map_err(|error| error.to_string())?;
    let policy = read_skill_policy(skill_dir, warnings);
    if policy.product == ProductMatch::OtherProducts {
        return Ok(None);
    }
    Ok(Some(DiscoveredSkill {
        name: front_matter.name,
        description: front_matter.description,
        short_description: front_matter.short_description,
        path: found.to_path_buf(),
        scope,
        invocation: policy.implicit,
    }))
}

fn system_skills(request: &SkillsDiscoveryRequest) -> SystemSkills {
    match (&request.codex_home, request.bundled) {
        (Some(codex_home), BundledSkills::Enabled) => {
            let dir = codex_home.join(SKILLS_DIR).join(SYSTEM_SKILLS_DIR);
            if dir.is_dir() {
                SystemSkills::Installed
            } else {
                SystemSkills::NotInstalled { dir }
            }
        }
        (Some(_), BundledSkills::Disabled) | (None, _) => SystemSkills::NotLooked,
    }
}

/// Every root of `request` in upstream's order, each path once.
fn skill_roots(request: &SkillsDiscoveryRequest) -> Vec<SkillsRoot> {
    let cwd = &request.cwd;
    let project_root = project_root(cwd, &request.project_root_markers);
    // The cwd first, up to the project root.
    let upward: Vec<&Path> = cwd
        .ancestors()
        .take(
            cwd.ancestors()
                .take_while(|dir| *dir != project_root)
                .count()
                + 1,
        )
        .collect();
    let mut roots = Vec::new();
    for dir in &upward {
        let project_config = dir.join(PROJECT_CONFIG_DIR);
        let is_codex_home = request
            .codex_home
            .as_deref()
            .is_some_and(|home| same_dir(home, &project_config));
        if project_config.is_dir() && !is_codex_home {
            roots.push(root(project_config.join(SKILLS_DIR), SkillScope::Repo));
        }
    }
    if let Some(codex_home) = &request.codex_home {
        roots.push(root(codex_home.join(SKILLS_DIR), SkillScope::User));
        if let Some(home) = &request.home_dir {
            roots.push(root(
                home.join(AGENTS_DIR).join(SKILLS_DIR),
                SkillScope::User,
            ));
        }
        if request.bundled == BundledSkills::Enabled {
            roots.push(root(
                codex_home.join(SKILLS_DIR).join(SYSTEM_SKILLS_DIR),
                SkillScope::System,
            ));
        }
    } else if let Some(home) = &request.home_dir {
        roots.push(root(
            home.join(AGENTS_DIR).join(SKILLS_DIR),
            SkillScope::User,
        ));
    }
    if let Some(admin) = &request.admin_dir {
        roots.push(root(admin.join(SKILLS_DIR), SkillScope::Admin));
    }
    for dir in upward.iter().rev() {
        let agents_skills = dir.join(AGENTS_DIR).join(SKILLS_DIR);
        if agents_skills.is_dir() {
            roots.push(root(agents_skills, SkillScope::Repo));
        }
    }
    let mut paths = HashSet::new();
    roots.retain(|root| paths.insert(root.path.clone()));
    roots
}

fn root(path: PathBuf, scope: SkillScope) -> SkillsRoot {
    SkillsRoot { path, scope }
}

/// The nearest ancestor of `cwd` (itself included) holding one of `markers`; `cwd` when none
/// does or there are no markers.
fn project_root<'a>(cwd: &'a Path, markers: &[String]) -> &'a Path {
    cwd.ancestors()
        .find(|dir| {
            markers
                .iter()
                .any(|marker| std::fs::symlink_metadata(dir.join(marker)).is_ok())
        })
        .unwrap_or(cwd)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(a), Ok(b)) if a == b
        )
}

#[cfg(test)]
#[path = "discover_tests.rs"]
mod tests;
