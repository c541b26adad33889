//! Whether two paths name the same file.

use std::path::Path;

/// True when `a` and `b` both exist and name one file: the same canonical path (symlinks
/// followed, `./x` against `x`) or, on Unix, the same device and inode (hard links). A path
/// that does not exist names no file, so it is never the same as another.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(first), Ok(second)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    same_inode(&first, &second)
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        )
}

#[cfg(unix)]
fn same_inode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_inode(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn spellings_links_and_strangers() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.jsonl");
        let other = dir.path().join("y.jsonl");
        std::fs::write(&file, "a").unwrap();
        std::fs::write(&other, "a").unwrap();
        let hard = dir.path().join("hard.jsonl");
        std::fs::hard_link(&file, &hard).unwrap();
        let dotted = dir.path().join(".").join("x.jsonl");
        let missing = dir.path().join("missing");
        assert_eq!(
            [
                same_file(&file, &dotted),
                same_file(&file, &hard),
                same_file(&file, &other),
                same_file(&file, &missing),
                same_file(&missing, &missing),
            ],
            [true, true, false, false, false]
        );
    }
}
