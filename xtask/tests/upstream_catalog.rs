//! The bundled catalog's facts against upstream's real catalog, read from the directory named
//! by `CODEX_UPSTREAM_FIXTURES` (ignored without it; run with
//! `-- --ignored`).

// Helpers outside #[test] functions may panic on broken fixtures.
#![allow(clippy::expect_used)]

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::Path;

use pretty_assertions::assert_eq;
use xtask::CompareScope;
use xtask::upstream_compare;

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn bundled_catalog_facts_agree_with_upstream() {
    let fixtures = upstream_fixtures::root();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let comparison =
        upstream_compare(&root, &fixtures, CompareScope::Facts).expect("both catalogs load");
    assert_eq!(comparison.agrees(), true, "{}", comparison.render());
}
