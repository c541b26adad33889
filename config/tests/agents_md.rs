//! Mirrors of the upstream AGENTS.md discovery tests, on temporary trees.
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
use codex_config::AGENTS_MD_SEPARATOR;
use codex_config::AgentsMdDiscovery;
use codex_config::AgentsMdEnvironment;
use codex_config::AgentsMdWarning;
use codex_config::DEFAULT_AGENTS_MD_FILENAME;
use codex_config::EnvironmentRole;
use codex_config::GlobalInstructions;
use codex_config::InstructionScope;
use codex_config::LOCAL_AGENTS_MD_FILENAME;
use codex_config::ProjectDoc;
use codex_config::ProjectDocOptions;
use codex_config::agents_md_paths;
use codex_config::read_project_docs;
use pretty_assertions::assert_eq;

const HIERARCHICAL: &str = "hierarchical guidance stand-in";

fn primary_doc(path: PathBuf, text: &str, cwd: &std::path::Path) -> ProjectDoc {
    ProjectDoc {
        path,
        text: text.to_string(),
        bytes_used: text.len(),
        truncated_bytes: 0,
        environment_id: "local".to_string(),
        environment_cwd: cwd.to_path_buf(),
        environment_role: EnvironmentRole::Primary,
    }
}

#[tokio::test]
async fn no_doc_file_returns_none() {
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(
        instructions_for(tmp.path(), options_with_limit(4096)).await,
        None
    );
}

#[tokio::test]
async fn empty_loaded_instructions_are_empty() {
    assert_eq!(AgentsMdDiscovery::default().text(), None);
    for blank in ["", " \n\t"] {
        let home = tempfile::tempdir().unwrap();
        let cwd = tempfile::tempdir().unwrap();
        write(&home.path().join(DEFAULT_AGENTS_MD_FILENAME), blank);
        let discovery = discover(&request(home.path(), cwd.path(), options_with_limit(4096))).await;
        assert_eq!(discovery.global, None);
        assert!(discovery.is_empty());
        assert_eq!(discovery.text(), None);
    }
}

#[tokio::test]
async fn loaded_instructions_with_only_empty_or_whitespace_entries_are_empty() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(&cwd.path().join(DEFAULT_AGENTS_MD_FILENAME), " \n\t");
    let mut req = request(home.path(), cwd.path(), options_with_limit(4096));
    req.internal_guidance = Some("  \n".to_string());
    let discovery = discover(&req).await;
    assert!(discovery.is_empty());
    assert_eq!(discovery.project_docs, Vec::new());
    assert_eq!(discovery.internal_guidance, None);
}

#[tokio::test]
async fn doc_smaller_than_limit_is_returned() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "hello world");
    assert_eq!(
        instructions_for(tmp.path(), options_with_limit(4096)).await,
        Some("hello world".to_string())
    );
}

#[tokio::test]
async fn project_doc_invalid_utf8_warns_and_uses_lossy_text() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("AGENTS.md");
    write(&path, b"project\xFF doc");
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(4096))).await;
    assert_eq!(discovery.text(), Some("project\u{FFFD} doc".to_string()));
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::InvalidUtf8 {
            scope: InstructionScope::Project,
            path: path.clone(),
            detail: "invalid utf-8 sequence of 1 bytes from index 7".to_string(),
        }]
    );
    assert_eq!(
        discovery.warnings[0].to_string(),
        format!(
            "Project AGENTS.md instructions from `{}` contain invalid UTF-8: invalid utf-8 sequence of 1 bytes from index 7. Invalid byte sequences were replaced.",
            path.display()
        )
    );
}

#[tokio::test]
async fn doc_larger_than_limit_is_truncated() {
    const LIMIT: usize = 1024;
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let huge = "A".repeat(LIMIT * 2);
    let path = tmp.path().join("AGENTS.md");
    write(&path, &huge);
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(LIMIT))).await;
    assert_eq!(discovery.text(), Some(huge[..LIMIT].to_string()));
    assert_eq!(discovery.project_docs[0].bytes_used, LIMIT);
    assert_eq!(discovery.project_docs[0].truncated_bytes, LIMIT);
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::Truncated {
            path,
            kept_bytes: LIMIT,
            dropped_bytes: LIMIT,
        }]
    );
}

#[tokio::test]
async fn total_byte_limit_truncates_later_project_docs() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write(&repo.path().join(".git"), "");
    write(&repo.path().join("AGENTS.md"), "root");
    let nested = repo.path().join("nested");
    write(&nested.join("AGENTS.md"), "abcdef");

    let discovery = discover(&request(home.path(), &nested, options_with_limit(7))).await;
    let mut truncated = primary_doc(nested.join("AGENTS.md"), "abc", &nested);
    truncated.truncated_bytes = 3;
    assert_eq!(
        discovery.project_docs,
        vec![
            primary_doc(repo.path().join("AGENTS.md"), "root", &nested),
            truncated,
        ]
    );
    assert_eq!(discovery.text(), Some("root\n\nabc".to_string()));
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::Truncated {
            path: nested.join("AGENTS.md"),
            kept_bytes: 3,
            dropped_bytes: 3,
        }]
    );
}

