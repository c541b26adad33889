//! Writing a file whole or not at all: a temporary file in the destination's folder, flushed to
//! disk, then renamed into place.

use std::fs::File;
use std::fs::Permissions;
use std::io;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use tempfile::NamedTempFile;

/// What a write does when its destination exists already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Fail: the destination must be a new file. Checked when the write starts and again,
    /// atomically, by the final rename, so a file that appeared meanwhile is not replaced.
    Refuse,
    /// Replace it if it is a regular file (through a symlink, its target is replaced); its
    /// permissions carry over.
    Replace,
}

/// Why a file could not be written. The destination is untouched in every case.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{} already exists", path.display())]
    Exists { path: PathBuf },
    #[error("{} is not a regular file", path.display())]
    NotRegular { path: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// A file being written next to its destination; [`StagedFile::commit`] renames it into place.
/// Dropped without a commit (an error, a panic), the temporary file is removed and the
/// destination is left as it was. A killed process leaves the temporary file,
/// `.NAME.XXXXXX.tmp`, beside the destination.
#[derive(Debug)]
pub struct StagedFile {
    temp: NamedTempFile,
    destination: PathBuf,
    existing: Existing,
}

impl StagedFile {
    /// Starts writing `destination` (whose folder must exist). Fails before anything is written
    /// when the destination exists and `existing` is [`Existing::Refuse`], or exists and is not
    /// a regular file.
    pub fn create(destination: &Path, existing: Existing) -> Result<Self, WriteError> {
        let io_error = |source| WriteError::Io {
            path: destination.to_path_buf(),
            source,
        };
        let (destination, permissions) = match replaced_file(destination, existing)? {
            Some(metadata) => (
                destination.canonicalize().map_err(io_error)?,
                Some(metadata.permissions()),
            ),
            None => (destination.to_path_buf(), None),
        };
        let folder = match destination.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            Some(_) | None => Path::new("."),
        };
        let name = destination
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        set_new_file_permissions(&mut builder);
        let temp = builder.tempfile_in(folder).map_err(io_error)?;
        if let Some(permissions) = permissions {
            temp.as_file()
                .set_permissions(permissions)
                .map_err(io_error)?;
        }
        Ok(Self {
            temp,
            destination,
            existing,
        })
    }

    /// The temporary file, for writing.
    pub fn file_mut(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// Where the file goes on [`StagedFile::commit`] (a replaced symlink's target).
    pub fn destination(&self) -> &Path {
        &self.destination
    }

    /// Flushes the file to disk and renames it to the destination. With
    /// [`Existing::Refuse`], a destination that appeared since [`StagedFile::create`] is left
    /// alone and reported as [`WriteError::Exists`].
    pub fn commit(mut self) -> Result<(), WriteError> {
        let io_error = |source| WriteError::Io {
            path: self.destination.clone(),
            source,
        };
        let file = self.temp.as_file_mut();
        file.flush().map_err(io_error)?;
        file.sync_all().map_err(io_error)?;
        let persisted = match self.existing {
            Existing::Refuse => self.temp.persist_noclobber(&self.destination),
            Existing::Replace => self.temp.persist(&self.destination),
        };
        match persisted {
            Ok(_) => Ok(()),
            Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => {
                Err(WriteError::Exists {
                    path: self.destination,
                })
            }
            Err(error) => Err(WriteError::Io {
                path: self.destination,
                source: error.error,
            }),
        }
    }
}

/// Checks, without writing anything, that a write to `destination` may start: the errors
/// [`StagedFile::create`] would report for an existing file.
pub fn check_destination(destination: &Path, existing: Existing) -> Result<(), WriteError> {
    replaced_file(destination, existing).map(drop)
}

/// The metadata of the regular file a write to `destination` would replace (symlinks
/// followed); `None` when there is none.
fn replaced_file(
    destination: &Path,
    existing: Existing,
) -> Result<Option<std::fs::Metadata>, WriteError> {
    match std::fs::metadata(destination) {
        Ok(metadata) if !metadata.is_file() => Err(WriteError::NotRegular {
            path: destination.to_path_buf(),
        }),
        Ok(metadata) => match existing {
            Existing::Refuse => Err(WriteError::Exists {
                path: destination.to_path_buf(),
            }),
            Existing::Replace => Ok(Some(metadata)),
        },
        // A dangling symlink: renaming over it would replace the link, not a file.
        Err(error)
            if error.kind() == io::ErrorKind::NotFound
                && std::fs::symlink_metadata(destination).is_ok() =>
        {
            Err(WriteError::NotRegular {
                path: destination.to_path_buf(),
            })
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(WriteError::Io {
            path: destination.to_path_buf(),
            source,
        }),
    }
}

/// Writes `bytes` to `destination` whole or not at all (see [`StagedFile`]).
pub fn write_atomic(
    destination: &Path,
    bytes: &[u8],
    existing: Existing,
) -> Result<(), WriteError> {
    let mut staged = StagedFile::create(destination, existing)?;
    staged
        .file_mut()
        .write_all(bytes)
        .map_err(|source| WriteError::Io {
            path: destination.to_path_buf(),
            source,
        })?;
    staged.commit()
}

/// New files get the permissions `File::create` gives (read-write for all, less the umask)
/// rather than the temporary file's owner-only ones.
#[cfg(unix)]
fn set_new_file_permissions(builder: &mut tempfile::Builder<'_, '_>) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(Permissions::from_mode(0o666));
}

#[cfg(not(unix))]
fn set_new_file_permissions(_: &mut tempfile::Builder<'_, '_>) {}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        write_atomic(&path, b"report", Existing::Refuse).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "report");
        assert_eq!(names(dir.path()), ["report.txt"]);
    }

    #[test]
    fn refuses_an_existing_file_unless_told_to_replace_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        std::fs::write(&path, "mine").unwrap();
        let error = write_atomic(&path, b"new", Existing::Refuse).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{} already exists", path.display())
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        write_atomic(&path, b"new", Existing::Replace).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(dir.path()), ["report.txt"]);
    }

    #[test]
    fn a_file_that_appears_during_the_write_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        let mut staged = StagedFile::create(&path, Existing::Refuse).unwrap();
        staged.file_mut().write_all(b"line\n").unwrap();
        std::fs::write(&path, "someone else's").unwrap();
        let error = staged.commit().unwrap_err();
        assert!(matches!(error, WriteError::Exists { .. }), "{error:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone else's");
        assert_eq!(names(dir.path()), ["rollout.jsonl"]);
    }

    #[test]
    fn an_uncommitted_write_leaves_the_destination_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        std::fs::write(&path, "good").unwrap();
        let mut staged = StagedFile::create(&path, Existing::Replace).unwrap();
        staged.file_mut().write_all(b"half a rep").unwrap();
        drop(staged);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "good");
        assert_eq!(names(dir.path()), ["report.txt"]);
    }

    #[test]
    fn never_replaces_what_is_not_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        let error = write_atomic(&folder, b"x", Existing::Replace).unwrap_err();
        assert!(matches!(error, WriteError::NotRegular { .. }), "{error:?}");
    }

    #[cfg(unix)]
    #[test]
    fn replacing_through_a_symlink_replaces_its_target_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.html");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new", Existing::Replace).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let error = write_atomic(&dangling, b"x", Existing::Replace).unwrap_err();
        assert!(matches!(error, WriteError::NotRegular { .. }), "{error:?}");
    }
}
