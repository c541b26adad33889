//! The bundled catalog's facts against upstream's real catalog, read from the directory named
//! by `CODEX_UPSTREAM_FIXTURES` (skipped with a notice when unset).

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use xtask::CompareScope;
use xtask::upstream_compare;

#[test]
fn bundled_catalog_facts_agree_with_upstream() {
    let Some(dir) = std::env::var_os("CODEX_UPSTREAM_FIXTURES") else {
        eprintln!("CODEX_UPSTREAM_FIXTURES is unset; skipping the upstream catalog comparison");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    // A relative value is taken from the workspace root.
    let fixtures: PathBuf = root.join(dir);
    let comparison =
        upstream_compare(&root, &fixtures, CompareScope::Facts).expect("both catalogs load");
    assert_eq!(comparison.agrees(), true, "{}", comparison.render());
}
