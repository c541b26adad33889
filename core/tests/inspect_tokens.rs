//! Token counts of fixed texts equal tiktoken's o200k_base counts. The values were computed with
//! tiktoken's own encoder; the short ones are easy to check by hand (`Hello`, `,`, ` world`,
//! `!`; digits split in groups of at most three, each group after its own space piece).

use codex_core::inspect::TokenCounter;
use codex_fragments::o200k_token_count;
use pretty_assertions::assert_eq;

const FIXED: &[(&str, usize)] = &[
    ("", 0),
    ("hello world", 2),
    ("Hello, world!", 4),
    ("tiktoken is great!", 6),
    ("I'm sure they'll say it's 12345 or 1,000,000.", 16),
    ("fn main() {\n    println!(\"hi\");\n}\n", 10),
    ("  indented\n\n\ttabs   and   spaces  ", 11),
    (
        "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        16,
    ),
    // Special-token spellings count as ordinary text.
    ("<|endoftext|>", 7),
    ("日本語のテキストと emoji 😀 — dashes", 12),
];

#[test]
fn fixed_texts_have_their_o200k_counts() {
    let mut counter = TokenCounter::new();
    let counted: Vec<(&str, usize)> = FIXED
        .iter()
        .map(|(text, _)| (*text, counter.count(text)))
        .collect();
    assert_eq!(counted, FIXED.to_vec());
    // A second pass answers from the memo and must not drift.
    let again: Vec<(&str, usize)> = FIXED
        .iter()
        .map(|(text, _)| (*text, counter.count(text)))
        .collect();
    assert_eq!(again, FIXED.to_vec());
}

#[test]
fn the_counter_agrees_with_the_tokenizer_on_long_mixed_text() {
    let text = "Run `cargo test -p codex-core` before committing.\n\n".repeat(40)
        + "    let x = vec![1, 2, 3];   // trailing   spaces   \n\r\n\t\tdone'S 'LL 'Re\n";
    assert_eq!(TokenCounter::new().count(&text), o200k_token_count(&text));
}
