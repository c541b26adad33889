//! Mirrors of the upstream AGENTS.md tests that bind several environments.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agents_md_support;

use std::path::Path;

use agents_md_support::discover;
use agents_md_support::options_with_limit;
use agents_md_support::request;
use agents_md_support::write;
use codex_config::AGENTS_MD_SEPARATOR;
use codex_config::AgentsMdEnvironment;
use codex_config::AgentsMdWarning;
use codex_config::EnvironmentRole;
use codex_config::InstructionScope;
use pretty_assertions::assert_eq;

const HIERARCHICAL: &str = "hierarchical guidance stand-in";

fn two_environments(primary: &Path, secondary: &Path) -> Vec<AgentsMdEnvironment> {
    vec![
        AgentsMdEnvironment {
            id: "primary".to_string(),
            cwd: primary.to_path_buf(),
            role: EnvironmentRole::Primary,
        },
        AgentsMdEnvironment {
            id: "secondary".to_string(),
            cwd: secondary.to_path_buf(),
            role: EnvironmentRole::Secondary,
        },
    ]
}

#[tokio::test]
async fn multiple_environment_docs_use_labeled_layout_and_preserve_source_order() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global instructions");
    std::fs::create_dir(primary.path().join(".git")).unwrap();
    write(&primary.path().join("AGENTS.md"), "primary root doc");
    let primary_nested = primary.path().join("nested");
    write(&primary_nested.join("AGENTS.md"), "primary nested doc");
    write(&secondary.path().join("AGENTS.md"), "secondary doc");

    let mut req = request(home.path(), &primary_nested, options_with_limit(4096));
    req.environments = two_environments(&primary_nested, secondary.path());
    let discovery = discover(&req).await;

    let expected = format!(
        "global instructions\n\nfor `primary` with root {}\n\nprimary root doc\n\nprimary nested doc\n\nfor `secondary` with root {}\n\nsecondary doc",
        primary_nested.display(),
        secondary.path().display(),
    );
    assert_eq!(discovery.text(), Some(expected));
    assert!(discovery.uses_environment_labels());
    assert_eq!(discovery.directory(), None);
    assert_eq!(
        discovery.sources(),
        vec![
            home.path().join("AGENTS.md").as_path(),
            primary.path().join("AGENTS.md").as_path(),
            primary_nested.join("AGENTS.md").as_path(),
            secondary.path().join("AGENTS.md").as_path(),
        ]
    );
}

#[tokio::test]
async fn secondary_only_project_doc_uses_labeled_layout() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global instructions");
    write(&secondary.path().join("AGENTS.md"), "secondary doc");
    let mut req = request(home.path(), primary.path(), options_with_limit(4096));
    req.environments = two_environments(primary.path(), secondary.path());
    let discovery = discover(&req).await;
    assert_eq!(
        discovery.text(),
        Some(format!(
            "global instructions\n\nfor `secondary` with root {}\n\nsecondary doc",
            secondary.path().display()
        ))
    );
    assert_eq!(discovery.directory(), None);
}

#[tokio::test]
async fn primary_only_project_doc_preserves_legacy_layout_with_multiple_bound_environments() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global instructions");
    write(&primary.path().join("AGENTS.md"), "primary doc");
    let mut req = request(home.path(), primary.path(), options_with_limit(4096));
    req.environments = two_environments(primary.path(), secondary.path());
    let discovery = discover(&req).await;
    assert_eq!(
        discovery.text(),
        Some(format!(
            "global instructions{AGENTS_MD_SEPARATOR}primary doc"
        ))
    );
    assert_eq!(discovery.directory(), Some(primary.path()));
}

#[tokio::test]
async fn project_doc_byte_limit_is_applied_independently_per_environment() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&primary.path().join("AGENTS.md"), "ABCDE");
    write(&secondary.path().join("AGENTS.md"), "VWXYZ");
    let mut req = request(home.path(), primary.path(), options_with_limit(3));
    req.environments = two_environments(primary.path(), secondary.path());
    let discovery = discover(&req).await;
    assert_eq!(
        discovery.text(),
        Some(format!(
            "for `primary` with root {}\n\nABC\n\nfor `secondary` with root {}\n\nVWX",
            primary.path().display(),
            secondary.path().display()
        ))
    );
    assert_eq!(discovery.warnings.len(), 2);
}

#[tokio::test]
async fn multiple_environments_can_exceed_single_environment_project_doc_limit() {
    const LIMIT: usize = 8;
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&primary.path().join("AGENTS.md"), "P".repeat(LIMIT));
    write(&secondary.path().join("AGENTS.md"), "S".repeat(LIMIT));
    let mut req = request(home.path(), primary.path(), options_with_limit(LIMIT));
    req.environments = two_environments(primary.path(), secondary.path());
    let discovery = discover(&req).await;
    let project_bytes: usize = discovery
        .project_docs
        .iter()
        .map(|doc| doc.bytes_used)
        .sum();
    assert_eq!(project_bytes, LIMIT * 2);
    assert_eq!(discovery.warnings, Vec::new());
}

#[tokio::test]
async fn secondary_environment_invalid_utf8_warns_without_suppressing_other_docs() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&primary.path().join("AGENTS.md"), "primary doc");
    write(&secondary.path().join("AGENTS.md"), b"secondary\xFFdoc");
    let mut req = request(home.path(), primary.path(), options_with_limit(4096));
    req.environments = two_environments(primary.path(), secondary.path());
    let discovery = discover(&req).await;
    let text = discovery.text().unwrap();
    assert!(text.contains("primary doc"));
    assert!(text.contains("secondary\u{FFFD}doc"));
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::InvalidUtf8 {
            scope: InstructionScope::Project,
            path: secondary.path().join("AGENTS.md"),
            detail: "invalid utf-8 sequence of 1 bytes from index 9".to_string(),
        }]
    );
}

#[tokio::test]
async fn child_agents_guidance_is_appended_once_after_environment_groups() {
    let home = tempfile::tempdir().unwrap();
    let primary = tempfile::tempdir().unwrap();
    let secondary = tempfile::tempdir().unwrap();
    write(&primary.path().join("AGENTS.md"), "primary doc");
    write(&secondary.path().join("AGENTS.md"), "secondary doc");
    let mut req = request(home.path(), primary.path(), options_with_limit(4096));
    req.environments = two_environments(primary.path(), secondary.path());
    req.internal_guidance = Some(HIERARCHICAL.to_string());
    let text = discover(&req).await.text().unwrap();
    assert_eq!(text.matches(HIERARCHICAL).count(), 1);
    assert!(text.ends_with(&format!("secondary doc\n\n{HIERARCHICAL}")));
}