#[tokio::test]
async fn read_agents_md_propagates_metadata_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let fs: Arc<dyn codex_config::AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: tmp.path().join(".git"),
        failure: InjectedFailure::Metadata(io::ErrorKind::PermissionDenied),
    });
    let err = read_project_docs(
        &AgentsMdEnvironment::primary(tmp.path()),
        &options_with_limit(4096),
        &fs,
        &mut Vec::new(),
    )
    .await
    .expect_err("metadata error");
    assert_eq!(err.io_kind(), Some(io::ErrorKind::PermissionDenied));
}

#[tokio::test]
async fn an_unreadable_doc_is_skipped_with_a_warning_and_the_others_kept() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join(".git"), "");
    write(&tmp.path().join("AGENTS.md"), "root doc");
    let nested = tmp.path().join("nested");
    write(&nested.join("AGENTS.md"), "nested doc");
    let denied = nested.join("AGENTS.md");
    let fs: Arc<dyn codex_config::AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: denied.clone(),
        failure: InjectedFailure::Read(io::ErrorKind::PermissionDenied),
    });
    let mut warnings = Vec::new();
    let docs = read_project_docs(
        &AgentsMdEnvironment::primary(&nested),
        &options_with_limit(4096),
        &fs,
        &mut warnings,
    )
    .await
    .expect("one unreadable doc is not fatal");
    assert_eq!(
        docs,
        vec![primary_doc(
            tmp.path().join("AGENTS.md"),
            "root doc",
            &nested
        )]
    );
    assert_eq!(
        warnings,
        vec![AgentsMdWarning::ProjectDocSkipped {
            path: denied.clone(),
            error: format!("cannot read `{}`: injected read failure", denied.display()),
        }]
    );
}

#[tokio::test]
async fn read_agents_md_ignores_files_removed_after_discovery() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "project doc");
    let fs: Arc<dyn codex_config::AgentsMdFileSystem> = Arc::new(FailingFileSystem {
        path: tmp.path().join("AGENTS.md"),
        failure: InjectedFailure::Read(io::ErrorKind::NotFound),
    });
    let docs = read_project_docs(
        &AgentsMdEnvironment::primary(tmp.path()),
        &options_with_limit(4096),
        &fs,
        &mut Vec::new(),
    )
    .await
    .expect("removed file is recoverable");
    assert_eq!(docs, Vec::new());
}

#[tokio::test]
async fn finds_doc_in_repo_root() {
    let repo = tempfile::tempdir().unwrap();
    // `.git` may be a gitdir file rather than a directory.
    write(
        &repo.path().join(".git"),
        "gitdir: /path/to/actual/git/dir\n",
    );
    write(&repo.path().join("AGENTS.md"), "root level doc");
    let nested = repo.path().join("workspace/crate_a");
    std::fs::create_dir_all(&nested).unwrap();
    assert_eq!(
        instructions_for(&nested, options_with_limit(4096)).await,
        Some("root level doc".to_string())
    );
}

#[tokio::test]
async fn zero_byte_limit_disables_docs() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "something");
    assert_eq!(
        instructions_for(tmp.path(), options_with_limit(0)).await,
        None
    );
}

#[tokio::test]
async fn merges_existing_instructions_with_agents_md() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "base instructions\n");
    write(&tmp.path().join("AGENTS.md"), "proj doc");
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.text(),
        Some(format!("base instructions{AGENTS_MD_SEPARATOR}proj doc"))
    );
}

#[tokio::test]
async fn keeps_existing_instructions_when_doc_missing() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "some instructions");
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(4096))).await;
    assert_eq!(discovery.text(), Some("some instructions".to_string()));
    assert_eq!(discovery.directory(), None);
}

#[tokio::test]
async fn concatenates_root_and_cwd_docs() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write(
        &repo.path().join(".git"),
        "gitdir: /path/to/actual/git/dir\n",
    );
    write(&repo.path().join("AGENTS.md"), "root doc");
    let nested = repo.path().join("workspace/crate_a");
    write(&nested.join("AGENTS.md"), "crate doc");

    let discovery = discover(&request(home.path(), &nested, options_with_limit(4096))).await;
    assert_eq!(
        discovery,
        AgentsMdDiscovery {
            global: None,
            project_docs: vec![
                primary_doc(repo.path().join("AGENTS.md"), "root doc", &nested),
                primary_doc(nested.join("AGENTS.md"), "crate doc", &nested),
            ],
            internal_guidance: None,
            primary_cwd: Some(nested.clone()),
            project_docs_policy: codex_config::ProjectDocsPolicy::Discover,
            warnings: Vec::new(),
        }
    );
    assert_eq!(discovery.text(), Some("root doc\n\ncrate doc".to_string()));
    assert_eq!(discovery.directory(), Some(nested.as_path()));
}

