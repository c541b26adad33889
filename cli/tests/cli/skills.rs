//! Skills found on disk, as the released CLI finds them: its bundled system skills under
//! `CODEX_HOME/skills/.system` and the repository's `.codex/skills` and `.agents/skills`.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::support::PINS;
use crate::support::arg;
use crate::support::run;
use crate::support::write;

fn skill(dir: &Path, name: &str, description: &str) {
    write(
        dir,
        &format!("{name}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\n\nSteps.\n"),
    );
}

fn first_turn(codex_home: &Path, repo: &Path, command: &str) -> crate::support::Run {
    run(&[
        &[
            command,
            "--codex-home",
            arg(codex_home),
            "--cwd",
            arg(repo),
            "--model",
            "gpt-5.5",
            "--message",
            "hello",
        ][..],
        &PINS,
    ]
    .concat())
}

#[test]
fn request_lists_system_then_repository_skills_with_absolute_paths() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical tempdir");
    let codex_home = base.join("codex_home");
    let repo = base.join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    let system = codex_home.join("skills/.system");
    skill(&system, "skill-creator", "Create a skill.");
    skill(&system, "imagegen", "Make images.");
    skill(&system, "review-agent", "Review changes.");
    write(
        &system,
        "review-agent/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: false\n",
    );
    skill(
        &repo.join(".codex/skills"),
        "release-notes",
        "Write release notes.",
    );
    skill(
        &repo.join(".agents/skills"),
        "db-migrate",
        "Add a migration.",
    );
    write(&repo, ".agents/skills/broken/SKILL.md", "no front matter\n");

    let run = first_turn(&codex_home, &repo, "request");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "codex-context: warning: Failed to load skill at {}: missing YAML frontmatter delimited by ---\n",
            repo.join(".agents/skills/broken/SKILL.md").display()
        )
    );
    let body: serde_json::Value = serde_json::from_str(&run.stdout).expect("a request body");
    let bundle = &body["input"][0];
    assert_eq!(bundle["role"], "developer");
    let catalogue = bundle["content"][0]["text"].as_str().expect("text");
    assert!(
        catalogue.starts_with("<skills_instructions>\n## Skills\n"),
        "{catalogue}"
    );
    let listed: Vec<&str> = catalogue
        .lines()
        .filter(|line| line.starts_with("- ") && line.ends_with("SKILL.md)"))
        .collect();
    let path = |relative: &str| base.join(relative).display().to_string();
    assert_eq!(
        listed,
        vec![
            format!(
                "- imagegen: Make images. (file: {})",
                path("codex_home/skills/.system/imagegen/SKILL.md")
            ),
            format!(
                "- skill-creator: Create a skill. (file: {})",
                path("codex_home/skills/.system/skill-creator/SKILL.md")
            ),
            format!(
                "- db-migrate: Add a migration. (file: {})",
                path("repo/.agents/skills/db-migrate/SKILL.md")
            ),
            format!(
                "- release-notes: Write release notes. (file: {})",
                path("repo/.codex/skills/release-notes/SKILL.md")
            ),
        ]
    );
    assert!(
        catalogue.contains("\n### How to use skills\n"),
        "{catalogue}"
    );
    assert!(catalogue.ends_with("</skills_instructions>"), "{catalogue}");
}

#[test]
fn explain_says_a_fresh_codex_home_would_get_the_system_skills() {
    let dir = tempfile::tempdir().expect("tempdir");
    let codex_home = dir.path().join("codex_home");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&codex_home).expect("mkdir");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    let note = format!(
        "    skills: {} does not exist; the released CLI would install its bundled system skills there on first start and list them in <skills_instructions>",
        codex_home.join("skills/.system").display()
    );
    let fresh = first_turn(&codex_home, &repo, "explain");
    assert_eq!(fresh.code, Some(0), "{fresh:?}");
    assert!(
        fresh.stdout.ends_with(&format!("\nnotes:\n{note}\n")),
        "{}",
        fresh.stdout
    );
    skill(
        &codex_home.join("skills/.system"),
        "imagegen",
        "Make images.",
    );
    let used = first_turn(&codex_home, &repo, "explain");
    assert_eq!(used.code, Some(0), "{used:?}");
    assert!(!used.stdout.contains("notes:"), "{}", used.stdout);
    assert!(
        used.stdout.contains("host_skills.instructions"),
        "{}",
        used.stdout
    );
}
