//! `cargo xtask prompts` on copies of this workspace: the committed tree regenerates to itself,
//! and `--check` names the file for each way the templates and the catalog can drift apart.
//!
//! Only what the check reads is copied: the root `Cargo.toml`, every member's `src/`, the
//! templates, the manifest and the catalog. Expectations are the problems a change adds to
//! those of the untouched copy, so they hold while other work is in progress elsewhere.

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use xtask::BUNDLED_CATALOGS;
use xtask::CATALOG_PATH;
use xtask::Problem;
use xtask::TEMPLATES_DIR;
use xtask::check_prompts;
use xtask::regenerate_prompts;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A temporary copy of what `cargo xtask prompts` reads.
fn copy_workspace() -> tempfile::TempDir {
    let source = workspace_root();
    let copy = tempfile::tempdir().expect("tempdir");
    let manifest = std::fs::read_to_string(source.join("Cargo.toml")).expect("Cargo.toml");
    std::fs::write(copy.path().join("Cargo.toml"), &manifest).expect("write");
    let manifest: toml::Table = toml::from_str(&manifest).expect("toml");
    let members = manifest["workspace"]["members"]
        .as_array()
        .expect("members");
    for member in members {
        let member = member.as_str().expect("member path");
        let src = source.join(member).join("src");
        if src.is_dir() {
            copy_dir(&src, &copy.path().join(member).join("src"));
        }
    }
    copy_dir(
        &source.join(TEMPLATES_DIR),
        &copy.path().join(TEMPLATES_DIR),
    );
    for file in BUNDLED_CATALOGS
        .iter()
        .flat_map(|(manifest, catalog)| [manifest, catalog])
    {
        std::fs::copy(source.join(file), copy.path().join(file)).expect("copy");
    }
    copy
}

/// Problems in `after` that `before` did not have.
fn added(before: &[Problem], after: Vec<Problem>) -> Vec<Problem> {
    after
        .into_iter()
        .filter(|problem| !before.contains(problem))
        .collect()
}

#[test]
fn the_committed_tree_passes_the_check() {
    let copy = copy_workspace();
    let problems: Vec<String> = check_prompts(copy.path())
        .expect("check runs")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(problems, Vec::<String>::new());
}

#[test]
fn regenerating_the_committed_tree_changes_nothing() {
    let copy = copy_workspace();
    let before = std::fs::read(copy.path().join(CATALOG_PATH)).expect("catalog");
    let regeneration = regenerate_prompts(copy.path()).expect("regenerates");
    assert_eq!(regeneration.written, Vec::<PathBuf>::new());
    assert_eq!(
        std::fs::read(copy.path().join(CATALOG_PATH)).expect("catalog"),
        before
    );
}

#[test]
fn an_edited_template_fails_until_regenerated_and_regeneration_is_idempotent() {
    let copy = copy_workspace();
    let baseline = check_prompts(copy.path()).expect("check runs");
    // Only the 0.149 catalog uses it (gpt-5.2).
    let template = Path::new(TEMPLATES_DIR).join("base_instructions/default.md");
    let path = copy.path().join(&template);
    let mut text = std::fs::read_to_string(&path).expect("template");
    text.push_str("One more rule.\n");
    std::fs::write(&path, &text).expect("edit");

    let new = added(&baseline, check_prompts(copy.path()).expect("check runs"));
    let [
        Problem::StaleGenerated {
            file,
            sources,
            diff,
        },
    ] = new.as_slice()
    else {
        panic!("expected one stale catalog, got {new:#?}");
    };
    assert_eq!(file, Path::new(CATALOG_PATH));
    assert_eq!(
        sources,
        &vec![(template.clone(), vec!["gpt-5.2".to_string()])]
    );
    assert!(diff.starts_with(&format!(
        "--- a/{CATALOG_PATH}\n+++ b/{CATALOG_PATH} (generated)\n"
    )));
    assert!(diff.contains("One more rule.\\n\",\n"), "{diff}");
    assert!(
        new[0]
            .to_string()
            .starts_with("models-manager/models.json is out of date with prompts/templates/base_instructions/default.md (gpt-5.2); run `cargo xtask prompts`\n"),
        "{}",
        new[0]
    );

    let regeneration = regenerate_prompts(copy.path()).expect("regenerates");
    assert_eq!(regeneration.written, vec![PathBuf::from(CATALOG_PATH)]);
    let regenerated = std::fs::read_to_string(copy.path().join(CATALOG_PATH)).expect("catalog");
    assert!(regenerated.contains("One more rule.\\n\""));
    assert_eq!(check_prompts(copy.path()).expect("check runs"), baseline);
    let again = regenerate_prompts(copy.path()).expect("regenerates");
    assert_eq!(again.written, Vec::<PathBuf>::new());
    assert_eq!(
        std::fs::read_to_string(copy.path().join(CATALOG_PATH)).expect("catalog"),
        regenerated
    );
}

