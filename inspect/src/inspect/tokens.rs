//! Exact o200k_base token counts, fast enough to count every item of a long rollout.
//!
//! tiktoken splits text into pieces with a regular expression and encodes each piece on its
//! own, so a count is the sum of per-piece counts. For ASCII text this module finds the pieces
//! with a hand-written scanner equivalent to the o200k pattern (tested against tiktoken) and
//! remembers the count of every short piece it has seen; only unseen pieces are byte-pair
//! encoded. Text with any non-ASCII character is counted by the tokenizer directly.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::hash::Hasher;
use std::ops::Range;

use codex_fragments::o200k_piece_token_count;
use codex_fragments::o200k_token_count;

/// Pieces longer than this are counted every time rather than remembered: long pieces are
/// mostly one-off runs (hashes, base64) that would only fill the memo.
const MEMO_MAX_PIECE_BYTES: usize = 32;

/// Upper bound on remembered pieces, so a rollout full of unique strings cannot grow the memo
/// without limit.
const MEMO_MAX_PIECES: usize = 1 << 20;

/// Counts o200k_base tokens the way tiktoken's `encode_ordinary` splits them (special-token
/// spellings count as ordinary text). One counter per inspection: it keeps a memo of piece
/// counts, so counting the same vocabulary again is cheap.
#[derive(Debug, Default)]
pub struct TokenCounter {
    measure: Measure,
    /// Counts of pieces up to [`PACKED_PIECE_BYTES`] long, keyed by their bytes packed into an
    /// integer (with the length, so that trailing zero bytes cannot collide).
    short: HashMap<u128, u32, BuildHasherDefault<PieceHasher>>,
    long: HashMap<Box<str>, u32, BuildHasherDefault<PieceHasher>>,
}

/// Pieces this short are memoised under an integer key: no allocation, no byte comparison.
const PACKED_PIECE_BYTES: usize = 15;

/// FNV-1a: pieces are a few bytes long, where SipHash's setup dominates. The memo only holds
/// text from the inspected rollout, so a collision-resistant hash buys nothing.
#[derive(Debug)]
struct PieceHasher(u64);

