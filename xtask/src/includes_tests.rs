use pretty_assertions::assert_eq;

use super::*;
use crate::test_support::write_files;

const LIB: &str = r#"//! include_str!("in_a_comment.md") is not an include.
const DIRECT: &str = include_str!("../data/direct.md");
static CONCAT: &str = include_str!(concat!("../data/", "concat.md"));
const FROM_MANIFEST_DIR: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/env.md"));
const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/generated.md"));
const TEXT: &str = "include_str!(\"in_a_string.md\")";

macro_rules! table {
    ($( $(#[$doc:meta])* $variant:ident => $path:literal [$($var:literal),*] ),* $(,)?) => {
        pub enum Id { $($variant,)* }
        pub fn text(id: Id) -> &'static str {
            match id { $(Id::$variant => include_str!(concat!("../../shared/", $path)),)* }
        }
    };
}

table! {
    /// First.
    First => "one.md" ["x"],
    Second =>
        "two/three.md" [],
}

macro_rules! item {
    ($file:literal) => {
        include_str!(concat!("../data/items/", $file))
    };
}

const ITEM: &str = item!("item.md");

fn uses() -> usize {
    DIRECT.len() + text(Id::Second).len() + ITEM.len()
}

const BROKEN: &str = include_str!(some_macro!());
"#;

fn scan(files: &[(&str, &str)]) -> IncludeScan {
    let root = tempfile::tempdir().expect("tempdir");
    write_files(root.path(), files);
    IncludeScan::workspace(root.path()).expect("scan")
}

fn summary(scan: &IncludeScan) -> Vec<(String, String, Option<String>)> {
    scan.includes
        .iter()
        .map(|include| {
            (
                include.site.to_string(),
                include.path.display().to_string(),
                include.label.as_ref().map(|label| label.name.clone()),
            )
        })
        .collect()
}

#[test]
fn finds_literal_concat_manifest_dir_and_macro_built_paths() {
    let scan = scan(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"crate_a\", \"missing\"]\n",
        ),
        ("crate_a/src/lib.rs", LIB),
        (
            "crate_a/src/nested/more.rs",
            "const M: &str = include_str!(\"m.md\");",
        ),
        (
            "crate_a/tests/t.rs",
            "const T: &str = include_str!(\"../data/test_only.md\");",
        ),
    ]);
    let some = |label: &str| Some(label.to_string());
    assert_eq!(
        summary(&scan),
        vec![
            (
                "crate_a/src/lib.rs:2".to_string(),
                "crate_a/data/direct.md".to_string(),
                some("DIRECT")
            ),
            (
                "crate_a/src/lib.rs:3".to_string(),
                "crate_a/data/concat.md".to_string(),
                some("CONCAT")
            ),
            (
                "crate_a/src/lib.rs:4".to_string(),
                "crate_a/data/env.md".to_string(),
                some("FROM_MANIFEST_DIR")
            ),
            (
                "crate_a/src/lib.rs:19".to_string(),
                "shared/one.md".to_string(),
                some("First")
            ),
            (
                "crate_a/src/lib.rs:21".to_string(),
                "shared/two/three.md".to_string(),
                some("Second")
            ),
            (
                "crate_a/src/lib.rs:30".to_string(),
                "crate_a/data/items/item.md".to_string(),
                some("ITEM")
            ),
            (
                "crate_a/src/nested/more.rs:1".to_string(),
                "crate_a/src/nested/m.md".to_string(),
                some("M")
            ),
        ]
    );
    assert_eq!(
        scan.unresolved,
        vec![UnresolvedInclude {
            site: SourceSite {
                file: PathBuf::from("crate_a/src/lib.rs"),
                line: 36,
            },
            reason: "the argument is neither a string literal nor concat!(…)".to_string(),
        }]
    );
}

#[test]
fn users_are_the_files_naming_the_label_outside_its_definition() {
    let scan = scan(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"crate_a\", \"crate_b\"]\n",
        ),
        ("crate_a/src/lib.rs", LIB),
        (
            "crate_b/src/lib.rs",
            "fn f() { let _ = crate_a::Id::First; }",
        ),
    ]);
    let users = |name: &str| {
        let include = scan
            .includes
            .iter()
            .find(|include| {
                include
                    .label
                    .as_ref()
                    .is_some_and(|label| label.name == name)
            })
            .expect("label");
        scan.users_of(include.label.as_ref().expect("label"))
            .iter()
            .map(|path| path.display().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(users("First"), vec!["crate_b/src/lib.rs"]);
    assert_eq!(users("Second"), vec!["crate_a/src/lib.rs"]);
    assert_eq!(users("CONCAT"), Vec::<String>::new());
}

#[test]
fn macro_parameters_without_a_fixed_neighbour_are_unresolved() {
    let scan = scan(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"c\"]\n"),
        (
            "c/src/lib.rs",
            "macro_rules! m {\n    ($($file:literal),*) => { $(include_str!(concat!(\"x/\", $file));)* };\n}\n\
             m!(\"a.md\", \"b.md\");\n\
             fn f() { include_str!(concat!($a, $b)); }\n",
        ),
    ]);
    assert_eq!(scan.includes, Vec::new());
    assert_eq!(
        scan.unresolved
            .iter()
            .map(|unresolved| (unresolved.site.line, unresolved.reason.clone()))
            .collect::<Vec<_>>(),
        vec![
            (
                2,
                "parameter `$file` of macro `m` has no fixed token before it".to_string()
            ),
            (
                5,
                "the path is built from more than one macro parameter".to_string()
            ),
        ]
    );
}

#[test]
fn a_workspace_without_members_is_an_error() {
    let root = tempfile::tempdir().expect("tempdir");
    write_files(root.path(), &[("Cargo.toml", "[package]\nname = \"x\"\n")]);
    let error = IncludeScan::workspace(root.path()).expect_err("no members");
    assert_eq!(
        error.to_string(),
        format!(
            "{}: no [workspace] members list",
            std::fs::canonicalize(root.path())
                .expect("canonical")
                .join("Cargo.toml")
                .display()
        )
    );
}

#[test]
fn normalize_removes_dot_steps_lexically() {
    assert_eq!(
        normalize(Path::new(
            "/w/core/src/tools/../../../prompts/./templates/x.md"
        )),
        PathBuf::from("/w/prompts/templates/x.md")
    );
}
