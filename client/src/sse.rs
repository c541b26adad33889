//! Server-sent-event framing: bytes in, the `data` of each complete event out.
//!
//! Lines end with `\n`, `\r\n` or `\r`; a blank line ends an event; `data:` lines of one event
//! are joined with `\n`; `event:`, `id:`, `retry:` and comment lines are not needed (the JSON
//! payload names its own type) and are skipped. Bytes are buffered until a line is complete, so
//! chunks may split lines and UTF-8 characters anywhere.

#[derive(Debug, Default)]
pub(crate) struct SseDecoder {
    /// Bytes of the line not yet terminated.
    partial_line: Vec<u8>,
    /// `data` lines of the event being read.
    data_lines: Vec<String>,
    /// The previous chunk ended in `\r`, so a leading `\n` of this chunk belongs to it.
    after_carriage_return: bool,
}

impl SseDecoder {
    /// Feeds a chunk; returns the data of every event it completed, in order.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        let mut events = Vec::new();
        let mut bytes = chunk;
        if self.after_carriage_return {
            self.after_carriage_return = false;
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
        }
        while let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.partial_line.extend_from_slice(&bytes[..end]);
            let line = String::from_utf8_lossy(&self.partial_line).into_owned();
            self.partial_line.clear();
            if let Some(data) = self.take_line(&line) {
                events.push(data);
            }
            let mut next = end + 1;
            if bytes[end] == b'\r' {
                match bytes.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_carriage_return = true,
                }
            }
            bytes = &bytes[next..];
        }
        self.partial_line.extend_from_slice(bytes);
        events
    }

    /// End of input: an unterminated last event is still delivered, since some servers close the
    /// connection right after the final `data:` line.
    pub(crate) fn finish(&mut self) -> Option<String> {
        if !self.partial_line.is_empty() {
            let line = String::from_utf8_lossy(&self.partial_line).into_owned();
            self.partial_line.clear();
            if let Some(data) = self.take_line(&line) {
                return Some(data);
            }
        }
        self.take_line("")
    }

    /// Handles one complete line; a blank line returns the finished event's data.
    fn take_line(&mut self, line: &str) -> Option<String> {
        if line.is_empty() {
            if self.data_lines.is_empty() {
                return None;
            }
            let data = self.data_lines.join("\n");
            self.data_lines.clear();
            return Some(data);
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        if field == "data" {
            self.data_lines.push(value.to_string());
        }
        None
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
