//! This project's o200k tokenizer against tiktoken's: the same token count and the same token
//! boundaries for every text, ASCII or not.

use pretty_assertions::assert_eq;

use super::O200k;

/// Texts of the kinds rollouts hold, and the corners of the pattern.
fn samples() -> Vec<String> {
    let mut texts: Vec<String> = [
        "",
        "a",
        "Hello, world!",
        "I'm sure they'LL say it's fine; we've done what you'd expect.",
        "fn main() {\n    println!(\"{}\", 1 + 2);\n}\n",
        "{\"cmd\":\"ls -la src tests\",\"workdir\":\"/home/dev/project\",\"yield_time_ms\":1000}",
        "   leading spaces and trailing   \n\n\n\t\tindented\r\n\r\nwindows lines\r\n",
        "1234567890 3.14159 -42 0x1F 1e-9 2026-12-02T16:03:19Z",
        "camelCaseWord HTTPServer XMLHttpRequest snake_case_name kebab-case-name",
        "https://example.com/path/to/file.rs?query=1&x=2#frag",
        "<environment_context>\n  <cwd>/home/dev/project</cwd>\n</environment_context>",
        "日本語のテキストと English の混在。中文也可以！",
        "Emoji 😀🎉👍🏽 and flags 🇫🇷🇯🇵 and ZWJ 👩‍👩‍👧‍👦",
        "Accents: café naïve façade Ångström; combining: e\u{301} a\u{308}",
        "Ελληνικά κείμενα και Кириллица тоже",
        "tabs\tand\u{b}vertical\u{c}feeds and\u{a0}no-break\u{2003}em spaces",
        "////\\\\\\\\ ''' \"\"\" ``` ~~~ ... ,,, ;;; ::: !!! ???",
        "=====\n-----\n*****\n#####",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    texts.push("a".repeat(1000));
    texts.push("ab1 ".repeat(300));
    texts.push(" ".repeat(200) + "x");
    texts.push("\n".repeat(50) + "end");
    // Deterministic mixtures of every kind of character.
    let alphabet: Vec<char> = "aZ9 _-.\n\t'sé日😀\u{301}\r/{}\"\\,:;xyzQRS0123"
        .chars()
        .collect();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for length in [5, 17, 64, 257, 1024] {
        for _ in 0..20 {
            let text: String = (0..length)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            texts.push(text);
        }
    }
    texts
}

fn tiktoken() -> tiktoken_rs::CoreBPE {
    tiktoken_rs::o200k_base().expect("tiktoken's o200k")
}

fn ours() -> O200k {
    O200k::load().expect("the vocabulary table loads")
}

#[test]
fn token_counts_equal_tiktokens() {
    let reference = tiktoken();
    let ours = ours();
    for text in samples() {
        assert_eq!(
            ours.count(&text),
            reference.encode_ordinary(&text).len(),
            "{text:?}"
        );
    }
}

#[test]
fn a_piece_counts_as_tiktoken_encodes_it() {
    let reference = tiktoken();
    let ours = ours();
    for piece in [
        "Hello",
        " world",
        "123",
        " {\"",
        "\n\n",
        "   ",
        "'ll",
        "indivisibility",
        " antidisestablishmentarianism",
        "ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
    ] {
        assert_eq!(
            ours.piece_count(piece.as_bytes()),
            reference.encode_ordinary(piece).len(),
            "{piece:?}"
        );
    }
}

#[test]
fn text_cut_to_tokens_ends_where_tiktokens_tokens_end() {
    let reference = tiktoken();
    let ours = ours();
    for text in samples() {
        let mut expected = vec![0];
        let mut end = 0;
        for token in reference.encode_ordinary(&text) {
            end += reference.decode_bytes(&[token]).expect("decode").len();
            expected.push(end);
        }
        assert_eq!(ours.boundaries(&text), expected, "{text:?}");
    }
}
