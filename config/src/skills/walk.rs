//! The bounded walk of one skills root (`codex-rs/exec-server/src/local_file_system.rs`,
//! `codex-rs/ext/skills/src/loader/discovery.rs`): breadth first, each folder's entries in name
//! order, folders at most [`MAX_SCAN_DEPTH`] below the root read, at most
//! [`MAX_DIRS_PER_ROOT`] folders and [`MAX_ENTRIES_PER_ROOT`] entries. Hidden folders (a name
//! starting with `.`) are not entered. Symlinked files are never followed; symlinked folders
//! only under [`FolderLinks::Follow`], each real folder once.

use std::collections::HashSet;
use std::collections::VecDeque;
use std::io;
use std::path::Path;
use std::path::PathBuf;

/// Name of a skill's instructions file.
pub const SKILL_FILE: &str = "SKILL.md";
/// Deepest folder read, counted from the root (0).
pub const MAX_SCAN_DEPTH: usize = 6;
/// Most folders read under one root.
pub const MAX_DIRS_PER_ROOT: usize = 2000;
/// Most entries looked at under one root.
pub const MAX_ENTRIES_PER_ROOT: usize = 20_000;

/// Whether symlinked folders are entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderLinks {
    Follow,
    Ignore,
}

/// The `SKILL.md` files under a root, in walk order, and what went wrong on the way.
#[derive(Debug, Default)]
pub struct RootWalk {
    pub skill_files: Vec<PathBuf>,
    pub warnings: Vec<String>,
}

/// Walks `root`. A missing root (or one that is not a folder) holds nothing.
pub fn walk_skills_root(root: &Path, links: FolderLinks) -> RootWalk {
    let mut walk = RootWalk::default();
    let Ok(link) = std::fs::symlink_metadata(root) else {
        return walk;
    };
    let root_is_link = link.file_type().is_symlink();
    if !root.is_dir() || (root_is_link && links == FolderLinks::Ignore) {
        return walk;
    }
    let mut visited = HashSet::from([identity(root, links)]);
    let mut queue = VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut folders = 1usize;
    let mut entries_seen = 0usize;
    let mut truncated = false;
    'walk: while let Some((folder, depth)) = queue.pop_front() {
        let mut names = match read_names(&folder) {
            Ok(names) => names,
            Err(error) => {
                walk.warnings.push(format!(
                    "failed to scan skill path {}: {error}",
                    folder.display()
                ));
                continue;
            }
        };
        names.sort();
        for name in names {
            if entries_seen == MAX_ENTRIES_PER_ROOT {
                truncated = true;
                break 'walk;
            }
            entries_seen += 1;
            let path = folder.join(&name);
            let is_link = match std::fs::symlink_metadata(&path) {
                Ok(metadata) => metadata.file_type().is_symlink(),
                Err(error) => {
                    walk.warnings.push(format!(
                        "failed to scan skill path {}: {error}",
                        path.display()
                    ));
                    continue;
                }
            };
            let Ok(metadata) = std::fs::metadata(&path) else {
                continue;
            };
            if is_link && (links == FolderLinks::Ignore || !metadata.is_dir()) {
                continue;
            }
            if metadata.is_file() {
                if name == SKILL_FILE {
                    walk.skill_files.push(path);
                }
                continue;
            }
            if !metadata.is_dir() || depth >= MAX_SCAN_DEPTH || name.starts_with('.') {
                continue;
            }
            if !visited.insert(identity(&path, links)) {
                continue;
            }
            if folders == MAX_DIRS_PER_ROOT {
                truncated = true;
            } else {
                folders += 1;
                queue.push_back((path, depth + 1));
            }
        }
    }
    if truncated {
        walk.warnings.push(format!(
            "skills scan reached its traversal limit (root: {})",
            root.display()
        ));
    }
    walk
}

/// The names in `folder` (lossy for names that are not UTF-8).
fn read_names(folder: &Path) -> io::Result<Vec<String>> {
    std::fs::read_dir(folder)?
        .map(|entry| entry.map(|entry| entry.file_name().to_string_lossy().into_owned()))
        .collect()
}

/// What makes two folders the same: the real path when links are followed.
fn identity(path: &Path, links: FolderLinks) -> PathBuf {
    match links {
        FolderLinks::Follow => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        FolderLinks::Ignore => path.to_path_buf(),
    }
}
