use super::*;
use pretty_assertions::assert_eq;

fn prefix(tokens: &[&str]) -> Vec<String> {
    tokens.iter().map(|token| token.to_string()).collect()
}

#[test]
fn no_prefixes_format_to_nothing() {
    assert_eq!(format_allow_prefixes(&[], &TemplateSet::embedded()), None);
}

#[test]
fn sorts_by_token_count_then_total_length_then_lexicographically() {
    let prefixes = vec![
        prefix(&["b", "zz"]),
        prefix(&["aa"]),
        prefix(&["b"]),
        prefix(&["a", "b", "c"]),
        prefix(&["a"]),
        prefix(&["b", "a"]),
    ];
    assert_eq!(
        format_allow_prefixes(&prefixes, &TemplateSet::embedded()).as_deref(),
        Some(
            r#"- ["a"]
- ["b"]
- ["aa"]
- ["b", "a"]
- ["b", "zz"]
- ["a", "b", "c"]"#
        )
    );
}

#[test]
fn tokens_are_json_quoted() {
    let prefixes = vec![prefix(&["say", "\"hi\"\n", "naïve\\"])];
    assert_eq!(
        format_allow_prefixes(&prefixes, &TemplateSet::embedded()).as_deref(),
        Some(r#"- ["say", "\"hi\"\n", "naïve\\"]"#)
    );
}

#[test]
fn lists_at_most_one_hundred_prefixes_then_the_truncation_note() {
    let templates = TemplateSet::embedded();
    let prefixes = (0..MAX_LISTED_PREFIXES + 5)
        .map(|i| vec![format!("{i:03}")])
        .collect::<Vec<_>>();
    let text = format_allow_prefixes(&prefixes, &templates).expect("non-empty list");
    let listed = (0..MAX_LISTED_PREFIXES)
        .map(|i| format!("- [\"{i:03}\"]"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        text,
        format!(
            "{listed}{}",
            templates.text(TemplateId::ApprovedCommandPrefixesTruncated)
        )
    );
    insta::assert_snapshot!("truncated_tail", &text[text.len() - 120..]);
}

#[test]
fn exactly_one_hundred_prefixes_are_not_truncated() {
    let prefixes = (0..MAX_LISTED_PREFIXES)
        .map(|i| vec![format!("{i:03}")])
        .collect::<Vec<_>>();
    let text = format_allow_prefixes(&prefixes, &TemplateSet::embedded()).expect("list");
    assert_eq!(text.lines().count(), MAX_LISTED_PREFIXES);
    assert!(text.ends_with("- [\"099\"]"));
}

#[test]
fn cuts_the_list_after_five_thousand_characters() {
    let templates = TemplateSet::embedded();
    // 60 prefixes of ~110 characters each: well over the character budget, under the count cap.
    let prefixes = (0..60)
        .map(|i| vec![format!("tool-{i:02}"), "é".repeat(100)])
        .collect::<Vec<_>>();
    let text = format_allow_prefixes(&prefixes, &templates).expect("list");
    let note = templates.text(TemplateId::ApprovedCommandPrefixesTruncated);
    let listed = text
        .strip_suffix(note)
        .expect("ends with the truncation note");
    assert_eq!(listed.chars().count(), MAX_PREFIX_LIST_CHARS);
    assert!(listed.starts_with("- [\"tool-00\", \"éé"));
}

#[test]
fn truncation_note_follows_an_overlay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let note_path = dir
        .path()
        .join("permissions/approved_command_prefixes_truncated.md");
    std::fs::create_dir_all(note_path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&note_path, " (and more)\n").expect("write");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    let prefixes = (0..MAX_LISTED_PREFIXES + 1)
        .map(|i| vec![format!("{i:03}")])
        .collect::<Vec<_>>();
    let text = format_allow_prefixes(&prefixes, &templates).expect("list");
    assert!(text.ends_with("- [\"099\"] (and more)"), "{text}");
}
