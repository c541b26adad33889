//! `cargo xtask snapshots` on a throwaway crate with insta snapshots: every suite runs, each
//! changed snapshot is written as `.snap.new` and listed, and a failure never reads as "no
//! pending snapshots".
//!
//! The crate is built with insta (into this workspace's target folder, so only the first run
//! pays for it), which takes longer than a unit test should: the tests are ignored by a plain
//! `cargo test`, and CI runs them with `-- --ignored`.

// Helpers outside #[test] functions may panic on a broken set-up.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;

/// A test that renders `rendered` into the snapshot `<file>__<name>`.
fn snapshot_test(name: &str, rendered: &str) -> String {
    format!("#[test]\nfn {name}() {{\n    insta::assert_snapshot!({rendered:?});\n}}\n")
}

/// The accepted snapshot of a test in `tests/<file>.rs`.
fn accepted_snapshot(file: &str, accepted: &str) -> String {
    format!("---\nsource: tests/{file}.rs\n---\n{accepted}\n")
}

/// A crate with one test file per `(file, test source)` and the given accepted snapshots,
/// locked to the versions this workspace uses (so nothing is fetched).
fn throwaway_crate(tests: &[(&str, String)], snapshots: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let write = |relative: &str, text: &str| {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "Cargo.toml",
        "[package]\nname = \"snapshot-fixture\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[workspace]\n\n[dev-dependencies]\n\
         insta = { version = \"1\", default-features = false }\n",
    );
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    std::fs::copy(lock, root.join("Cargo.lock")).expect("copy Cargo.lock");
    write("src/lib.rs", "");
    for (file, source) in tests {
        write(&format!("tests/{file}.rs"), source);
    }
    for (name, text) in snapshots {
        write(&format!("tests/snapshots/{name}.snap"), text);
    }
    dir
}

/// `cargo xtask --root ROOT snapshots`, offline, with insta's own settings left at their defaults.
fn xtask_snapshots(root: &Path) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("--root")
        .arg(root)
        .arg("snapshots")
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("snapshots-task"),
        )
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("INSTA_UPDATE")
        .env_remove("INSTA_FORCE_PASS")
        .env_remove("INSTA_WORKSPACE_ROOT")
        .output()
        .expect("xtask runs");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
    )
}

#[test]
#[ignore = "builds a throwaway crate with insta"]
fn changed_snapshots_in_every_suite_are_written_listed_and_fail_the_task() {
    let fixture = throwaway_crate(
        &[
            ("first", snapshot_test("greeting", "hello, world")),
            ("second", snapshot_test("farewell", "goodbye")),
        ],
        &[
            (
                "first__greeting",
                accepted_snapshot("first", "hello, there"),
            ),
            ("second__farewell", accepted_snapshot("second", "see you")),
        ],
    );
    let (code, stdout) = xtask_snapshots(fixture.path());
    assert_eq!(code, Some(1), "{stdout}");
    assert!(!stdout.contains("no pending snapshots"), "{stdout}");
    let listing = "pending snapshots (review, then accept or delete):\n\
                   \x20 tests/snapshots/first__greeting.snap.new\n\
                   \x20 tests/snapshots/second__farewell.snap.new\n";
    assert!(stdout.contains(listing), "{stdout}");
    let pending: Vec<(String, String)> = ["first__greeting", "second__farewell"]
        .iter()
        .map(|name| {
            let path = fixture
                .path()
                .join(format!("tests/snapshots/{name}.snap.new"));
            let text = std::fs::read_to_string(&path).expect("pending snapshot written");
            let body = text.splitn(3, "---\n").nth(2).expect("header, then body");
            (name.to_string(), body.to_string())
        })
        .collect();
    assert_eq!(
        pending,
        [
            ("first__greeting".to_string(), "hello, world\n".to_string()),
            ("second__farewell".to_string(), "goodbye\n".to_string()),
        ]
    );
}

#[test]
#[ignore = "builds a throwaway crate with insta"]
fn failing_tests_without_a_pending_snapshot_are_not_reported_as_none_pending() {
    let fixture = throwaway_crate(
        &[(
            "broken",
            "#[test]\nfn arithmetic() {\n    assert_eq!(1 + 1, 3);\n}\n".to_string(),
        )],
        &[],
    );
    let (code, stdout) = xtask_snapshots(fixture.path());
    assert_eq!(code, Some(1), "{stdout}");
    assert!(!stdout.contains("no pending snapshots"), "{stdout}");
    assert!(
        stdout.ends_with(
            "no snapshot is pending, but tests failed (see their output above); fix them \
             and run `cargo xtask snapshots` again\n"
        ),
        "{stdout}"
    );
}
