//! Appending report text without the formatting machinery: a text report holds hundreds of
//! thousands of numbers and previews, and going through `fmt` for each cost more than the
//! appending.

use std::fmt::Write as _;

use Piece::Number;
use Piece::Text;

/// Digits of the largest `usize`.
pub(super) const MAX_DIGITS: usize = 20;

/// A piece of a line [`push_pieces`] appends.
pub(super) enum Piece<'a> {
    Text(&'a str),
    Number(usize),
}

/// Appends `pieces` (numbers in decimal, as `{}` writes them): a report holds hundreds of
/// thousands of numbers, and going through the formatting machinery for each cost more than
/// the appending.
pub(super) fn push_pieces(out: &mut String, pieces: &[Piece<'_>]) {
    for piece in pieces {
        match piece {
            Text(text) => out.push_str(text),
            Number(number) => {
                let mut digits = [0u8; MAX_DIGITS];
                out.push_str(decimal(*number, &mut digits));
            }
        }
    }
}

/// `number` in decimal, written at the end of `buffer`.
pub(super) fn decimal(number: usize, buffer: &mut [u8; MAX_DIGITS]) -> &str {
    let mut start = buffer.len();
    let mut rest = number;
    loop {
        start -= 1;
        buffer[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    std::str::from_utf8(&buffer[start..]).unwrap_or_default()
}

/// `names`, comma-separated.
pub(super) fn push_names(out: &mut String, names: &[String]) {
    for (position, name) in names.iter().enumerate() {
        if position > 0 {
            out.push_str(", ");
        }
        out.push_str(name);
    }
}

/// `text` as `{:?}` writes it. Printable ASCII without a quote or a backslash and the ellipsis
/// of a cut preview, which previews mostly are, are written as they are between quotes,
/// without the general escaping.
pub(super) fn push_debug_str(out: &mut String, text: &str) {
    if text.chars().all(|char| {
        (char.is_ascii_graphic() || char == ' ') && char != '"' && char != '\\' || char == '…'
    }) {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        let _ = write!(out, "{text:?}");
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn debug_strings_and_numbers_read_as_fmt_writes_them() {
        let texts = [
            "plain words, 12 of them…",
            "a \"quote\" and a \\ backslash",
            "tab\there",
            "é, 😀 and e\u{301}",
            "\u{301} leading mark",
            "control \u{7} bell",
            "",
        ];
        for text in texts {
            let mut out = String::new();
            push_debug_str(&mut out, text);
            assert_eq!(out, format!("{text:?}"));
        }
        for number in [0, 7, 10, 99, 1_000_000, usize::MAX] {
            let mut out = String::new();
            push_pieces(&mut out, &[Text("n="), Number(number)]);
            assert_eq!(out, format!("n={number}"));
        }
    }
}
