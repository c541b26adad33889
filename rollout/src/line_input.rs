//! Reading lines for the reading pass: whole lines into a batch, and a line too long to hold
//! twice as a reader of its own.

use std::io;
use std::io::BufRead;
use std::io::Read;

use super::reader::LONG_LINE_BYTES;

/// How far [`fill_line`] read.
#[derive(Debug, Clone, Copy)]
pub(super) enum Fill {
    /// A whole line, line break included.
    Line,
    /// The end of the input.
    End,
    /// The line starting at `start` of the buffer is longer than [`LONG_LINE_BYTES`]: the rest
    /// of it is still to be read.
    Long { start: usize },
}

/// Appends the next line of `reader` to `batch`, or as much of it as shows it is long.
pub(super) fn fill_line(reader: &mut impl BufRead, batch: &mut Vec<u8>) -> io::Result<Fill> {
    let start = batch.len();
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(Fill::End);
        }
        let (taken, complete) = match memchr::memchr(b'\n', available) {
            Some(position) => (position + 1, true),
            None => (available.len(), false),
        };
        batch.extend_from_slice(&available[..taken]);
        reader.consume(taken);
        if complete {
            return Ok(Fill::Line);
        }
        if batch.len() - start > LONG_LINE_BYTES {
            return Ok(Fill::Long { start });
        }
    }
}

/// One long line as a reader: the bytes already read, then the rest of the line from the
/// input, line break included, then the end.
pub(super) struct RestOfLine<'r, R> {
    head: io::Cursor<Vec<u8>>,
    input: &'r mut R,
    /// The line break was read.
    pub terminated: bool,
    /// Every byte so far was whitespace.
    pub blank: bool,
    /// Bytes of the line, head included, read so far.
    pub bytes: u64,
}

impl<'r, R: BufRead> RestOfLine<'r, R> {
    pub(super) fn new(head: Vec<u8>, input: &'r mut R) -> Self {
        let blank = head.trim_ascii().is_empty();
        let bytes = head.len() as u64;
        Self {
            head: io::Cursor::new(head),
            input,
            terminated: false,
            blank,
            bytes,
        }
    }

    /// Reads what the parser left of the line, so the input is at the next line.
    pub(super) fn skip_to_end(&mut self) -> io::Result<()> {
        let mut sink = [0; 8192];
        while self.read(&mut sink)? > 0 {}
        Ok(())
    }
}

impl<R: BufRead> Read for RestOfLine<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let from_head = self.head.read(buf)?;
        if from_head > 0 {
            return Ok(from_head);
        }
        if self.terminated {
            return Ok(0);
        }
        let available = self.input.fill_buf()?;
        let wanted = available.len().min(buf.len());
        let taken = match memchr::memchr(b'\n', &available[..wanted]) {
            Some(position) => {
                self.terminated = true;
                position + 1
            }
            None => wanted,
        };
        buf[..taken].copy_from_slice(&available[..taken]);
        self.blank = self.blank && buf[..taken].trim_ascii().is_empty();
        self.input.consume(taken);
        self.bytes += taken as u64;
        Ok(taken)
    }
}
