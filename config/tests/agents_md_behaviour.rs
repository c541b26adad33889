//! AGENTS.md behaviour beyond the upstream unit tests: the captured upstream
//! scenarios, the budget, warnings, and the blocking entry point.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agents_md_support;

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use agents_md_support::FailingFileSystem;
use agents_md_support::InjectedFailure;
use agents_md_support::discover;
use agents_md_support::instructions_for;
use agents_md_support::local_fs;
use agents_md_support::options_with_limit;
use agents_md_support::request;
use agents_md_support::write;
use codex_config::AgentsMdError;
use codex_config::AgentsMdFileSystem;
use codex_config::AgentsMdWarning;
use codex_config::GlobalInstructions;
use codex_config::InstructionScope;
use codex_config::ProjectDocOptions;
use codex_config::agents_md_paths;
use codex_config::discover_agents_md;
use codex_config::discover_agents_md_blocking;
use pretty_assertions::assert_eq;

#[cfg(unix)]
#[tokio::test]
async fn symlinked_cwd_uses_logical_parent_for_agents_discovery() {
    let tmp = tempfile::tempdir().unwrap();
    let logical = tmp.path().join("logical-repo");
    let physical = tmp.path().join("physical-repo");
    write(&logical.join(".git"), "");
    write(&logical.join("AGENTS.md"), "logical parent doc");
    write(&physical.join(".git"), "");
    write(&physical.join("AGENTS.md"), "physical parent doc");
    write(&physical.join("workspace/AGENTS.md"), "workspace doc");
    let cwd = logical.join("workspace");
    std::os::unix::fs::symlink(physical.join("workspace"), &cwd).unwrap();

    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(home.path(), &cwd, options_with_limit(4096))).await;
    assert_eq!(
        discovery.sources(),
        vec![
            logical.join("AGENTS.md").as_path(),
            cwd.join("AGENTS.md").as_path()
        ]
    );
    assert_eq!(
        discovery.text(),
        Some("logical parent doc\n\nworkspace doc".to_string())
    );
    assert_eq!(discovery.directory(), Some(cwd.as_path()));
}

#[tokio::test]
async fn configured_fallback_is_used_when_agents_candidate_is_directory() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("AGENTS.md")).unwrap();
    write(&tmp.path().join("WORKFLOW.md"), "fallback doc");
    let options = ProjectDocOptions {
        fallback_filenames: vec!["WORKFLOW.md".to_string()],
        ..options_with_limit(4096)
    };
    assert_eq!(
        instructions_for(tmp.path(), options).await,
        Some("fallback doc".to_string())
    );
}

#[tokio::test]
async fn global_override_wins_and_blank_override_falls_back() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "plain global");
    write(
        &home.path().join("AGENTS.override.md"),
        "\n  override global \n",
    );
    let discovery = discover(&request(home.path(), cwd.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.global,
        Some(GlobalInstructions {
            path: home.path().join("AGENTS.override.md"),
            text: "override global".to_string(),
        })
    );

    write(&home.path().join("AGENTS.override.md"), " \n");
    let discovery = discover(&request(home.path(), cwd.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.global,
        Some(GlobalInstructions {
            path: home.path().join("AGENTS.md"),
            text: "plain global".to_string(),
        })
    );
    // Global text does not use the project budget and has no header directory.
    assert_eq!(discovery.directory(), None);
}

#[tokio::test]
async fn invalid_utf8_global_instructions_are_lossy() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let path = home.path().join("AGENTS.md");
    write(&path, b"global\xFFinstructions");
    let discovery = discover(&request(home.path(), cwd.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.text(),
        Some("global\u{FFFD}instructions".to_string())
    );
    assert_eq!(discovery.sources(), vec![path.as_path()]);
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::InvalidUtf8 {
            scope: InstructionScope::Global,
            path,
            detail: "invalid utf-8 sequence of 1 bytes from index 6".to_string(),
        }]
    );
}

#[tokio::test]
async fn project_text_is_verbatim_while_global_text_is_trimmed() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "\n global \n");
    write(&cwd.path().join("AGENTS.md"), "\n project \n");
    let discovery = discover(&request(home.path(), cwd.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.text(),
        Some("global\n\n--- project-doc ---\n\n\n project \n".to_string())
    );
}

