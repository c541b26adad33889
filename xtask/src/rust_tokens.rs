//! A small Rust tokenizer: just enough to find `include_str!` calls and the macro invocations
//! that feed them, without being fooled by comments or string contents.
//!
//! It never fails: text it does not understand becomes [`TokenKind::Other`] tokens, and an
//! unterminated literal or comment simply runs to the end of the file.

/// One token with the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    Ident(String),
    /// A plain or raw string literal, escapes decoded.
    Str(String),
    /// A single punctuation character, or `=>` / `::`.
    Punct(String),
    Open(char),
    Close(char),
    /// Numbers, char and byte literals, byte/C strings, lifetimes.
    Other,
}

impl Token {
    pub fn is_ident(&self, name: &str) -> bool {
        matches!(&self.kind, TokenKind::Ident(ident) if ident == name)
    }

    pub fn is_punct(&self, punct: &str) -> bool {
        matches!(&self.kind, TokenKind::Punct(text) if text == punct)
    }

    pub fn str_value(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Str(value) => Some(value),
            TokenKind::Ident(_)
            | TokenKind::Punct(_)
            | TokenKind::Open(_)
            | TokenKind::Close(_)
            | TokenKind::Other => None,
        }
    }
}

/// A tokenized file plus, for every opening delimiter, the index of its closing one.
#[derive(Debug, Clone)]
pub struct TokenStream {
    pub tokens: Vec<Token>,
    closing: Vec<Option<usize>>,
}

impl TokenStream {
    pub fn new(source: &str) -> Self {
        let tokens = Lexer::new(source).run();
        let mut closing = vec![None; tokens.len()];
        let mut open_stack: Vec<usize> = Vec::new();
        for (index, token) in tokens.iter().enumerate() {
            match token.kind {
                TokenKind::Open(_) => open_stack.push(index),
                TokenKind::Close(_) => {
                    if let Some(open) = open_stack.pop() {
                        closing[open] = Some(index);
                    }
                }
                TokenKind::Ident(_)
                | TokenKind::Str(_)
                | TokenKind::Punct(_)
                | TokenKind::Other => {}
            }
        }
        Self { tokens, closing }
    }

    /// The index of the delimiter closing the one at `open` (None when `open` is not an opening
    /// delimiter or is never closed).
    pub fn closing(&self, open: usize) -> Option<usize> {
        self.closing.get(open).copied().flatten()
    }

    pub fn get(&self, index: usize) -> Option<&Token> {
        self.tokens.get(index)
    }
}

struct Lexer {
    chars: Vec<char>,
    position: usize,
    line: usize,
    tokens: Vec<Token>,
}

