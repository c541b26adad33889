//! The filesystem seam used by AGENTS.md discovery.

use std::io;
use std::path::Path;

/// What a path names once symlinks are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file: the only kind that can supply instructions.
    File,
    /// A directory: skipped as a candidate, but counts as a root marker.
    Directory,
    /// FIFOs, sockets, devices: skipped as candidates because opening them
    /// may block or have side effects.
    Other,
}

/// Filesystem access for AGENTS.md discovery.
///
/// Implementations must:
/// - follow symlinks in [`AgentsMdFileSystem::entry_kind`] and report a
///   missing path (including a dangling symlink) as
///   [`io::ErrorKind::NotFound`], because discovery treats only NotFound as
///   "absent" and every other error as fatal;
/// - be safe to call from many threads at once (discovery probes up to
///   [`super::MAX_CONCURRENT_ANCESTOR_PROBES`] paths concurrently);
/// - answer from the filesystem as it is now, without caching between calls,
///   so that repeated discoveries see edits.
pub trait AgentsMdFileSystem: Send + Sync + 'static {
    /// The kind of entry at `path`, following symlinks.
    fn entry_kind(&self, path: &Path) -> io::Result<EntryKind>;

    /// Every byte of the regular file at `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
}

/// The real local filesystem.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalFileSystem;

impl AgentsMdFileSystem for LocalFileSystem {
    fn entry_kind(&self, path: &Path) -> io::Result<EntryKind> {
        let metadata = std::fs::metadata(path)?;
        let file_type = metadata.file_type();
        Ok(if file_type.is_file() {
            EntryKind::File
        } else if file_type.is_dir() {
            EntryKind::Directory
        } else {
            EntryKind::Other
        })
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        codex_utils_fs::read_regular(path)
    }
}
