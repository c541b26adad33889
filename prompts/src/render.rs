//! `{{ name }}` substitution.
//!
//! Templates are model-visible prose, so the renderer must never fail: a placeholder whose
//! variable is not supplied renders as empty text (the prompt says less instead of breaking),
//! and anything that is not a well-formed placeholder is copied through unchanged. Templates a
//! user supplies (a `--prompts-dir` overlay, a catalog file's texts) are checked when they are
//! loaded instead ([`check_variables`]): a variable nothing defines is an error there.

use std::fmt;

/// One piece of a template: literal text, or a placeholder naming a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Placeholder(&'a str),
}

const OPEN: &str = "{{";
const CLOSE: &str = "}}";

/// Splits `template` into literal text and placeholders.
///
/// A placeholder is `{{`, optional spaces or tabs, an identifier (`[A-Za-z_][A-Za-z0-9_]*`),
/// optional spaces or tabs, then `}}`. Any other `{{` (unterminated, empty, or with an invalid
/// name inside) is literal text.
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut literal_start = 0;
    let mut cursor = 0;
    while let Some(offset) = template[cursor..].find(OPEN) {
        let open_at = cursor + offset;
        let inner_start = open_at + OPEN.len();
        let Some(close_offset) = template[inner_start..].find(CLOSE) else {
            break;
        };
        let inner = &template[inner_start..inner_start + close_offset];
        let name = inner.trim_matches([' ', '\t']);
        if is_identifier(name) {
            if literal_start < open_at {
                out.push(Piece::Text(&template[literal_start..open_at]));
            }
            out.push(Piece::Placeholder(name));
            cursor = inner_start + close_offset + CLOSE.len();
            literal_start = cursor;
        } else {
            // Step past only the first brace so `{{{ name }}` still finds the inner placeholder.
            cursor = open_at + 1;
        }
    }
    if literal_start < template.len() {
        out.push(Piece::Text(&template[literal_start..]));
    }
    out
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Renders `template`, replacing each `{{ name }}` (or `{{name}}`) with the value paired with
/// `name` in `vars`.
///
/// A placeholder whose name is missing from `vars` renders as empty text; when a name appears
/// more than once in `vars` the first pair wins. Substituted values are not scanned again, so
/// a value containing `{{ x }}` appears literally. Malformed braces are kept verbatim.
pub fn render(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    for piece in pieces(template) {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Placeholder(name) => {
                match vars.iter().find(|(candidate, _)| *candidate == name) {
                    Some((_, value)) => out.push_str(value),
                    None => tracing::debug!(variable = name, "template variable not supplied"),
                }
            }
        }
    }
    out
}

/// The variable names referenced by placeholders in `template`, in order of first appearance.
pub fn placeholder_names(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for piece in pieces(template) {
        if let Piece::Placeholder(name) = piece
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    names
}

/// A template names a variable that the code rendering it never gives it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "template {template} uses `{{{{ {variable} }}}}`, which nothing defines ({})",
    match defined.as_slice() {
        [] => "it is given no variables".to_string(),
        names => format!("it is given: {}", names.join(", ")),
    }
)]
pub struct UndefinedVariable {
    /// The template: an overlay file's path, or a catalog text's field, model and catalog.
    pub template: String,
    pub variable: String,
    /// The variables the template is rendered with.
    pub defined: Vec<String>,
}

/// Checks that every placeholder of `text` names one of `defined`; the first one that does not
/// is an error naming `template` and the variable. Overlays and catalog texts share it, so both
/// report a stray placeholder the same way.
pub fn check_variables(
    template: impl fmt::Display,
    text: &str,
    defined: &[&str],
) -> Result<(), UndefinedVariable> {
    match placeholder_names(text)
        .into_iter()
        .find(|name| !defined.contains(name))
    {
        Some(variable) => Err(UndefinedVariable {
            template: template.to_string(),
            variable: variable.to_string(),
            defined: defined.iter().map(|name| (*name).to_string()).collect(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
