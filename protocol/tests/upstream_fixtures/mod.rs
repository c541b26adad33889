//! Upstream's fixtures: the folder `CODEX_UPSTREAM_FIXTURES` names, holding its `models.json`
//! and `captures/`. Every test that reads them is `#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]`,
//! so `cargo test` lists it as ignored; `cargo test -- --ignored` runs it, and without the
//! variable it fails there instead of passing without having checked anything.
//!
//! One file for every crate's tests: the others include it with
//! `#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]`.
#![allow(dead_code)]

use std::path::Path;
use std::path::PathBuf;

/// The fixtures folder; a relative value is taken from the workspace root, where
/// `cargo test` is run from (tests themselves run in their crate's folder).
pub fn root() -> PathBuf {
    let Some(value) = std::env::var_os("CODEX_UPSTREAM_FIXTURES") else {
        panic!(
            "CODEX_UPSTREAM_FIXTURES is not set; point it at upstream's fixtures (models.json, \
             captures/) to run the tests that need them"
        );
    };
    // Every crate sits directly in the workspace root.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(value);
    assert!(
        dir.is_dir(),
        "CODEX_UPSTREAM_FIXTURES names {}, which is not a folder",
        dir.display()
    );
    dir
}

/// Its `captures/` folder: one folder per captured upstream scenario.
pub fn captures() -> PathBuf {
    root().join("captures")
}
