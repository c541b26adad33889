//! Token counts of fixed texts equal tiktoken's o200k_base counts. The values were computed with
//! tiktoken's own encoder; the short ones are easy to check by hand (`Hello`, `,`, ` world`,
//! `!`; digits split in groups of at most three, each group after its own space piece). The
//! request statistics of a Responses Lite body count its spliced base instructions as tiktoken
//! does.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../core/tests/first_turn_support/mod.rs"]
mod first_turn_support;

use codex_core::FirstTurnOptions;
use codex_fragments::o200k_token_count;
use codex_inspect::TokenCounter;
use codex_inspect::request_stats;
use first_turn_support::first_turn;
use first_turn_support::load_config;
use first_turn_support::pinned_flags;
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

/// Outgoing Lite bodies carry no content kinds, yet `--stats` must still count the developer
/// message that replaces `instructions` as base instructions, not as developer context.
#[test]
fn lite_stats_count_the_spliced_message_as_base_instructions() {
    let config = load_config(&pinned_flags(), None);
    let (turn, first) = first_turn(
        &config,
        None,
        |_| {},
        FirstTurnOptions {
            user_message: Some("hello"),
            ..FirstTurnOptions::default()
        },
    );
    assert!(turn.model.use_responses_lite);
    let body = &first.request;
    let spliced = serde_json::to_value(&body.input[1]).expect("input item serialises");
    let text = spliced["content"][0]["text"]
        .as_str()
        .expect("one input_text");
    let expected = tiktoken_rs::o200k_base()
        .expect("o200k vocabulary")
        .encode_ordinary(text)
        .len();
    let stats = request_stats(std::slice::from_ref(body));
    assert_eq!(stats.totals.base_instructions, expected);
    assert!(expected > 0);
}
