//! Finding the rollouts under a folder: every `rollout-*.jsonl` file, at any depth (upstream
//! keeps them under `YYYY/MM/DD/`), in path order.

use std::path::Path;
use std::path::PathBuf;

use super::CorpusError;
use super::SkippedFile;

/// One rollout of a folder.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CorpusFile {
    /// Where to read it.
    pub path: PathBuf,
    /// How reports name it: its path relative to the folder inspected (`/`-separated), or the
    /// path as given for a single file.
    pub name: String,
}

impl CorpusFile {
    /// A file inspected on its own, named as given.
    pub fn single(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
            name: path.display().to_string(),
        }
    }
}

/// The rollouts found under a folder, and the sub-folders that could not be listed.
#[derive(Debug, Default)]
pub struct RolloutListing {
    /// Sorted by path.
    pub files: Vec<CorpusFile>,
    /// Sub-folders that could not be listed (their files are not in `files`).
    pub unlisted: Vec<SkippedFile>,
}

/// Every `rollout-*.jsonl` file under `dir`, sorted by path. Symbolic links to folders are not
/// followed (a link cannot make the walk loop); links to files are listed. Only a `dir` that
/// cannot be listed at all is an error; a sub-folder that cannot be is recorded in
/// [`RolloutListing::unlisted`].
pub fn find_rollouts(dir: &Path) -> Result<RolloutListing, CorpusError> {
    let mut listing = RolloutListing::default();
    let mut folders = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(source) if prefix.is_empty() => {
                return Err(CorpusError::ListFolder {
                    path: folder,
                    source,
                });
            }
            Err(source) => {
                listing.unlisted.push(unlisted(&prefix, &folder, source));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(source) => {
                    listing.unlisted.push(unlisted(&prefix, &folder, source));
                    break;
                }
            };
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let name = format!("{prefix}{file_name}");
            let path = entry.path();
            // `file_type` does not follow links: a linked folder is neither walked nor listed.
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                folders.push((path, format!("{name}/")));
            } else if file_name.starts_with("rollout-")
                && file_name.ends_with(".jsonl")
                && (file_type.is_file() || path.is_file())
            {
                listing.files.push(CorpusFile { path, name });
            }
        }
    }
    listing.files.sort();
    listing.unlisted.sort_by(|a, b| a.rollout.cmp(&b.rollout));
    Ok(listing)
}

fn unlisted(prefix: &str, folder: &Path, source: std::io::Error) -> SkippedFile {
    SkippedFile {
        rollout: prefix.trim_end_matches('/').to_string(),
        reason: CorpusError::ListFolder {
            path: folder.to_path_buf(),
            source,
        }
        .to_string(),
    }
}
