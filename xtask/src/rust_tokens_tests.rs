use pretty_assertions::assert_eq;

use super::*;

fn kinds(source: &str) -> Vec<TokenKind> {
    TokenStream::new(source)
        .tokens
        .into_iter()
        .map(|token| token.kind)
        .collect()
}

fn ident(name: &str) -> TokenKind {
    TokenKind::Ident(name.to_string())
}

fn punct(text: &str) -> TokenKind {
    TokenKind::Punct(text.to_string())
}

#[test]
fn comments_are_skipped_and_nested_block_comments_close_properly() {
    assert_eq!(
        kinds("// include_str!(\"a\")\n/* outer /* inner */ still comment */ x /** doc */ y"),
        vec![ident("x"), ident("y")]
    );
}

#[test]
fn string_literals_are_decoded_and_hide_their_contents() {
    assert_eq!(
        kinds(r###"a "include_str!(\"b\")\n\x41\u{42}" r#"raw "quoted" text"# r"plain raw""###),
        vec![
            ident("a"),
            TokenKind::Str("include_str!(\"b\")\nAB".to_string()),
            TokenKind::Str("raw \"quoted\" text".to_string()),
            TokenKind::Str("plain raw".to_string()),
        ]
    );
}

#[test]
fn byte_and_c_strings_chars_and_lifetimes_are_opaque() {
    assert_eq!(
        kinds(r#"b"x" br"y" c"z" '"' '\'' 'a' b'q' <'life> r#type 1.5 2..3"#),
        vec![
            TokenKind::Other,
            TokenKind::Other,
            TokenKind::Other,
            TokenKind::Other,
            TokenKind::Other,
            TokenKind::Other,
            TokenKind::Other,
            punct("<"),
            TokenKind::Other,
            punct(">"),
            ident("type"),
            TokenKind::Other,
            TokenKind::Other,
            punct("."),
            punct("."),
            TokenKind::Other,
        ]
    );
}

#[test]
fn delimiters_are_matched_and_multi_character_punctuation_is_one_token() {
    let stream = TokenStream::new("m!{ A => \"x\" [ $p::q ] }");
    assert_eq!(
        stream
            .tokens
            .iter()
            .map(|token| token.kind.clone())
            .collect::<Vec<_>>(),
        vec![
            ident("m"),
            punct("!"),
            TokenKind::Open('{'),
            ident("A"),
            punct("=>"),
            TokenKind::Str("x".to_string()),
            TokenKind::Open('['),
            punct("$"),
            ident("p"),
            punct("::"),
            ident("q"),
            TokenKind::Close(']'),
            TokenKind::Close('}'),
        ]
    );
    assert_eq!(stream.closing(2), Some(12));
    assert_eq!(stream.closing(6), Some(11));
    assert_eq!(stream.closing(0), None);
}

#[test]
fn lines_are_counted_through_comments_and_multi_line_strings() {
    let stream = TokenStream::new("a\n/* one\ntwo */ \"x\ny\" b\n\nc");
    assert_eq!(
        stream
            .tokens
            .iter()
            .map(|token| token.line)
            .collect::<Vec<_>>(),
        vec![1, 3, 4, 6]
    );
}

#[test]
fn unterminated_input_never_panics() {
    for source in [
        "\"open", "/* open", "r#\"open", "'", "b'", "r#", "\\", "'\\",
    ] {
        let _ = TokenStream::new(source);
    }
}