#[tokio::test]
async fn project_root_markers_are_honored_for_agents_discovery() {
    let root = tempfile::tempdir().unwrap();
    write(&root.path().join(".codex-root"), "");
    write(&root.path().join("AGENTS.md"), "parent doc");
    let nested = root.path().join("dir1");
    std::fs::create_dir_all(nested.join(".git")).unwrap();
    write(&nested.join("AGENTS.md"), "child doc");
    let options = ProjectDocOptions {
        project_root_markers: vec![".codex-root".to_string()],
        ..options_with_limit(4096)
    };

    let paths = agents_md_paths(&nested, &options, &local_fs(), &mut Vec::new())
        .await
        .unwrap();
    assert_eq!(
        paths,
        vec![root.path().join("AGENTS.md"), nested.join("AGENTS.md")]
    );
    assert_eq!(
        instructions_for(&nested, options).await,
        Some("parent doc\n\nchild doc".to_string())
    );
}

#[cfg(unix)]
#[tokio::test]
async fn agents_md_paths_preserve_symlinked_cwd() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("target");
    write(&target.join("AGENTS.md"), "project doc");
    let linked = tmp.path().join("linked");
    std::os::unix::fs::symlink(&target, &linked).unwrap();

    let paths = agents_md_paths(
        &linked,
        &options_with_limit(4096),
        &local_fs(),
        &mut Vec::new(),
    )
    .await
    .unwrap();
    assert_eq!(paths, vec![linked.join("AGENTS.md")]);
    assert_eq!(
        instructions_for(&linked, options_with_limit(4096)).await,
        Some("project doc".to_string())
    );
}

#[tokio::test]
async fn child_agents_message_after_global_instructions_uses_plain_separator() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global doc");
    let mut req = request(home.path(), tmp.path(), options_with_limit(4096));
    req.internal_guidance = Some(HIERARCHICAL.to_string());
    let discovery = discover(&req).await;
    assert_eq!(
        discovery.text(),
        Some(format!("global doc\n\n{HIERARCHICAL}"))
    );
    assert_eq!(
        discovery.sources(),
        vec![home.path().join("AGENTS.md").as_path()]
    );
}

#[tokio::test]
async fn instruction_sources_include_global_before_agents_md_docs() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global doc");
    write(&tmp.path().join("AGENTS.md"), "project doc");
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(4096))).await;
    assert_eq!(
        discovery.global,
        Some(GlobalInstructions {
            path: home.path().join("AGENTS.md"),
            text: "global doc".to_string(),
        })
    );
    assert_eq!(
        discovery.sources(),
        vec![
            home.path().join("AGENTS.md").as_path(),
            tmp.path().join("AGENTS.md").as_path(),
        ]
    );
    assert_eq!(
        discovery.text(),
        Some(format!("global doc{AGENTS_MD_SEPARATOR}project doc"))
    );
}

#[tokio::test]
async fn child_agents_message_after_project_docs_is_not_an_instruction_source() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&home.path().join("AGENTS.md"), "global doc");
    write(&tmp.path().join("AGENTS.md"), "project doc");
    let mut req = request(home.path(), tmp.path(), options_with_limit(4096));
    req.internal_guidance = Some(HIERARCHICAL.to_string());
    let discovery = discover(&req).await;
    assert_eq!(
        discovery.sources(),
        vec![
            home.path().join("AGENTS.md").as_path(),
            tmp.path().join("AGENTS.md").as_path(),
        ]
    );
    assert_eq!(
        discovery.text(),
        Some(format!(
            "global doc{AGENTS_MD_SEPARATOR}project doc\n\n{HIERARCHICAL}"
        ))
    );
}

#[tokio::test]
async fn agents_local_md_preferred() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join(DEFAULT_AGENTS_MD_FILENAME), "versioned");
    write(&tmp.path().join(LOCAL_AGENTS_MD_FILENAME), "local");
    let options = options_with_limit(4096);
    assert_eq!(
        instructions_for(tmp.path(), options.clone()).await,
        Some("local".to_string())
    );
    assert_eq!(
        agents_md_paths(tmp.path(), &options, &local_fs(), &mut Vec::new())
            .await
            .unwrap(),
        vec![tmp.path().join(LOCAL_AGENTS_MD_FILENAME)]
    );
}

