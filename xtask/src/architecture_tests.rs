use std::path::Path;

use pretty_assertions::assert_eq;

use super::*;
use crate::test_support::write_files;

const ROOT_MANIFEST: &str = r#"[workspace]
members = ["protocol", "core", "cli"]
"#;

fn manifest(package: &str, dependencies: &str) -> String {
    format!("[package]\nname = \"{package}\"\n\n{dependencies}")
}

/// A three-crate workspace whose core `lib.rs` is `core_lib`.
fn workspace(root: &Path, core_dependencies: &str, core_lib: &str) {
    write_files(
        root,
        &[
            ("Cargo.toml", ROOT_MANIFEST),
            ("protocol/Cargo.toml", &manifest("codex-protocol", "")),
            (
                "core/Cargo.toml",
                &manifest("codex-core", core_dependencies),
            ),
            ("core/src/lib.rs", core_lib),
            (
                "cli/Cargo.toml",
                &manifest(
                    "codex-cli",
                    "[dependencies]\ncodex-core = { path = \"../core\" }\n",
                ),
            ),
        ],
    );
}

#[test]
fn dependencies_pointing_down_pass() {
    let dir = tempfile::tempdir().expect("tempdir");
    workspace(
        dir.path(),
        "[dependencies]\ncodex-protocol = { workspace = true }\nserde = \"1\"\n",
        "//! Core.\nmod a;\n",
    );
    write_files(dir.path(), &[("core/src/a.rs", "pub fn a() {}\n")]);
    let report = check_architecture(dir.path()).expect("check runs");
    assert_eq!(
        report,
        ArchitectureReport {
            problems: Vec::new(),
            core_lines: 3,
        }
    );
}

#[test]
fn a_dependency_pointing_up_fails_in_every_table() {
    let dir = tempfile::tempdir().expect("tempdir");
    workspace(
        dir.path(),
        "[dependencies]\ncodex-cli = { path = \"../cli\" }\n\n\
         [dev-dependencies]\ninspect = { package = \"codex-inspect\", path = \"../inspect\" }\n\n\
         [build-dependencies]\ncodex-core = { path = \".\" }\n",
        "mod a {}\n",
    );
    let report = check_architecture(dir.path()).expect("check runs");
    let wrong = |dependency: &str, table: &'static str| ArchitectureProblem::WrongDirection {
        package: "codex-core".to_string(),
        dependency: dependency.to_string(),
        table,
    };
    assert_eq!(
        report.problems,
        vec![
            wrong("codex-cli", "dependencies"),
            wrong("codex-inspect", "dev-dependencies"),
            wrong("codex-core", "build-dependencies"),
        ]
    );
    assert_eq!(
        report.problems[0].to_string(),
        "`codex-core` lists `codex-cli` under [dependencies], but `codex-cli` is not below it \
         in CRATE_LAYERS: dependencies must point to lower layers"
    );
}

#[test]
fn a_crate_without_a_layer_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    workspace(dir.path(), "", "");
    write_files(
        dir.path(),
        &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"protocol\", \"core\", \"cli\", \"extra\"]\n",
            ),
            ("extra/Cargo.toml", &manifest("codex-extra", "")),
        ],
    );
    let report = check_architecture(dir.path()).expect("check runs");
    assert_eq!(
        report.problems,
        vec![ArchitectureProblem::UnlistedCrate {
            package: "codex-extra".to_string(),
            manifest: dir.path().join("extra/Cargo.toml"),
        }]
    );
}

#[test]
fn a_new_public_module_in_core_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    workspace(
        dir.path(),
        "",
        "//! Core.\n\npub mod gadgets {}\npub(crate) mod fine {}\nmod private {}\n\
         pub use private::Thing;\n",
    );
    let report = check_architecture(dir.path()).expect("check runs");
    assert_eq!(
        report.problems,
        vec![ArchitectureProblem::CorePublicModule {
            module: "gadgets".to_string(),
            line: 3,
        }]
    );
}

#[test]
fn test_items_and_the_files_they_load_are_not_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = "\
mod a;
mod b;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod inline_tests {
    #[test]
    fn t() {
        let _ = \"}\";
    }
}
";
    workspace(dir.path(), "", lib);
    write_files(
        dir.path(),
        &[
            // 4 lines, of which the test helper's 3 are not counted.
            (
                "core/src/a.rs",
                "pub fn a() {}\n#[cfg(test)]\nfn helper() {\n}\n",
            ),
            // A folder module whose child sits at a `#[path]`.
            (
                "core/src/b/mod.rs",
                "mod c {\n    mod d;\n}\n#[path = \"elsewhere.rs\"]\nmod e;\n",
            ),
            ("core/src/b/c/d.rs", "pub fn d() {}\n"),
            ("core/src/b/elsewhere.rs", "pub fn e() {}\npub fn f() {}\n"),
            ("core/src/tests.rs", "#[test]\nfn never_counted() {}\n"),
        ],
    );
    let report = check_architecture(dir.path()).expect("check runs");
    // lib.rs: 13 lines, 10 of them tests; a.rs 1; b/mod.rs 5; d.rs 1; elsewhere.rs 2.
    assert_eq!(report.core_lines, 3 + 1 + 5 + 1 + 2);
}

#[test]
fn too_many_core_lines_fail() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = "pub fn x() {}\n".repeat(CORE_LINE_LIMIT + 1);
    workspace(dir.path(), "", &lib);
    let report = check_architecture(dir.path()).expect("check runs");
    assert_eq!(
        report.problems,
        vec![ArchitectureProblem::CoreTooLarge {
            lines: CORE_LINE_LIMIT + 1,
            limit: CORE_LINE_LIMIT,
        }]
    );
}

#[test]
fn a_missing_module_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    workspace(dir.path(), "", "mod gone;\n");
    let error = check_architecture(dir.path()).expect_err("a missing file is an error");
    assert!(
        error.to_string().starts_with(
            &dir.path()
                .join("core/src/gone/mod.rs")
                .display()
                .to_string()
        ),
        "{error}"
    );
}
