//! Protocol-fixed structure inside fragments, compared even when their prose is not: the XML
//! tags of `<environment_context>`, the AGENTS.md header and `<INSTRUCTIONS>` wrapper, and the
//! markers that wrap other fragments (`<permissions instructions>`).

use codex_fragments::FragmentTypeInfo;

use super::align::common_subsequence;
use super::report::DifferenceDetail;
use super::report::Side;

/// Registry names of the fragment types with structure of their own.
const ENVIRONMENT_CONTEXT: &str = "environment_context";
const AGENTS_MD: &str = "agents_md";

/// The block that wraps AGENTS.md text after the header line.
const INSTRUCTIONS_OPEN: &str = "<INSTRUCTIONS>";
const INSTRUCTIONS_CLOSE: &str = "</INSTRUCTIONS>";

/// Differences in the fixed structure of two renderings of `info`.
pub(super) fn fixed_structure_differences(
    info: &FragmentTypeInfo,
    a: &str,
    b: &str,
) -> Vec<DifferenceDetail> {
    let classification = info.name.to_string();
    let mut differences = Vec::new();
    match info.name {
        ENVIRONMENT_CONTEXT => {
            let (tags_a, tags_b) = (tag_paths(a), tag_paths(b));
            let common = common_subsequence(&tags_a, &tags_b);
            let common_a: Vec<usize> = common.iter().map(|(i, _)| *i).collect();
            let common_b: Vec<usize> = common.iter().map(|(_, j)| *j).collect();
            for (side, tags, common) in
                [(Side::A, &tags_a, &common_a), (Side::B, &tags_b, &common_b)]
            {
                for (index, tag) in tags.iter().enumerate() {
                    if !common.contains(&index) {
                        differences.push(DifferenceDetail::TagOnlyIn {
                            classification: classification.clone(),
                            side,
                            tag: tag.clone(),
                        });
                    }
                }
            }
        }
        AGENTS_MD => {
            let header = |text: &str| {
                let marker = info.spec.start_marker;
                let first_line = text.trim_start().lines().next().unwrap_or("");
                if first_line == marker {
                    marker.to_string()
                } else if first_line.starts_with(&format!("{marker} for ")) {
                    format!("{marker} for <dir>")
                } else {
                    "<other>".to_string()
                }
            };
            let (header_a, header_b) = (header(a), header(b));
            if header_a != header_b {
                differences.push(DifferenceDetail::Header {
                    classification: classification.clone(),
                    a: header_a,
                    b: header_b,
                });
            }
            let wrapped = |text: &str| {
                text.contains(&format!("\n{INSTRUCTIONS_OPEN}\n"))
                    && text.trim_end().ends_with(INSTRUCTIONS_CLOSE)
            };
            if wrapped(a) != wrapped(b) {
                differences.push(DifferenceDetail::Wrapper {
                    classification,
                    wrapper: format!("{INSTRUCTIONS_OPEN}…{INSTRUCTIONS_CLOSE}"),
                    a: wrapped(a),
                    b: wrapped(b),
                });
            }
        }
        _ => {
            let (start, end) = (info.spec.start_marker.trim(), info.spec.end_marker.trim());
            if start.is_empty() || end.is_empty() {
                return differences;
            }
            let wrapped = |text: &str| {
                let text = text.trim();
                text.starts_with(start) && text.ends_with(end)
            };
            if wrapped(a) != wrapped(b) {
                differences.push(DifferenceDetail::Wrapper {
                    classification,
                    wrapper: format!("{start}…{end}"),
                    a: wrapped(a),
                    b: wrapped(b),
                });
            }
        }
    }
    differences
}

/// Every opening (or self-closing) tag as its path from the outermost tag, with its attribute
/// names: `environment_context/filesystem/permission_profile[type]`. Text between tags, and
/// anything that does not look like a tag, is ignored.
pub(super) fn tag_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let Some(end) = rest.find('>') else {
            break;
        };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(closing) = tag.strip_prefix('/') {
            let closing = closing.trim();
            if let Some(position) = open.iter().rposition(|name| *name == closing) {
                open.truncate(position);
            }
            continue;
        }
        let (tag, self_closing) = match tag.trim().strip_suffix('/') {
            Some(tag) => (tag, true),
            None => (tag, false),
        };
        let mut parts = tag.split_whitespace();
        let Some(name) = parts.next().filter(|name| {
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
        }) else {
            continue;
        };
        let attributes: Vec<&str> = attribute_names(&tag[name.len()..]);
        let mut path = open.join("/");
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(name);
        if !attributes.is_empty() {
            path.push_str(&format!("[{}]", attributes.join(",")));
        }
        paths.push(path);
        if !self_closing {
            open.push(name);
        }
    }
    paths
}

/// The names of `name="value"` attributes, in order; quoted values may hold spaces.
fn attribute_names(mut attributes: &str) -> Vec<&str> {
    let mut names = Vec::new();
    loop {
        attributes = attributes.trim_start();
        let Some(equals) = attributes.find('=') else {
            break;
        };
        let name = attributes[..equals].trim();
        if !name.is_empty() {
            names.push(name);
        }
        let value = attributes[equals + 1..].trim_start();
        attributes = match value.chars().next() {
            Some(quote @ ('"' | '\'')) => match value[1..].find(quote) {
                Some(close) => &value[close + 2..],
                None => "",
            },
            Some(_) | None => value
                .find(char::is_whitespace)
                .map_or("", |space| &value[space..]),
        };
    }
    names
}