impl Default for PieceHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for PieceHasher {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u128(&mut self, key: u128) {
        // Two multiply-xor rounds mix a packed piece well enough for a hash table.
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let mixed = (folded ^ (folded >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = mixed ^ (mixed >> 29);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What a [`TokenCounter`] counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Measure {
    #[default]
    Tokens,
    /// Bytes, which bound tokens from above: every token covers at least one byte.
    Bytes,
}

impl TokenCounter {
    pub fn new() -> Self {
        Self::default()
    }

    /// A counter that answers the byte length, an upper bound of the token count that needs no
    /// vocabulary.
    pub fn bytes_upper_bound() -> Self {
        Self {
            measure: Measure::Bytes,
            ..Self::default()
        }
    }

    /// The number of o200k_base tokens in `text` (its bytes for [`Self::bytes_upper_bound`]).
    pub fn count(&mut self, text: &str) -> usize {
        if self.measure == Measure::Bytes {
            return text.len();
        }
        if !text.is_ascii() {
            return o200k_token_count(text);
        }
        let bytes = text.as_bytes();
        let mut total = 0;
        let mut start = 0;
        while start < bytes.len() {
            let end = ascii_piece_end(bytes, start);
            total += match end - start {
                // Every single byte is a token of its own in a byte-level vocabulary.
                1 => 1,
                len if len <= PACKED_PIECE_BYTES => {
                    self.short_piece_count(packed_piece(bytes, start, len), text, start..end)
                }
                _ => self.long_piece_count(text.get(start..end).unwrap_or_default()),
            };
            start = end;
        }
        total
    }

    /// The count of the piece at `range` of `text`, a short one whose [`packed_piece`] key is
    /// `key` (the piece itself is sliced only when it is not remembered).
    fn short_piece_count(&mut self, key: u128, text: &str, range: Range<usize>) -> usize {
        if let Some(count) = self.short.get(&key) {
            return *count as usize;
        }
        let count = o200k_piece_token_count(text.get(range).unwrap_or_default());
        if self.short.len() < MEMO_MAX_PIECES
            && let Ok(stored) = u32::try_from(count)
        {
            self.short.insert(key, stored);
        }
        count
    }

    fn long_piece_count(&mut self, piece: &str) -> usize {
        if let Some(count) = self.long.get(piece) {
            return *count as usize;
        }
        let count = o200k_piece_token_count(piece);
        if piece.len() <= MEMO_MAX_PIECE_BYTES
            && self.long.len() < MEMO_MAX_PIECES
            && let Ok(stored) = u32::try_from(count)
        {
            self.long.insert(piece.into(), stored);
        }
        count
    }
}

/// `bytes[start..start + len]` (`2 <= len <= PACKED_PIECE_BYTES`) packed into an integer: the
/// bytes in little-endian order, the length in the top byte.
fn packed_piece(bytes: &[u8], start: usize, len: usize) -> u128 {
    let word = match bytes.get(start..start + 16) {
        // Sixteen bytes read at once, the ones past the piece masked off below.
        Some(window) => {
            let mut whole = [0u8; 16];
            whole.copy_from_slice(window);
            u128::from_le_bytes(whole)
        }
        None => {
            let mut short = [0u8; 16];
            short[..len].copy_from_slice(&bytes[start..start + len]);
            u128::from_le_bytes(short)
        }
    };
    let mask = (1u128 << (8 * len)) - 1;
    (word & mask) | ((len as u128) << 120)
}

/// What an ASCII byte is to the o200k pattern, as bits of [`CLASSES`].
const UPPER: u8 = 1;
const LOWER: u8 = 2;
const DIGIT: u8 = 4;
/// `\s`: space, tab, line breaks, vertical tab, form feed.
const SPACE: u8 = 8;
const NEWLINE: u8 = 16;
/// Neither whitespace, letter nor digit: what `[^\s\p{L}\p{N}]` accepts among ASCII bytes.
const SYMBOL: u8 = 32;
const SLASH: u8 = 64;
const LETTER: u8 = UPPER | LOWER;

/// The class bits of every ASCII byte (one lookup instead of a chain of comparisons per byte).
const CLASSES: [u8; 128] = {
    let mut classes = [0u8; 128];
    let mut byte = 0;
    while byte < 128 {
        let b = byte as u8;
        classes[byte] = match b {
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'0'..=b'9' => DIGIT,
            b'\r' | b'\n' => SPACE | NEWLINE,
            b'\t' | 0x0B | 0x0C | b' ' => SPACE,
            b'/' => SYMBOL | SLASH,
            _ => SYMBOL,
        };
        byte += 1;
    }
    classes
};

/// The class bits of `byte` (an ASCII byte; others have none).
fn class(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(0)
}

/// End of the o200k piece that starts at `start` of ASCII `text` (`start < text.len()`).
///
/// The o200k pattern's alternatives, tried in order, restricted to ASCII (where every letter is
/// either upper or lower case and there are no marks):
/// 1. an optional non-letter, non-digit, non-newline byte, upper-case letters, lower-case
///    letters (at least one of the two runs), then an optional English contraction;
/// 2. one to three digits;
/// 3. an optional space, a run of symbols, then any `\r`, `\n` and `/`;
/// 4. whitespace up to the last line break of the run;
/// 5. a whitespace run, less its last character when a non-space follows (`\s+(?!\S)`), or a
///    single whitespace character.
fn ascii_piece_end(text: &[u8], start: usize) -> usize {
    let len = text.len();
    let first = class(text[start]);
    let letters_from = if first & (LETTER | DIGIT | NEWLINE) != 0 {
        start
    } else {
        start + 1
    };
    let letter = text.get(letters_from).map_or(0, |byte| class(*byte));
    if letter & LETTER != 0 {
        let lower_from = match letter & UPPER {
            0 => letters_from,
            _ => run_end(text, letters_from, b'A', b'Z'),
        };
        let end = run_end(text, lower_from, b'a', b'z');
        return end + contraction_len(&text[end..]);
    }
    if first & DIGIT != 0 {
        let mut end = start + 1;
        while end < len && end - start < 3 && class(text[end]) & DIGIT != 0 {
            end += 1;
        }
        return end;
    }
    let symbols_from = if text[start] == b' ' {
        start + 1
    } else {
        start
    };
    if symbols_from < len && class(text[symbols_from]) & SYMBOL != 0 {
        let mut end = symbols_from + 1;
        while end < len && class(text[end]) & SYMBOL != 0 {
            end += 1;
        }
        while end < len && class(text[end]) & (NEWLINE | SLASH) != 0 {
            end += 1;
        }
        return end;
    }
    let mut run_end = start;
    let mut last_line_break = None;
    while run_end < len && class(text[run_end]) & SPACE != 0 {
        if class(text[run_end]) & NEWLINE != 0 {
            last_line_break = Some(run_end);
        }
        run_end += 1;
    }
    match last_line_break {
        Some(line_break) => line_break + 1,
        None if run_end < len && run_end - start > 1 => run_end - 1,
        None => run_end.max(start + 1),
    }
}

/// The end of the run of bytes between `low` and `high` (inclusive) that starts at `at` of
/// ASCII `text`, found eight bytes at a time: a word's end is one step rather than one branch
/// per letter.
fn run_end(text: &[u8], mut at: usize, low: u8, high: u8) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH_BITS: u64 = ONES * 0x80;
    while let Some(chunk) = text.get(at..at + 8) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let word = u64::from_le_bytes(bytes);
        // For a byte below 0x80, adding `0x80 - low` sets its top bit exactly when it is at
        // least `low`, adding `0x7f - high` exactly when it is above `high`; neither carries
        // into the next byte.
        let at_least_low = word + ONES * u64::from(0x80 - low);
        let above_high = word + ONES * u64::from(0x7f - high);
        let outside = !(at_least_low & !above_high) & HIGH_BITS;
        if outside != 0 {
            return at + (outside.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < text.len() && (low..=high).contains(&text[at]) {
        at += 1;
    }
    at
}

/// Length of an English contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`, any case) at
/// the start of `rest`, else 0.
fn contraction_len(rest: &[u8]) -> usize {
    if rest.first() != Some(&b'\'') {
        return 0;
    }
    let lower = |index: usize| rest.get(index).map(u8::to_ascii_lowercase);
    match (lower(1), lower(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => 2,
        (Some(b'r'), Some(b'e')) | (Some(b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => 3,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;
    use crate::inspect::test_texts::random_texts;

    fn pieces(text: &str) -> Vec<&str> {
        let mut pieces = Vec::new();
        let mut start = 0;
        while start < text.len() {
            let end = ascii_piece_end(text.as_bytes(), start);
            pieces.push(&text[start..end]);
            start = end;
        }
        pieces
    }

    #[test]
    fn ascii_pieces_follow_the_o200k_pattern() {
        assert_eq!(
            pieces("Hello  world's 12345 !!\n\n  x\t/y HTTPServer"),
            vec![
                "Hello",
                " ",
                " world's",
                " ",
                "123",
                "45",
                " !!\n\n",
                " ",
                " x",
                "\t",
                "/y",
                " HTTPServer"
            ]
        );
    }

    #[test]
    fn letter_runs_longer_than_a_word_of_bytes_end_where_tiktoken_ends_them() {
        let mut counter = TokenCounter::new();
        for length in 1..40 {
            for (upper, after) in [(0, " "), (1, "'s"), (3, "9"), (12, "{"), (2, "")] {
                let text = format!(
                    "x{}{} tail",
                    "Q".repeat(upper),
                    "abcdefghijklmnopqrstuvwxyz".repeat(2)[..length].to_string() + after
                );
                assert_eq!(counter.count(&text), o200k_token_count(&text), "{text:?}");
            }
        }
    }

    #[test]
    fn every_text_is_counted_like_tiktoken() {
        let alphabet = "aZq \t\n\r\u{b}\u{c}09'sLlVeTmDR!?.,/-_(){}<>\"é—😀";
        let mut counter = TokenCounter::new();
        for text in random_texts(alphabet, 7, 4000, 48) {
            assert_eq!(counter.count(&text), o200k_token_count(&text), "{text:?}");
        }
    }
}
