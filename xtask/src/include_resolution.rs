//! Turns one `include_str!` call into the file paths it embeds (see the shapes listed in
//! [`crate::includes`]).

use std::path::Path;
use std::path::PathBuf;

use crate::includes::Include;
use crate::includes::Label;
use crate::includes::SourceSite;
use crate::includes::UnresolvedInclude;
use crate::includes::normalize;
use crate::rust_tokens::Token;
use crate::rust_tokens::TokenKind;
use crate::rust_tokens::TokenStream;

/// One piece of a `concat!` argument.
enum Part {
    Text(String),
    MacroParameter(String),
}

/// How a macro parameter is found in the macro's invocations.
enum Anchor {
    /// The parameter opens the matcher: the invocation's first token.
    Start,
    /// The literal right after this token.
    After(TokenKind),
}

pub(crate) struct FileContext<'a> {
    pub root: &'a Path,
    pub manifest_dir: PathBuf,
    pub file: &'a Path,
    pub file_index: usize,
    pub stream: &'a TokenStream,
}

impl FileContext<'_> {
    fn site(&self, index: usize) -> SourceSite {
        SourceSite {
            file: self.file.to_path_buf(),
            line: self.stream.get(index).map_or(0, |token| token.line),
        }
    }

    fn label_at(&self, token_index: usize) -> Option<Label> {
        match self.stream.get(token_index) {
            Some(Token {
                kind: TokenKind::Ident(name),
                ..
            }) => Some(Label {
                name: name.clone(),
                file_index: self.file_index,
                token_index,
            }),
            Some(_) | None => None,
        }
    }

    /// `const NAME` / `static NAME` in the statement that ends at `index`.
    fn item_label_before(&self, index: usize) -> Option<Label> {
        let mut cursor = index;
        while cursor > 0 && index - cursor < 16 {
            cursor -= 1;
            let token = self.stream.get(cursor)?;
            if token.is_punct(";")
                || matches!(token.kind, TokenKind::Open('{') | TokenKind::Close(_))
            {
                return None;
            }
            if token.is_ident("const") || token.is_ident("static") {
                let name_index = match self.stream.get(cursor + 1) {
                    Some(next) if next.is_ident("mut") => cursor + 2,
                    Some(_) | None => cursor + 1,
                };
                return self.label_at(name_index);
            }
        }
        None
    }

    fn path_of(&self, text: &str) -> PathBuf {
        let directory = self.file.parent().unwrap_or(Path::new(""));
        let absolute = normalize(&self.root.join(directory).join(text));
        absolute
            .strip_prefix(self.root)
            .map(Path::to_path_buf)
            .unwrap_or(absolute)
    }

    /// Resolves the `include_str!` whose name token is at `index`.
    pub fn resolve(
        &self,
        index: usize,
        includes: &mut Vec<Include>,
        unresolved: &mut Vec<UnresolvedInclude>,
    ) {
        let open = index + 2;
        let Some(close) = self.stream.closing(open) else {
            return;
        };
        let parts = match self.argument_parts(open + 1, close) {
            Ok(Some(parts)) => parts,
            Ok(None) => return,
            Err(reason) => {
                unresolved.push(UnresolvedInclude {
                    site: self.site(index),
                    reason,
                });
                return;
            }
        };
        let parameters: Vec<&str> = parts
            .iter()
            .filter_map(|part| match part {
                Part::MacroParameter(name) => Some(name.as_str()),
                Part::Text(_) => None,
            })
            .collect();
        // (token holding the path's site, value of the macro parameter, label) per path.
        let bindings = match parameters.as_slice() {
            [] => vec![(index, String::new(), self.item_label_before(index))],
            [parameter] => match self.macro_bindings(index, parameter) {
                Ok(bindings) => bindings,
                Err(reason) => {
                    unresolved.push(UnresolvedInclude {
                        site: self.site(index),
                        reason,
                    });
                    return;
                }
            },
            [_, _, ..] => {
                unresolved.push(UnresolvedInclude {
                    site: self.site(index),
                    reason: "the path is built from more than one macro parameter".to_string(),
                });
                return;
            }
        };
        for (site_index, value, label) in bindings {
            let text: String = parts
                .iter()
                .map(|part| match part {
                    Part::Text(text) => text.as_str(),
                    Part::MacroParameter(_) => value.as_str(),
                })
                .collect();
            includes.push(Include {
                site: self.site(site_index),
                path: self.path_of(&text),
                label,
            });
        }
    }

    /// The pieces of the argument between `start` and `end` (exclusive); `Ok(None)` for a file
    /// generated into `OUT_DIR`, which cannot be a template.
    fn argument_parts(&self, start: usize, end: usize) -> Result<Option<Vec<Part>>, String> {
        let tokens = &self.stream.tokens[start..end];
        let tokens = match tokens.split_last() {
            Some((last, rest)) if last.is_punct(",") => rest,
            Some(_) | None => tokens,
        };
        if let [single] = tokens
            && let Some(text) = single.str_value()
        {
            return Ok(Some(vec![Part::Text(text.to_string())]));
        }
        let is_concat = tokens.len() >= 3
            && tokens[0].is_ident("concat")
            && tokens[1].is_punct("!")
            && matches!(tokens[2].kind, TokenKind::Open(_));
        if !is_concat {
            return Err("the argument is neither a string literal nor concat!(…)".to_string());
        }
        let concat_open = start + 2;
        let concat_close = self
            .stream
            .closing(concat_open)
            .ok_or_else(|| "unclosed concat!".to_string())?;
        let mut parts = Vec::new();
        let arguments = &self.stream.tokens[concat_open + 1..concat_close];
        for argument in split_top_level_commas(arguments) {
            match argument {
                [] => {}
                [literal] => match literal.str_value() {
                    Some(text) => parts.push(Part::Text(text.to_string())),
                    None => return Err("concat! has an argument that is not a literal".to_string()),
                },
                [dollar, name] if dollar.is_punct("$") => match &name.kind {
                    TokenKind::Ident(name) => parts.push(Part::MacroParameter(name.clone())),
                    TokenKind::Str(_)
                    | TokenKind::Punct(_)
                    | TokenKind::Open(_)
                    | TokenKind::Close(_)
                    | TokenKind::Other => {
                        return Err("unexpected `$` in concat!".to_string());
                    }
                },
                [env, bang, _, variable, ..] if env.is_ident("env") && bang.is_punct("!") => {
                    match variable.str_value() {
                        Some("CARGO_MANIFEST_DIR") => {
                            parts.push(Part::Text(self.manifest_dir.to_string_lossy().into_owned()))
                        }
                        Some("OUT_DIR") => return Ok(None),
                        Some(_) | None => {
                            return Err("concat! uses an env! variable other than \
                                        CARGO_MANIFEST_DIR or OUT_DIR"
                                .to_string());
                        }
                    }
                }
                _ => return Err("concat! has an argument that is not a literal".to_string()),
            }
        }
        Ok(Some(parts))
    }

    /// For an include inside a `macro_rules!` body that uses `$parameter`: every value the
    /// file's invocations of that macro give it, with the literal's token index and a label.
    fn macro_bindings(
        &self,
        include_index: usize,
        parameter: &str,
    ) -> Result<Vec<(usize, String, Option<Label>)>, String> {
        let (name, matcher_open, matcher_close) = self
            .enclosing_macro_rule(include_index)
            .ok_or_else(|| format!("`${parameter}` is used outside a macro_rules! rule"))?;
        let tokens = &self.stream.tokens;
        let dollar = (matcher_open + 1..matcher_close)
            .find(|&index| {
                tokens[index].is_punct("$")
                    && tokens
                        .get(index + 1)
                        .is_some_and(|token| token.is_ident(parameter))
            })
            .ok_or_else(|| format!("`${parameter}` is not a parameter of macro `{name}`"))?;
        let anchor = if dollar == matcher_open + 1 {
            Anchor::Start
        } else {
            match &tokens[dollar - 1].kind {
                kind @ (TokenKind::Punct(_) | TokenKind::Ident(_)) => Anchor::After(kind.clone()),
                TokenKind::Str(_) | TokenKind::Open(_) | TokenKind::Close(_) | TokenKind::Other => {
                    return Err(format!(
                        "parameter `${parameter}` of macro `{name}` has no fixed token before it"
                    ));
                }
            }
        };
        let mut bindings = Vec::new();
        for index in 0..tokens.len() {
            let is_invocation = tokens[index].is_ident(&name)
                && tokens
                    .get(index + 1)
                    .is_some_and(|token| token.is_punct("!"))
                && matches!(
                    tokens.get(index + 2).map(|token| &token.kind),
                    Some(TokenKind::Open(_))
                );
            if !is_invocation {
                continue;
            }
            let open = index + 2;
            let Some(close) = self.stream.closing(open) else {
                continue;
            };
            match &anchor {
                Anchor::Start => {
                    if let Some(value) = tokens.get(open + 1).and_then(Token::str_value) {
                        bindings.push((open + 1, value.to_string(), self.item_label_before(index)));
                    }
                }
                Anchor::After(kind) => {
                    for position in open + 1..close.saturating_sub(1) {
                        if &tokens[position].kind == kind
                            && let Some(value) = tokens[position + 1].str_value()
                        {
                            let label = position
                                .checked_sub(1)
                                .and_then(|before| self.label_at(before));
                            bindings.push((position + 1, value.to_string(), label));
                        }
                    }
                }
            }
        }
        Ok(bindings)
    }

    /// The macro name and matcher delimiters of the `macro_rules!` rule whose transcriber
    /// contains `index`.
    fn enclosing_macro_rule(&self, index: usize) -> Option<(String, usize, usize)> {
        let tokens = &self.stream.tokens;
        for start in 0..tokens.len() {
            let is_definition = tokens[start].is_ident("macro_rules")
                && tokens
                    .get(start + 1)
                    .is_some_and(|token| token.is_punct("!"));
            let Some(TokenKind::Ident(name)) = tokens.get(start + 2).map(|token| &token.kind)
            else {
                continue;
            };
            if !is_definition {
                continue;
            }
            let body_open = start + 3;
            let Some(body_close) = self.stream.closing(body_open) else {
                continue;
            };
            if !(body_open < index && index < body_close) {
                continue;
            }
            let mut cursor = body_open + 1;
            while cursor < body_close {
                let matcher_close = self.stream.closing(cursor)?;
                let transcriber_open = matcher_close + 2;
                let transcriber_close = self.stream.closing(transcriber_open)?;
                if transcriber_open < index && index < transcriber_close {
                    return Some((name.clone(), cursor, matcher_close));
                }
                cursor = transcriber_close + 1;
                if tokens.get(cursor).is_some_and(|token| token.is_punct(";")) {
                    cursor += 1;
                }
            }
        }
        None
    }
}

fn split_top_level_commas(tokens: &[Token]) -> Vec<&[Token]> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (index, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::Open(_) => depth += 1,
            TokenKind::Close(_) => depth = depth.saturating_sub(1),
            TokenKind::Punct(ref punct) if punct == "," && depth == 0 => {
                pieces.push(&tokens[start..index]);
                start = index + 1;
            }
            TokenKind::Ident(_) | TokenKind::Str(_) | TokenKind::Punct(_) | TokenKind::Other => {}
        }
    }
    pieces.push(&tokens[start..]);
    pieces
}