#[tokio::test]
async fn budget_is_shared_root_first_and_every_cut_is_reported() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write(&repo.path().join(".git"), "");
    write(&repo.path().join("AGENTS.md"), "11111");
    let mid = repo.path().join("a");
    write(&mid.join("AGENTS.md"), "22222");
    let deeper = mid.join("b");
    write(&deeper.join("AGENTS.md"), "33333");
    let cwd = deeper.join("c");
    write(&cwd.join("AGENTS.md"), "44444");

    let discovery = discover(&request(home.path(), &cwd, options_with_limit(12))).await;
    assert_eq!(discovery.text(), Some("11111\n\n22222\n\n33".to_string()));
    let used: Vec<(usize, usize)> = discovery
        .project_docs
        .iter()
        .map(|doc| (doc.bytes_used, doc.truncated_bytes))
        .collect();
    assert_eq!(used, vec![(5, 0), (5, 0), (2, 3)]);
    assert_eq!(
        discovery.warnings,
        vec![
            AgentsMdWarning::Truncated {
                path: deeper.join("AGENTS.md"),
                kept_bytes: 2,
                dropped_bytes: 3,
            },
            AgentsMdWarning::Truncated {
                path: cwd.join("AGENTS.md"),
                kept_bytes: 0,
                dropped_bytes: 5,
            },
        ]
    );
    assert_eq!(
        discovery.warnings[0].to_string(),
        format!(
            "Project doc `{}` exceeds the remaining project_doc_max_bytes budget: kept 2 bytes, dropped 3 bytes.",
            deeper.join("AGENTS.md").display()
        )
    );
}

#[tokio::test]
async fn blank_project_doc_does_not_spend_budget() {
    let repo = tempfile::tempdir().unwrap();
    write(&repo.path().join(".git"), "");
    write(&repo.path().join("AGENTS.md"), "    \n\n");
    let nested = repo.path().join("nested");
    write(&nested.join("AGENTS.md"), "abcdef");
    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(home.path(), &nested, options_with_limit(6))).await;
    assert_eq!(discovery.text(), Some("abcdef".to_string()));
    assert_eq!(
        discovery.sources(),
        vec![nested.join("AGENTS.md").as_path()]
    );
    assert_eq!(discovery.warnings, Vec::new());
}

#[tokio::test]
async fn truncation_inside_a_character_is_lossy_and_warned_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("AGENTS.md");
    write(&path, "aé");
    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(2))).await;
    assert_eq!(discovery.text(), Some("a\u{FFFD}".to_string()));
    assert_eq!(
        discovery.warnings,
        vec![
            AgentsMdWarning::Truncated {
                path: path.clone(),
                kept_bytes: 2,
                dropped_bytes: 1,
            },
            AgentsMdWarning::InvalidUtf8 {
                scope: InstructionScope::Project,
                path,
                detail: "incomplete utf-8 byte sequence from index 1".to_string(),
            },
        ]
    );
}

#[tokio::test]
async fn empty_marker_list_searches_only_the_cwd() {
    let repo = tempfile::tempdir().unwrap();
    write(&repo.path().join(".git"), "");
    write(&repo.path().join("AGENTS.md"), "root doc");
    let nested = repo.path().join("nested");
    write(&nested.join("AGENTS.md"), "nested doc");
    let options = ProjectDocOptions {
        project_root_markers: Vec::new(),
        ..options_with_limit(4096)
    };
    assert_eq!(
        agents_md_paths(&nested, &options, &local_fs(), &mut Vec::new())
            .await
            .unwrap(),
        vec![nested.join("AGENTS.md")]
    );
}

#[tokio::test]
async fn without_a_root_marker_only_the_cwd_is_searched() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "parent doc");
    let nested = tmp.path().join("nested");
    write(&nested.join("AGENTS.md"), "nested doc");
    let options = ProjectDocOptions {
        project_root_markers: vec![".no-such-marker-anywhere".to_string()],
        ..options_with_limit(4096)
    };
    assert_eq!(
        instructions_for(&nested, options).await,
        Some("nested doc".to_string())
    );
}

#[cfg(unix)]
#[tokio::test]
async fn symlinked_docs_are_followed_and_dangling_links_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path().join("cwd");
    std::fs::create_dir(&cwd).unwrap();
    std::os::unix::fs::symlink(
        tmp.path().join("missing.md"),
        cwd.join("AGENTS.override.md"),
    )
    .unwrap();
    write(&tmp.path().join("real.md"), "linked doc");
    std::os::unix::fs::symlink(tmp.path().join("real.md"), cwd.join("AGENTS.md")).unwrap();
    assert_eq!(
        agents_md_paths(
            &cwd,
            &options_with_limit(4096),
            &local_fs(),
            &mut Vec::new()
        )
        .await
        .unwrap(),
        vec![cwd.join("AGENTS.md")]
    );
    assert_eq!(
        instructions_for(&cwd, options_with_limit(4096)).await,
        Some("linked doc".to_string())
    );
}