#[tokio::test]
async fn uses_configured_fallback_when_agents_missing() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("EXAMPLE.md"), "example instructions");
    let options = ProjectDocOptions {
        fallback_filenames: vec!["EXAMPLE.md".to_string()],
        ..options_with_limit(4096)
    };
    assert_eq!(
        instructions_for(tmp.path(), options).await,
        Some("example instructions".to_string())
    );
}

#[tokio::test]
async fn agents_md_preferred_over_fallbacks() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "primary");
    write(&tmp.path().join("EXAMPLE.md"), "secondary");
    let options = ProjectDocOptions {
        fallback_filenames: vec!["EXAMPLE.md".to_string(), ".example.md".to_string()],
        ..options_with_limit(4096)
    };
    assert_eq!(
        instructions_for(tmp.path(), options.clone()).await,
        Some("primary".to_string())
    );
    assert_eq!(
        agents_md_paths(tmp.path(), &options, &local_fs(), &mut Vec::new())
            .await
            .unwrap(),
        vec![tmp.path().join(DEFAULT_AGENTS_MD_FILENAME)]
    );
}

#[tokio::test]
async fn agents_md_directory_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("AGENTS.md")).unwrap();
    let options = options_with_limit(4096);
    assert_eq!(instructions_for(tmp.path(), options.clone()).await, None);
    assert_eq!(
        agents_md_paths(tmp.path(), &options, &local_fs(), &mut Vec::new())
            .await
            .unwrap(),
        Vec::<PathBuf>::new()
    );
}

#[cfg(unix)]
#[tokio::test]
async fn agents_md_special_file_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(tmp.path().join("AGENTS.md"))
        .status()
        .unwrap();
    assert!(status.success());
    let options = options_with_limit(4096);
    assert_eq!(instructions_for(tmp.path(), options.clone()).await, None);
    let mut warnings = Vec::new();
    assert_eq!(
        agents_md_paths(tmp.path(), &options, &local_fs(), &mut warnings)
            .await
            .unwrap(),
        Vec::<PathBuf>::new()
    );
    let fifo = tmp.path().join("AGENTS.md");
    assert_eq!(
        warnings,
        vec![AgentsMdWarning::ProjectDocSkipped {
            path: fifo.clone(),
            error: format!("`{}` is not a regular file", fifo.display()),
        }]
    );
    assert_eq!(
        warnings[0].to_string(),
        format!(
            "Project doc skipped: `{}` is not a regular file.",
            fifo.display()
        )
    );
}

/// One candidate in a symlink loop costs only itself: the root's doc and the other
/// directories' docs are still read, and the loop is named in a warning.
#[cfg(unix)]
#[tokio::test]
async fn a_symlink_loop_skips_one_candidate_and_keeps_the_chain() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join(".git"), "");
    write(&tmp.path().join("AGENTS.md"), "root doc");
    let middle = tmp.path().join("middle");
    std::fs::create_dir(&middle).unwrap();
    let looped = middle.join("AGENTS.md");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    let cwd = middle.join("leaf");
    write(&cwd.join("AGENTS.md"), "leaf doc");
    let home = tempfile::tempdir().unwrap();
    let discovery = discover(&request(home.path(), &cwd, options_with_limit(4096))).await;
    assert_eq!(
        discovery.project_docs,
        vec![
            primary_doc(tmp.path().join("AGENTS.md"), "root doc", &cwd),
            primary_doc(cwd.join("AGENTS.md"), "leaf doc", &cwd),
        ]
    );
    let loop_error = std::fs::metadata(&looped).unwrap_err();
    assert_eq!(
        discovery.warnings,
        vec![AgentsMdWarning::ProjectDocSkipped {
            path: looped.clone(),
            error: format!("cannot inspect `{}`: {loop_error}", looped.display()),
        }]
    );
}

#[tokio::test]
async fn override_directory_falls_back_to_agents_md_file() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join(LOCAL_AGENTS_MD_FILENAME)).unwrap();
    write(&tmp.path().join(DEFAULT_AGENTS_MD_FILENAME), "primary");
    let options = options_with_limit(4096);
    assert_eq!(
        instructions_for(tmp.path(), options.clone()).await,
        Some("primary".to_string())
    );
    assert_eq!(
        agents_md_paths(tmp.path(), &options, &local_fs(), &mut Vec::new())
            .await
            .unwrap(),
        vec![tmp.path().join(DEFAULT_AGENTS_MD_FILENAME)]
    );
}

#[tokio::test]
async fn skills_are_not_appended_to_agents_md() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("AGENTS.md"), "base doc");
    write(
        &home.path().join("skills/pdf-processing/SKILL.md"),
        "---\nname: pdf-processing\ndescription: extract from pdfs\n---\n\n# Body\n",
    );
    let discovery = discover(&request(home.path(), tmp.path(), options_with_limit(4096))).await;
    assert_eq!(discovery.text(), Some("base doc".to_string()));
}
