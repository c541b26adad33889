use std::collections::BTreeMap;

use codex_protocol::AskForApproval;
use codex_protocol::SandboxMode;
use codex_protocol::TrustLevel;
use pretty_assertions::assert_eq;

use super::ActiveProject;
use super::ProjectDocsPolicy;
use super::ProjectToml;

fn projects(entries: &[(&str, Option<TrustLevel>)]) -> BTreeMap<String, ProjectToml> {
    entries
        .iter()
        .map(|(key, trust_level)| {
            (
                key.to_string(),
                ProjectToml {
                    trust_level: *trust_level,
                },
            )
        })
        .collect()
}

#[test]
fn the_cwd_entry_wins_over_the_repository_root() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").expect("HEAD");
    let cwd = root.join("sub");
    std::fs::create_dir_all(&cwd).expect("cwd");
    let root_key = root.to_string_lossy().into_owned();
    let cwd_key = cwd.to_string_lossy().into_owned();

    let by_root = projects(&[(&root_key, Some(TrustLevel::Untrusted))]);
    assert_eq!(
        ActiveProject::resolve(&by_root, &cwd),
        ActiveProject {
            key: Some(root_key.clone()),
            trust_level: Some(TrustLevel::Untrusted),
        }
    );
    let both = projects(&[
        (&root_key, Some(TrustLevel::Untrusted)),
        (&cwd_key, Some(TrustLevel::Trusted)),
    ]);
    assert_eq!(
        ActiveProject::resolve(&both, &cwd).trust_level,
        Some(TrustLevel::Trusted)
    );
    assert_eq!(
        ActiveProject::resolve(&projects(&[("/elsewhere", None)]), &cwd),
        ActiveProject::default()
    );
}

#[test]
fn a_linked_worktree_finds_its_main_repository() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let main = root.join("main");
    let gitdir = main.join(".git/worktrees/feature");
    std::fs::create_dir_all(&gitdir).expect("gitdir");
    std::fs::write(main.join(".git/HEAD"), "ref: refs/heads/main\n").expect("HEAD");
    let worktree = root.join("feature");
    std::fs::create_dir_all(&worktree).expect("worktree");
    std::fs::write(
        worktree.join(".git"),
        format!("gitdir: {}\n", gitdir.display()),
    )
    .expect(".git file");
    let main_key = main.to_string_lossy().into_owned();
    let trusted = projects(&[(&main_key, Some(TrustLevel::Trusted))]);
    assert_eq!(
        ActiveProject::resolve(&trusted, &worktree).key,
        Some(main_key)
    );
}

#[test]
fn trust_sets_the_defaults_and_the_docs_policy() {
    let of = |trust_level| ActiveProject {
        key: None,
        trust_level,
    };
    let rows: Vec<_> = [None, Some(TrustLevel::Trusted), Some(TrustLevel::Untrusted)]
        .into_iter()
        .map(|trust| {
            let project = of(trust);
            (
                project.default_sandbox_mode(),
                project.default_approval_policy(),
                project.project_docs(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                SandboxMode::ReadOnly,
                AskForApproval::OnRequest,
                ProjectDocsPolicy::Discover
            ),
            (
                SandboxMode::WorkspaceWrite,
                AskForApproval::OnRequest,
                ProjectDocsPolicy::Discover
            ),
            (
                SandboxMode::WorkspaceWrite,
                AskForApproval::UnlessTrusted,
                ProjectDocsPolicy::SkipUntrustedProject
            ),
        ]
    );
}