impl Lexer {
    fn new(source: &str) -> Self {
        Self {
            chars: source.chars().collect(),
            position: 0,
            line: 1,
            tokens: Vec::new(),
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.position + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.position += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn push(&mut self, kind: TokenKind, line: usize) {
        self.tokens.push(Token { kind, line });
    }

    fn run(mut self) -> Vec<Token> {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            if c.is_whitespace() {
                self.bump();
            } else if c == '/' && self.peek(1) == Some('/') {
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c == '/' && self.peek(1) == Some('*') {
                self.block_comment();
            } else if c == '"' {
                self.bump();
                let value = self.quoted_string();
                self.push(TokenKind::Str(value), line);
            } else if let Some(prefix_len) = self.raw_string_prefix() {
                let is_plain = self.peek(0) == Some('r');
                for _ in 0..prefix_len {
                    self.bump();
                }
                let value = self.raw_string();
                let kind = if is_plain {
                    TokenKind::Str(value)
                } else {
                    TokenKind::Other
                };
                self.push(kind, line);
            } else if (c == 'b' || c == 'c') && self.peek(1) == Some('"') {
                self.bump();
                self.bump();
                self.quoted_string();
                self.push(TokenKind::Other, line);
            } else if c == 'b' && self.peek(1) == Some('\'') {
                self.bump();
                self.quote();
            } else if c == '\'' {
                self.quote();
            } else if c == 'r'
                && self.peek(1) == Some('#')
                && self.peek(2).is_some_and(is_ident_start)
            {
                self.bump();
                self.bump();
                let ident = self.ident();
                self.push(TokenKind::Ident(ident), line);
            } else if is_ident_start(c) {
                let ident = self.ident();
                self.push(TokenKind::Ident(ident), line);
            } else if c.is_ascii_digit() {
                while self
                    .peek(0)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    || (self.peek(0) == Some('.')
                        && self.peek(1).is_some_and(|c| c.is_ascii_digit()))
                {
                    self.bump();
                }
                self.push(TokenKind::Other, line);
            } else {
                self.bump();
                let kind = match c {
                    '(' | '[' | '{' => TokenKind::Open(c),
                    ')' | ']' | '}' => TokenKind::Close(c),
                    '=' if self.peek(0) == Some('>') => {
                        self.bump();
                        TokenKind::Punct("=>".to_string())
                    }
                    ':' if self.peek(0) == Some(':') => {
                        self.bump();
                        TokenKind::Punct("::".to_string())
                    }
                    other => TokenKind::Punct(other.to_string()),
                };
                self.push(kind, line);
            }
        }
        self.tokens
    }

    fn block_comment(&mut self) {
        self.bump();
        self.bump();
        let mut depth = 1usize;
        while depth > 0 {
            match (self.peek(0), self.peek(1)) {
                (None, _) => return,
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    depth += 1;
                }
                (Some('*'), Some('/')) => {
                    self.bump();
                    self.bump();
                    depth -= 1;
                }
                (Some(_), _) => {
                    self.bump();
                }
            }
        }
    }

    /// Length of a raw string prefix (`r"`, `r#"`, `br##"`, `cr"` …) up to and including the
    /// hashes but not the quote, when one starts here.
    fn raw_string_prefix(&self) -> Option<usize> {
        let letters = match (self.peek(0), self.peek(1)) {
            (Some('r'), _) => 1,
            (Some('b' | 'c'), Some('r')) => 2,
            _ => return None,
        };
        let mut length = letters;
        while self.peek(length) == Some('#') {
            length += 1;
        }
        (self.peek(length) == Some('"')).then_some(length)
    }

    /// Reads `"…"#…` after a raw prefix; the hashes were counted by [`Self::raw_string_prefix`]
    /// and are re-counted here from the text just consumed.
    fn raw_string(&mut self) -> String {
        let mut hashes = 0usize;
        while self.position > hashes && self.chars[self.position - 1 - hashes] == '#' {
            hashes += 1;
        }
        self.bump();
        let mut value = String::new();
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|offset| self.peek(offset) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                return value;
            }
            value.push(c);
        }
        value
    }

    /// Reads the rest of a `"…"` literal (opening quote consumed), decoding escapes.
    fn quoted_string(&mut self) -> String {
        let mut value = String::new();
        while let Some(c) = self.bump() {
            match c {
                '"' => return value,
                '\\' => self.escape(&mut value),
                other => value.push(other),
            }
        }
        value
    }

    fn escape(&mut self, value: &mut String) {
        match self.bump() {
            Some('n') => value.push('\n'),
            Some('t') => value.push('\t'),
            Some('r') => value.push('\r'),
            Some('0') => value.push('\0'),
            Some('x') => {
                let digits: String = [self.bump(), self.bump()].into_iter().flatten().collect();
                if let Some(c) = u32::from_str_radix(&digits, 16)
                    .ok()
                    .and_then(char::from_u32)
                {
                    value.push(c);
                }
            }
            Some('u') => {
                let mut digits = String::new();
                while let Some(c) = self.bump() {
                    match c {
                        '{' => {}
                        '}' => break,
                        other => digits.push(other),
                    }
                }
                if let Some(c) = u32::from_str_radix(&digits, 16)
                    .ok()
                    .and_then(char::from_u32)
                {
                    value.push(c);
                }
            }
            Some('\n') => {
                while self.peek(0).is_some_and(char::is_whitespace) {
                    self.bump();
                }
            }
            Some(other) => value.push(other),
            None => {}
        }
    }

    /// A char literal (`'a'`, `'\n'`) or a lifetime / label (`'a`), starting at the quote.
    fn quote(&mut self) {
        let line = self.line;
        self.bump();
        if self.peek(0) == Some('\\') {
            while let Some(c) = self.bump() {
                if c == '\\' {
                    self.bump();
                } else if c == '\'' {
                    break;
                }
            }
        } else if self.peek(1) == Some('\'') {
            self.bump();
            self.bump();
        } else {
            while self.peek(0).is_some_and(is_ident_continue) {
                self.bump();
            }
        }
        self.push(TokenKind::Other, line);
    }

    fn ident(&mut self) -> String {
        let mut ident = String::new();
        while let Some(c) = self.peek(0).filter(|c| is_ident_continue(*c)) {
            ident.push(c);
            self.bump();
        }
        ident
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

#[cfg(test)]
#[path = "rust_tokens_tests.rs"]
mod tests;