#[tokio::test]
async fn dot_and_dot_dot_in_the_cwd_are_resolved_lexically() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path().join("work");
    write(&cwd.join("AGENTS.md"), "doc");
    std::fs::create_dir(tmp.path().join("other")).unwrap();
    let spelled = tmp.path().join("./other/../work/.");
    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(home.path(), &spelled, options_with_limit(4096))).await;
    assert_eq!(discovery.primary_cwd, Some(cwd.clone()));
    assert_eq!(discovery.sources(), vec![cwd.join("AGENTS.md").as_path()]);
}

#[tokio::test]
async fn relative_cwd_is_an_error_and_a_warning() {
    let options = options_with_limit(4096);
    let error = agents_md_paths(
        std::path::Path::new("relative/dir"),
        &options,
        &local_fs(),
        &mut Vec::new(),
    )
    .await
    .unwrap_err();
    assert!(matches!(error, AgentsMdError::RelativeCwd(_)));
    assert_eq!(
        error.to_string(),
        "working directory `relative/dir` is not absolute"
    );

    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(
        home.path(),
        std::path::Path::new("relative/dir"),
        options,
    ))
    .await;
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::ProjectDiscoveryFailed {
            environment_id: "local".to_string(),
            error: "working directory `relative/dir` is not absolute".to_string(),
        }]
    );
}

#[tokio::test]
async fn unreadable_project_keeps_global_instructions() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global doc");
    write(&cwd.path().join("AGENTS.md"), "project doc");
    let denied = cwd.path().join("AGENTS.md");
    let fs: Arc<dyn AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: denied.clone(),
        failure: InjectedFailure::Read(io::ErrorKind::PermissionDenied),
    });
    let discovery = discover_agents_md(
        &request(home.path(), cwd.path(), options_with_limit(4096)),
        fs,
    )
    .await
    .expect("no profile denies a read");
    assert_eq!(discovery.text(), Some("global doc".to_string()));
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::ProjectDocSkipped {
            path: denied.clone(),
            error: format!("cannot read `{}`: injected read failure", denied.display()),
        }]
    );
}

#[tokio::test]
async fn unreadable_global_override_falls_back_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let override_path = home.path().join("AGENTS.override.md");
    write(&override_path, "override");
    write(&home.path().join("AGENTS.md"), "plain");
    let fs: Arc<dyn AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: override_path.clone(),
        failure: InjectedFailure::Metadata(io::ErrorKind::PermissionDenied),
    });
    let discovery = discover_agents_md(
        &request(home.path(), cwd.path(), options_with_limit(4096)),
        fs,
    )
    .await
    .expect("no profile denies a read");
    assert_eq!(discovery.text(), Some("plain".to_string()));
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::GlobalUnreadable {
            path: override_path.clone(),
            error: format!(
                "cannot inspect `{}`: injected metadata failure",
                override_path.display()
            ),
        }]
    );
}

#[tokio::test]
async fn a_failure_above_the_root_is_never_reached() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path().join("root");
    write(&root.join(".git"), "");
    write(&root.join("AGENTS.md"), "root doc");
    let fs: Arc<dyn AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: repo.path().join(".git"),
        failure: InjectedFailure::Metadata(io::ErrorKind::PermissionDenied),
    });
    let cwd = root.join("a/b");
    std::fs::create_dir_all(&cwd).unwrap();
    assert_eq!(
        agents_md_paths(&cwd, &options_with_limit(4096), &fs, &mut Vec::new())
            .await
            .unwrap(),
        vec![root.join("AGENTS.md")]
    );
}

#[test]
fn blocking_discovery_matches_async_discovery() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global doc");
    write(&cwd.path().join("AGENTS.md"), "project doc");
    let req = request(home.path(), cwd.path(), options_with_limit(4096));
    let blocking = discover_agents_md_blocking(&req, local_fs()).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().build().unwrap();
    let asynchronous = runtime
        .block_on(discover_agents_md(&req, local_fs()))
        .unwrap();
    assert_eq!(blocking, asynchronous);
    assert_eq!(
        blocking.text(),
        Some("global doc\n\n--- project-doc ---\n\nproject doc".to_string())
    );
}

#[tokio::test]
async fn blocking_discovery_inside_a_runtime_is_an_error() {
    let cwd = tempfile::tempdir().unwrap();
    let req = codex_config::AgentsMdRequest::for_cwd(None::<PathBuf>, cwd.path());
    let error = discover_agents_md_blocking(&req, local_fs()).unwrap_err();
    assert!(matches!(error, AgentsMdError::Runtime(_)), "{error}");
}
