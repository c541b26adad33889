//! The o200k_base tokenizer, as far as this project needs it: counting tokens and finding where
//! they end, exactly as tiktoken's `encode_ordinary` would split the text.
//!
//! Text is cut into pieces with o200k's regular expression and each piece is byte-pair
//! encoded on its own: a piece that is a token is one token; otherwise, starting from single
//! bytes, the adjacent pair whose joined bytes have the lowest rank is joined, leftmost first,
//! until no adjacent pair is a token. The vocabulary is the build script's table of token
//! bytes in rank order, so loading it only indexes bytes the binary already holds.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::hash::Hasher;

use fancy_regex::Regex;

/// Every regular token's bytes in rank order, each after its length in one byte (`build.rs`).
static VOCABULARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_vocabulary.bin"));

/// o200k_base's regular tokens.
const REGULAR_TOKENS: usize = 199_998;

/// A rank no token has: the pair it stands for cannot be joined.
const NO_RANK: u32 = u32::MAX;

/// The loaded tokenizer.
pub(crate) struct O200k {
    ranks: HashMap<&'static [u8], u32, BuildHasherDefault<BytesHasher>>,
    pieces: Regex,
}

/// Why the tokenizer could not be loaded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum O200kError {
    #[error("the o200k vocabulary table is damaged at byte {0}")]
    Vocabulary(usize),
    #[error("the o200k pattern does not compile: {0}")]
    Pattern(#[from] Box<fancy_regex::Error>),
}

/// FNV-1a over the token bytes: keys are short, and come from the vocabulary or the text being
/// counted, never from an adversary who could aim at collisions that matter.
#[derive(Debug)]
pub(crate) struct BytesHasher(u64);

impl Default for BytesHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for BytesHasher {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl O200k {
    pub fn load() -> Result<Self, O200kError> {
        let mut ranks = HashMap::with_capacity_and_hasher(REGULAR_TOKENS, Default::default());
        let mut at = 0;
        while at < VOCABULARY.len() {
            let length = usize::from(VOCABULARY[at]);
            let token = VOCABULARY
                .get(at + 1..at + 1 + length)
                .filter(|token| !token.is_empty())
                .ok_or(O200kError::Vocabulary(at))?;
            let rank = u32::try_from(ranks.len()).map_err(|_| O200kError::Vocabulary(at))?;
            ranks.insert(token, rank);
            at += 1 + length;
        }
        if ranks.len() != REGULAR_TOKENS {
            return Err(O200kError::Vocabulary(at));
        }
        let pieces = Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).map_err(Box::new)?;
        Ok(Self { ranks, pieces })
    }

    /// Tokens in `text`.
    pub fn count(&self, text: &str) -> usize {
        let mut total = 0;
        self.each_piece(text, |piece| total += self.piece_count(piece.as_bytes()));
        total
    }

    /// Byte offsets at which the tokens of `text` end, starting with 0.
    pub fn boundaries(&self, text: &str) -> Vec<usize> {
        let mut boundaries = vec![0];
        let mut offset = 0;
        self.each_piece(text, |piece| {
            let ends = self.merge(piece.as_bytes());
            boundaries.extend(ends.iter().skip(1).map(|end| offset + end));
            offset += piece.len();
        });
        boundaries
    }

    /// Calls `visit` with each piece of `text` in order; the pieces cover the whole text.
    fn each_piece<'t>(&self, text: &'t str, mut visit: impl FnMut(&'t str)) {
        let mut covered = 0;
        for found in self.pieces.find_iter(text) {
            match found {
                Ok(piece) => {
                    // The pattern matches every character, so nothing lies between pieces.
                    if piece.start() > covered {
                        visit(&text[covered..piece.start()]);
                    }
                    visit(piece.as_str());
                    covered = piece.end();
                }
                Err(error) => {
                    // Only a runaway backtrack fails; what is left is counted as one piece.
                    tracing::debug!("the o200k pattern gave up on a text: {error}");
                    break;
                }
            }
        }
        if covered < text.len() {
            visit(&text[covered..]);
        }
    }

    /// Tokens in one piece of text as the pattern cuts it.
    pub fn piece_count(&self, piece: &[u8]) -> usize {
        match piece.len() {
            0 => 0,
            1 => 1,
            _ if self.ranks.contains_key(piece) => 1,
            _ => self.merge(piece).len() - 1,
        }
    }

    /// Where the tokens of `piece` start, and its length last.
    fn merge(&self, piece: &[u8]) -> Vec<usize> {
        if piece.len() < 2 || self.ranks.contains_key(piece) {
            return vec![0, piece.len()];
        }
        let rank = |bytes: &[u8]| self.ranks.get(bytes).copied().unwrap_or(NO_RANK);
        // (start of a token, rank of that token joined with the next one)
        let mut tokens: Vec<(usize, u32)> = (0..=piece.len()).map(|at| (at, NO_RANK)).collect();
        for at in 0..piece.len() - 1 {
            tokens[at].1 = rank(&piece[at..at + 2]);
        }
        loop {
            let mut lowest = (NO_RANK, 0);
            for (position, &(_, joined)) in tokens.iter().enumerate() {
                if joined < lowest.0 {
                    lowest = (joined, position);
                }
            }
            if lowest.0 == NO_RANK {
                break;
            }
            let position = lowest.1;
            tokens.remove(position + 1);
            // The joined token's rank with its neighbours on either side.
            let joined_with_next =
                |tokens: &[(usize, u32)], position: usize| match tokens.get(position + 2) {
                    Some(&(end, _)) => rank(&piece[tokens[position].0..end]),
                    None => NO_RANK,
                };
            tokens[position].1 = joined_with_next(&tokens, position);
            if position > 0 {
                tokens[position - 1].1 = joined_with_next(&tokens, position - 1);
            }
        }
        tokens.into_iter().map(|(start, _)| start).collect()
    }
}

#[cfg(test)]
#[path = "o200k_tests.rs"]
mod tests;
