use std::path::Path;

use pretty_assertions::assert_eq;

use super::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(dir: &Path, name: &str) {
    write(
        &dir.join(name).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: Does {name}.\n---\n"),
    );
}

struct Layout {
    _root: tempfile::TempDir,
    base: PathBuf,
}

impl Layout {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(root.path()).unwrap();
        std::fs::create_dir_all(base.join("codex_home")).unwrap();
        std::fs::create_dir_all(base.join("home")).unwrap();
        std::fs::create_dir_all(base.join("repo/.git")).unwrap();
        std::fs::create_dir_all(base.join("repo/sub")).unwrap();
        Self { _root: root, base }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.base.join(relative)
    }

    fn request(&self, cwd: &str) -> SkillsDiscoveryRequest {
        SkillsDiscoveryRequest {
            codex_home: Some(self.path("codex_home")),
            home_dir: Some(self.path("home")),
            cwd: self.path(cwd),
            project_root_markers: vec![".git".to_string()],
            admin_dir: Some(self.path("admin")),
            bundled: BundledSkills::Enabled,
        }
    }
}

fn names(discovery: &SkillsDiscovery) -> Vec<(String, SkillScope)> {
    discovery
        .listed()
        .map(|skill| (skill.name.clone(), skill.scope))
        .collect()
}

#[test]
fn every_root_is_found_and_listed_system_admin_repo_user_then_by_name() {
    let layout = Layout::new();
    skill(&layout.path("codex_home/skills/.system"), "zeta-system");
    skill(&layout.path("codex_home/skills/.system"), "alpha-system");
    skill(&layout.path("codex_home/skills"), "user-home");
    skill(&layout.path("home/.agents/skills"), "agents-user");
    skill(&layout.path("admin/skills"), "admin-skill");
    skill(&layout.path("repo/.codex/skills"), "release-notes");
    skill(&layout.path("repo/.agents/skills"), "db-migrate");
    skill(&layout.path("repo/sub/.agents/skills"), "nested");
    // Above the project root: not looked at.
    skill(&layout.path(".agents/skills"), "outside");
    let discovery = discover_skills(&layout.request("repo/sub"));
    assert_eq!(
        names(&discovery),
        vec![
            ("alpha-system".to_string(), SkillScope::System),
            ("zeta-system".to_string(), SkillScope::System),
            ("admin-skill".to_string(), SkillScope::Admin),
            ("db-migrate".to_string(), SkillScope::Repo),
            ("nested".to_string(), SkillScope::Repo),
            ("release-notes".to_string(), SkillScope::Repo),
            ("agents-user".to_string(), SkillScope::User),
            ("user-home".to_string(), SkillScope::User),
        ]
    );
    assert_eq!(
        discovery.skills[0].path,
        layout.path("codex_home/skills/.system/alpha-system/SKILL.md")
    );
    assert_eq!(discovery.system_skills, SystemSkills::Installed);
    assert_eq!(discovery.errors, Vec::new());
}

#[test]
fn without_a_project_root_only_the_cwd_is_searched() {
    let layout = Layout::new();
    std::fs::remove_dir(layout.path("repo/.git")).unwrap();
    skill(&layout.path("repo/.agents/skills"), "parent");
    skill(&layout.path("repo/sub/.agents/skills"), "here");
    let discovery = discover_skills(&layout.request("repo/sub"));
    assert_eq!(
        names(&discovery),
        vec![("here".to_string(), SkillScope::Repo)]
    );
    assert_eq!(
        discovery.system_skills,
        SystemSkills::NotInstalled {
            dir: layout.path("codex_home/skills/.system")
        }
    );
}

#[test]
fn invalid_skills_are_errors_except_system_ones_and_explicit_only_skills_are_not_listed() {
    let layout = Layout::new();
    write(
        &layout.path("repo/.agents/skills/broken/SKILL.md"),
        "---\nname: broken\n---\n",
    );
    write(
        &layout.path("codex_home/skills/.system/broken-system/SKILL.md"),
        "no front matter",
    );
    skill(&layout.path("codex_home/skills/.system"), "review-agent");
    write(
        &layout.path("codex_home/skills/.system/review-agent/agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: false\n",
    );
    skill(&layout.path("repo/.agents/skills"), "chat-only");
    write(
        &layout.path("repo/.agents/skills/chat-only/agents/openai.yaml"),
        "policy:\n  products: [chatgpt]\n",
    );
    skill(&layout.path("repo/.agents/skills"), "bad-metadata");
    write(
        &layout.path("repo/.agents/skills/bad-metadata/agents/openai.yaml"),
        "policy: [",
    );
    let discovery = discover_skills(&layout.request("repo"));
    assert_eq!(
        names(&discovery),
        vec![("bad-metadata".to_string(), SkillScope::Repo)]
    );
    assert_eq!(
        discovery.skills.len(),
        2,
        "review-agent is known, not listed"
    );
    assert_eq!(
        discovery.errors,
        vec![SkillLoadError {
            path: layout.path("repo/.agents/skills/broken/SKILL.md"),
            message: "missing field `description`".to_string(),
        }]
    );
    assert_eq!(
        discovery.errors[0].to_string(),
        format!(
            "Failed to load skill at {}: missing field `description`",
            layout.path("repo/.agents/skills/broken/SKILL.md").display()
        )
    );
    assert!(
        discovery.warnings[0].contains("invalid openai.yaml"),
        "{:?}",
        discovery.warnings
    );
}

#[test]
fn depth_hidden_folders_and_disabled_bundled_skills() {
    let layout = Layout::new();
    let root = layout.path("codex_home/skills");
    skill(&root.join("a/b/c/d/e"), "deep-enough");
    skill(&root.join("a/b/c/d/e/f"), "too-deep");
    skill(&root.join(".hidden"), "hidden");
    skill(&root.join(".system"), "system");
    let mut request = layout.request("repo");
    request.bundled = BundledSkills::Disabled;
    let discovery = discover_skills(&request);
    assert_eq!(
        names(&discovery),
        vec![("deep-enough".to_string(), SkillScope::User)]
    );
    assert_eq!(discovery.system_skills, SystemSkills::NotLooked);
}

#[cfg(unix)]
#[test]
fn symlinked_folders_are_followed_except_under_the_system_root_and_each_skill_counts_once() {
    let layout = Layout::new();
    skill(&layout.path("elsewhere"), "linked");
    std::fs::create_dir_all(layout.path("repo/.agents/skills")).unwrap();
    std::os::unix::fs::symlink(
        layout.path("elsewhere"),
        layout.path("repo/.agents/skills/link"),
    )
    .unwrap();
    std::fs::create_dir_all(layout.path("repo/.codex")).unwrap();
    std::os::unix::fs::symlink(
        layout.path("repo/.agents/skills"),
        layout.path("repo/.codex/skills"),
    )
    .unwrap();
    std::fs::create_dir_all(layout.path("codex_home/skills/.system")).unwrap();
    std::os::unix::fs::symlink(
        layout.path("elsewhere"),
        layout.path("codex_home/skills/.system/link"),
    )
    .unwrap();
    let discovery = discover_skills(&layout.request("repo"));
    assert_eq!(
        names(&discovery),
        vec![("linked".to_string(), SkillScope::Repo)]
    );
    assert_eq!(
        discovery.skills[0].path,
        layout.path("repo/.agents/skills/link/linked/SKILL.md")
    );
}