#[test]
fn an_unreferenced_template_fails_naming_it() {
    let copy = copy_workspace();
    let baseline = check_prompts(copy.path()).expect("check runs");
    let stray = Path::new(TEMPLATES_DIR).join("notes/forgotten.md");
    std::fs::create_dir_all(copy.path().join(TEMPLATES_DIR).join("notes")).expect("mkdir");
    std::fs::write(copy.path().join(&stray), "Nobody embeds this.\n").expect("write");

    let new = added(&baseline, check_prompts(copy.path()).expect("check runs"));
    assert_eq!(new, vec![Problem::UnreferencedTemplate { template: stray }]);
    assert_eq!(
        new[0].to_string(),
        "prompts/templates/notes/forgotten.md is not used: no crate embeds it with include_str! \
         and no catalog manifest (prompts/models.toml, prompts/models-0.171.toml) names it; use \
         it or delete it"
    );
}

#[test]
fn a_deleted_template_fails_naming_it_and_the_code_that_embeds_it() {
    let copy = copy_workspace();
    let baseline = check_prompts(copy.path()).expect("check runs");
    // Embedded by the prompts crate's template table and named by the manifest.
    let personality = Path::new(TEMPLATES_DIR).join("personality/pragmatic.md");
    std::fs::remove_file(copy.path().join(&personality)).expect("delete");

    let new = added(&baseline, check_prompts(copy.path()).expect("check runs"));
    let [
        Problem::MissingInclude { site, path },
        Problem::MissingManifestTemplate {
            template, slugs, ..
        },
    ] = new.as_slice()
    else {
        panic!("expected a missing include and a missing manifest template, got {new:#?}");
    };
    assert_eq!(
        (&site.file, path, template, slugs),
        (
            &PathBuf::from("prompts/src/template_id.rs"),
            &personality,
            &personality,
            &vec![
                "gpt-5.5".to_string(),
                "gpt-5.4".to_string(),
                "gpt-5.4-mini".to_string()
            ]
        )
    );
    assert!(new[1].to_string().starts_with(
        "prompts/models.toml: prompts/templates/personality/pragmatic.md (used by gpt-5.5"
    ));
}

#[test]
fn a_deleted_tool_template_fails_naming_the_embedding_file() {
    let copy = copy_workspace();
    let baseline = check_prompts(copy.path()).expect("check runs");
    let tool = Path::new(TEMPLATES_DIR).join("tools/view_image.json");
    std::fs::remove_file(copy.path().join(&tool)).expect("delete");

    let new = added(&baseline, check_prompts(copy.path()).expect("check runs"));
    let [Problem::MissingInclude { site, path }] = new.as_slice() else {
        panic!("expected one missing include, got {new:#?}");
    };
    assert_eq!(
        (&site.file, path),
        (&PathBuf::from("prompts/src/template_id.rs"), &tool)
    );
    assert!(new[0].to_string().ends_with(
        ": include_str! names prompts/templates/tools/view_image.json, which does not exist"
    ));
}
