//! `cargo xtask prompts --list`: every template, its variables, what it becomes, and who uses
//! it.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::XtaskError;
use crate::manifest::CatalogField;
use crate::prompts_check::PromptsTree;
use crate::prompts_check::TEMPLATES_DIR;

/// The listing as text, one block per file under `prompts/templates/` in path order.
pub fn list_prompts(root: &Path) -> Result<String, XtaskError> {
    let tree = PromptsTree::load(root)?;
    let template_uses = tree.template_uses();
    let mut output = String::new();
    for template in &tree.templates {
        let name = template
            .strip_prefix(TEMPLATES_DIR)
            .unwrap_or(template)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(tree.root.join(template)).unwrap_or_default();
        let _ = writeln!(output, "{name}");

        let mut fields: Vec<CatalogField> = template_uses
            .iter()
            .filter(|template_use| template_use.template == name)
            .map(|template_use| template_use.field)
            .collect();
        fields.sort();
        fields.dedup();
        let mut kind = content_kind(&name).to_string();
        for field in &fields {
            let _ = write!(kind, "; catalog field {}", field.json_path());
        }
        let _ = writeln!(output, "  kind: {kind}");

        let variables = placeholder_names(&text);
        let _ = writeln!(
            output,
            "  variables: {}",
            if variables.is_empty() {
                "-".to_string()
            } else {
                variables.join(", ")
            }
        );

        let includes: Vec<_> = tree
            .scan
            .includes
            .iter()
            .filter(|include| include.path == *template)
            .collect();
        for include in &includes {
            let label = include
                .label
                .as_ref()
                .map(|label| format!(" ({})", label.name))
                .unwrap_or_default();
            let _ = writeln!(output, "  embedded by: {}{label}", include.site);
            if let Some(label) = &include.label {
                let users: Vec<String> = tree
                    .scan
                    .users_of(label)
                    .iter()
                    .map(|user| user.display().to_string())
                    .collect();
                if !users.is_empty() {
                    let _ = writeln!(output, "  used in: {}", users.join(", "));
                }
            }
        }

        let mut slugs: Vec<&str> = Vec::new();
        for template_use in template_uses.iter().filter(|use_| use_.template == name) {
            if !slugs.contains(&template_use.slug) {
                slugs.push(template_use.slug);
            }
        }
        if !slugs.is_empty() {
            let _ = writeln!(output, "  models: {}", slugs.join(", "));
        }
        if includes.is_empty() && slugs.is_empty() {
            let _ = writeln!(
                output,
                "  UNREFERENCED: nothing embeds it and no model uses it"
            );
        }
    }
    Ok(output)
}

fn content_kind(name: &str) -> &'static str {
    match Path::new(name)
        .extension()
        .and_then(|extension| extension.to_str())
    {
        Some("md") => "Markdown text",
        Some("json") => "JSON",
        Some("lark") => "Lark grammar",
        Some("txt") => "plain text",
        Some(_) | None => "other file",
    }
}

/// Names of well-formed `{{ name }}` placeholders (the prompts crate's rules: spaces or tabs
/// around an identifier), each once, in order of first use.
pub fn placeholder_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            break;
        };
        let name = after[..end].trim_matches([' ', '\t']);
        let is_identifier = name
            .chars()
            .next()
            .is_some_and(|first| first == '_' || first.is_ascii_alphabetic())
            && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
        if is_identifier {
            if !names.iter().any(|known| known == name) {
                names.push(name.to_string());
            }
            rest = &after[end + 2..];
        } else {
            // Step past one brace only, so `{{{ name }}` still finds the inner placeholder.
            rest = &rest[start + 1..];
        }
    }
    names
}

#[cfg(test)]
#[path = "listing_tests.rs"]
mod tests;
