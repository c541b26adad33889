//! Reading regular files only.

use std::fs::File;
use std::fs::FileType;
use std::fs::OpenOptions;
use std::io;
use std::io::Read;
use std::path::Path;

/// Opens `path` (following symlinks) for reading if it is a regular file.
///
/// The file is opened without blocking and its type is checked on the open handle, so a path
/// that is, or turns into, a named pipe fails at once instead of waiting for a writer.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = nonblocking_read_options().open(path)?;
    let file_type = file.metadata()?.file_type();
    if file_type.is_file() {
        Ok(file)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_name(file_type)),
        ))
    }
}

/// Every byte of the regular file at `path` (see [`open_regular`]).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The regular file at `path` as UTF-8 text (see [`open_regular`]); invalid UTF-8 is an
/// [`io::ErrorKind::InvalidData`] error, as [`std::fs::read_to_string`] reports it.
pub fn read_regular_to_string(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    open_regular(path)?.read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(unix)]
fn nonblocking_read_options() -> OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = OpenOptions::new();
    // Reads of regular files ignore the flag; it only keeps `open` of a FIFO from waiting.
    options.read(true).custom_flags(libc::O_NONBLOCK);
    options
}

#[cfg(not(unix))]
fn nonblocking_read_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true);
    options
}

/// What a non-regular file is, for messages.
#[cfg(unix)]
fn kind_name(file_type: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a named pipe"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn kind_name(file_type: FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn reads_regular_files_through_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "text").unwrap();
        assert_eq!(read_regular_to_string(&file).unwrap(), "text");
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert_eq!(read_regular(&link).unwrap(), b"text");
        }
    }

    #[test]
    fn refuses_directories() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_regular(dir.path()).unwrap_err();
        assert_eq!(
            (error.kind(), error.to_string()),
            (
                io::ErrorKind::InvalidInput,
                "not a regular file (a directory)".to_string()
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_named_pipe_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // On a thread, so that a regression fails the test instead of hanging it.
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || sender.send(read_regular_to_string(&fifo)));
        let read = receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a named pipe returns at once");
        assert_eq!(
            read.unwrap_err().to_string(),
            "not a regular file (a named pipe)"
        );
    }

    #[test]
    fn missing_files_keep_their_error_kind() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_regular(&dir.path().join("missing")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }
}
