//! The YAML front matter of a `SKILL.md`: the block between a first line `---` and the next
//! `---` line, read for `name`, `description` and `metadata.short-description`
//! (`codex-rs/skills/src/parser.rs`). Whitespace runs collapse to one space; a missing or blank
//! name falls back to the skill's folder name; the description must not be blank and the name
//! must be at most [`MAX_NAME_CHARS`] characters.
//!
//! Prose values such as `description: Deploy to AWS: ECS` are not valid YAML; when the block
//! does not parse, such plain scalars are quoted and the block is read once more.

use serde::Deserialize;

/// Longest skill name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The line that opens and closes the front matter.
const DELIMITER: &str = "---";

/// Why a `SKILL.md` is not a skill.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SkillFrontMatterError {
    #[error("missing YAML frontmatter delimited by ---")]
    Missing,
    #[error("invalid YAML: {0}")]
    InvalidYaml(String),
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    #[error("invalid {field}: exceeds maximum length of {max} characters")]
    TooLong { field: &'static str, max: usize },
}

/// The front matter's values, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFrontMatter {
    pub name: String,
    pub description: String,
    pub short_description: Option<String>,
}

#[derive(Deserialize)]
struct RawFrontMatter {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: RawMetadata,
}

#[derive(Default, Deserialize)]
struct RawMetadata {
    #[serde(default, rename = "short-description")]
    short_description: Option<String>,
}

/// Reads the front matter of `contents`; `folder_name` is the name used when none is given.
pub fn parse_skill_front_matter(
    contents: &str,
    folder_name: &str,
) -> Result<SkillFrontMatter, SkillFrontMatterError> {
    let block = front_matter_block(contents).ok_or(SkillFrontMatterError::Missing)?;
    let raw: RawFrontMatter = match serde_yaml::from_str(&block) {
        Ok(raw) => raw,
        Err(error) => quote_prose_scalars(&block)
            .and_then(|quoted| serde_yaml::from_str(&quoted).ok())
            .ok_or_else(|| SkillFrontMatterError::InvalidYaml(error.to_string()))?,
    };
    let name = raw
        .name
        .as_deref()
        .map(single_line)
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| {
            let folder = single_line(folder_name);
            if folder.is_empty() {
                "skill".to_string()
            } else {
                folder
            }
        });
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(SkillFrontMatterError::TooLong {
            field: "name",
            max: MAX_NAME_CHARS,
        });
    }
    let description = raw.description.as_deref().map(single_line);
    let Some(description) = description.filter(|text| !text.is_empty()) else {
        return Err(SkillFrontMatterError::MissingField("description"));
    };
    let short_description = raw
        .metadata
        .short_description
        .as_deref()
        .map(single_line)
        .filter(|text| !text.is_empty());
    Ok(SkillFrontMatter {
        name,
        description,
        short_description,
    })
}

/// `text` with every whitespace run replaced by one space, trimmed.
pub fn single_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lines between the opening and the closing delimiter, or `None` when either is missing
/// or nothing is between them.
fn front_matter_block(contents: &str) -> Option<String> {
    let mut lines = contents.lines();
    if lines.next()?.trim() != DELIMITER {
        return None;
    }
    let mut block = Vec::new();
    for line in lines {
        if line.trim() == DELIMITER {
            return (!block.is_empty()).then(|| block.join("\n"));
        }
        block.push(line);
    }
    None
}

/// The block with every plain `key: value` scalar that YAML would misread (one holding `: `, or
/// starting like a flow collection, anchor or backtick without being valid YAML) put in single
/// quotes; `None` when nothing needed quoting. Block scalars (`|`, `>`) and quoted values stay
/// as they are, and so does a trailing ` # comment`.
fn quote_prose_scalars(block: &str) -> Option<String> {
    let mut changed = false;
    let mut block_scalar_indent: Option<usize> = None;
    let mut lines = Vec::new();
    for line in block.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(block_indent) = block_scalar_indent {
            if line.trim().is_empty() || indent > block_indent {
                lines.push(line.to_string());
                continue;
            }
            block_scalar_indent = None;
        }
        let Some((key, rest)) = line.split_once(':') else {
            lines.push(line.to_string());
            continue;
        };
        if key.trim().is_empty() || rest.chars().next().is_some_and(|c| !c.is_whitespace()) {
            lines.push(line.to_string());
            continue;
        }
        let value = rest.trim_start();
        let gap = &rest[..rest.len() - value.len()];
        let (scalar, comment) = split_comment(value);
        let Some(first) = scalar.chars().next() else {
            lines.push(line.to_string());
            continue;
        };
        if matches!(first, '|' | '>') {
            block_scalar_indent = Some(indent);
            lines.push(line.to_string());
            continue;
        }
        let has_mapping_colon = scalar
            .char_indices()
            .any(|(at, c)| c == ':' && scalar[at + 1..].starts_with(char::is_whitespace));
        let broken_flow = matches!(first, '[' | '{' | '@' | '`')
            && serde_yaml::from_str::<serde_yaml::Value>(scalar).is_err();
        if matches!(first, '\'' | '"') || !(has_mapping_colon || broken_flow) {
            lines.push(line.to_string());
            continue;
        }
        lines.push(format!(
            "{key}:{gap}'{}'{comment}",
            scalar.replace('\'', "''")
        ));
        changed = true;
    }
    changed.then(|| lines.join("\n"))
}

/// `value` split before a ` #` comment (or a leading `#`), the scalar trimmed at its end.
fn split_comment(value: &str) -> (&str, &str) {
    let start = value.char_indices().find_map(|(at, c)| {
        (c == '#' && (at == 0 || value[..at].ends_with(char::is_whitespace))).then_some(at)
    });
    match start {
        Some(at) => {
            let scalar = value[..at].trim_end();
            (scalar, &value[scalar.len()..])
        }
        None => (value.trim_end(), ""),
    }
}

#[cfg(test)]
#[path = "front_matter_tests.rs"]
mod tests;
