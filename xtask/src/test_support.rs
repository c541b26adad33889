//! Helpers for tests that build small workspaces on disk.

use std::path::Path;

/// Writes each `(relative path, content)` under `root`, creating folders.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("file has a parent")).expect("mkdir");
        std::fs::write(&path, content).expect("write");
    }
}
