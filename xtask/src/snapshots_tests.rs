use pretty_assertions::assert_eq;

use super::*;
use crate::test_support::write_files;

#[test]
fn pending_files_are_found_outside_target_and_hidden_folders() {
    let root = tempfile::tempdir().expect("tempdir");
    write_files(
        root.path(),
        &[
            ("a/src/snapshots/a__x.snap", "accepted"),
            ("a/src/snapshots/a__y.snap.new", "pending"),
            ("b/tests/.lib.rs.pending-snap", "inline pending"),
            ("target/debug/z.snap.new", "build output"),
            (".git/w.snap.new", "not a source"),
        ],
    );
    assert_eq!(
        pending_snapshots(root.path()).expect("walk"),
        vec![
            PathBuf::from("a/src/snapshots/a__y.snap.new"),
            PathBuf::from("b/tests/.lib.rs.pending-snap"),
        ]
    );
}
