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
/// control characters six. Eight bytes that need no escape are passed over at once.
pub(super) fn json_string_len(text: &str) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH_BITS: u64 = ONES * 0x80;
    let bytes = text.as_bytes();
    let mut len = bytes.len() + 2;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        // Top bits set in some byte when a byte is below 0x20, a quote or a backslash (possibly
        // also in bytes after it, which the exact count below sorts out); never all clear then.
        let below = |limit: u64| word.wrapping_sub(ONES * limit) & !word;
        let zero_in = |masked: u64| masked.wrapping_sub(ONES) & !masked;
        let below_space = below(0x20);
        let quote = zero_in(word ^ (ONES * u64::from(b'"')));
        let backslash = zero_in(word ^ (ONES * u64::from(b'\\')));
        if (below_space | quote | backslash) & HIGH_BITS != 0 {
            len += chunk.iter().map(|byte| escape_extra(*byte)).sum::<usize>();
        }
    }
    len + chunks
        .remainder()
        .iter()
        .map(|byte| escape_extra(*byte))
        .sum::<usize>()
}

/// Bytes an escape adds to `byte` in a JSON string.
fn escape_extra(byte: u8) -> usize {
    match byte {
        b'"' | b'\\' | 0x08 | b'\t' | b'\n' | 0x0C | b'\r' => 1,
        0x00..=0x1F => 5,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn string_lengths_are_those_of_serde_json() {
        let alphabet: Vec<char> = "ab \"\\/\t\n\r\u{8}\u{c}\u{0}\u{1}\u{1f}\u{7f}é😀"
            .chars()
            .collect();
        let mut state: u64 = 11;
        for length in 0..3000 {
            let text: String = (0..length % 40)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(state >> 33) as usize % alphabet.len()]
                })
                .collect();
            assert_eq!(json_string_len(&text), serialized_len(&text), "{text:?}");
        }
    }
}
