//! Bytes of JSON, measured without writing it.

use std::io;

use serde::Serialize;

/// Bytes of `value`'s JSON, without building the string.
pub(super) fn serialized_len(value: &impl Serialize) -> usize {
    struct Counting(usize);
    impl io::Write for Counting {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut counting = Counting(0);
    match serde_json::to_writer(&mut counting, value) {
        Ok(()) => counting.0,
        Err(error) => {
            tracing::warn!("an input item cannot be serialized to measure it: {error}");
            0
        }
    }
}

/// Bytes of `text` as a JSON string, quotes included, escaped as `serde_json` escapes it: a
/// quote, a backslash and the control characters with a short escape take two bytes, the other
/// control characters six.
pub(super) fn json_string_len(text: &str) -> usize {
    text.len()
        + 2
        + text
            .bytes()
            .map(|byte| usize::from(ESCAPE_EXTRA[usize::from(byte)]))
            .sum::<usize>()
}

/// Bytes an escape adds to each byte in a JSON string (a table: the sum over a text is then a
/// loop the compiler unrolls).
const ESCAPE_EXTRA: [u8; 256] = {
    let mut extra = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        extra[byte] = 5;
        byte += 1;
    }
    let mut short = 0;
    let shorts = [b'"', b'\\', 0x08, b'\t', b'\n', 0x0C, b'\r'];
    while short < shorts.len() {
        extra[shorts[short] as usize] = 1;
        short += 1;
    }
    extra
};

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;
    use crate::inspect::test_texts::random_texts;

    #[test]
    fn string_lengths_are_those_of_serde_json() {
        let alphabet = "ab \"\\/\t\n\r\u{8}\u{c}\u{0}\u{1}\u{1f}\u{7f}é😀";
        for text in random_texts(alphabet, 11, 3000, 40) {
            assert_eq!(json_string_len(&text), serialized_len(&text), "{text:?}");
        }
    }
}
