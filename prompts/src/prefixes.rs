//! The list of approved command prefixes shown to the model.

use crate::TemplateId;
use crate::TemplateSet;
use std::cmp::Ordering;

/// At most this many prefixes are listed.
pub const MAX_LISTED_PREFIXES: usize = 100;
/// The list is cut after this many characters (not bytes, so a cut never splits a character).
pub const MAX_PREFIX_LIST_CHARS: usize = 5000;

/// Formats approved command prefixes as `- ["tok", "tok"]` lines, one per prefix.
///
/// Prefixes are ordered by token count, then by the total byte length of their tokens, then
/// lexicographically; at most [`MAX_LISTED_PREFIXES`] are listed and the text is cut after
/// [`MAX_PREFIX_LIST_CHARS`] characters. When anything was left out, the
/// [`TemplateId::ApprovedCommandPrefixesTruncated`] note is appended directly after the list.
/// Returns `None` when there are no prefixes.
pub fn format_allow_prefixes(prefixes: &[Vec<String>], templates: &TemplateSet) -> Option<String> {
    if prefixes.is_empty() {
        return None;
    }
    let mut sorted: Vec<&Vec<String>> = prefixes.iter().collect();
    sorted.sort_by(|left, right| compare_prefixes(left, right));
    let mut truncated = sorted.len() > MAX_LISTED_PREFIXES;
    let mut text = sorted
        .iter()
        .take(MAX_LISTED_PREFIXES)
        .map(|prefix| format!("- {}", json_token_list(prefix)))
        .collect::<Vec<_>>()
        .join("\n");
    if let Some((cut_at, _)) = text.char_indices().nth(MAX_PREFIX_LIST_CHARS) {
        text.truncate(cut_at);
        truncated = true;
    }
    if truncated {
        text.push_str(templates.text(TemplateId::ApprovedCommandPrefixesTruncated));
    }
    Some(text)
}

fn compare_prefixes(left: &[String], right: &[String]) -> Ordering {
    let total_len = |prefix: &[String]| prefix.iter().map(String::len).sum::<usize>();
    left.len()
        .cmp(&right.len())
        .then_with(|| total_len(left).cmp(&total_len(right)))
        .then_with(|| left.cmp(right))
}

/// `["a", "b"]`: each token as a JSON string, joined by `", "`.
fn json_token_list(prefix: &[String]) -> String {
    let tokens = prefix
        .iter()
        .map(|token| serde_json::to_string(token).unwrap_or_else(|_| format!("{token:?}")))
        .collect::<Vec<_>>()
        .join(", ");
    format!("[{tokens}]")
}

#[cfg(test)]
#[path = "prefixes_tests.rs"]
mod tests;
