//! File access every crate of the workspace shares, so that no input hangs the tool and no
//! output destroys a user's file.
//!
//! - [`open_regular`], [`read_regular`], [`read_regular_to_string`]: read only regular files
//!   (symlinks followed). A named pipe, socket, device or directory is refused with an
//!   [`std::io::ErrorKind::InvalidInput`] error naming its kind, without blocking: opening a
//!   FIFO for reading would otherwise wait forever for a writer.
//! - [`StagedFile`], [`write_atomic`]: writes go to a temporary file in the destination's
//!   folder, are flushed to disk and renamed into place, so a crash never leaves a half-written
//!   file over a good one. [`Existing`] says whether an existing destination may be replaced;
//!   when not, the final rename refuses atomically to replace a file that appeared meanwhile.
//!   [`check_destination`] reports the same refusals before any work is done.
//! - [`same_file`]: whether two paths name one file (symlinks, `./x` against `x`, hard links).

mod read;
mod same;
mod write;

pub use read::open_regular;
pub use read::read_regular;
pub use read::read_regular_to_string;
pub use same::same_file;
pub use write::Existing;
pub use write::StagedFile;
pub use write::WriteError;
pub use write::check_destination;
pub use write::write_atomic;
