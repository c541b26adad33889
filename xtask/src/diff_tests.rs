use pretty_assertions::assert_eq;

use super::*;

fn numbered(range: std::ops::RangeInclusive<usize>) -> String {
    range.map(|line| format!("line {line}\n")).collect()
}

#[test]
fn equal_texts_have_no_diff() {
    assert_eq!(unified_diff("a\nb\n", "a\nb\n", "old", "new"), "");
}

#[test]
fn one_change_shows_three_lines_of_context() {
    let old = numbered(1..=10);
    let new = old.replace("line 5\n", "line five\n");
    assert_eq!(
        unified_diff(&old, &new, "a/f", "b/f"),
        "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n"
    );
}

#[test]
fn distant_changes_get_separate_hunks_and_close_ones_merge() {
    let old = numbered(1..=20);
    let new = old
        .replace("line 2\n", "")
        .replace("line 18\n", "line 18\nadded\n");
    assert_eq!(
        unified_diff(&old, &new, "a", "b"),
        "--- a\n+++ b\n@@ -1,5 +1,4 @@\n line 1\n-line 2\n line 3\n line 4\n line 5\n\
         @@ -16,5 +15,6 @@\n line 16\n line 17\n line 18\n+added\n line 19\n line 20\n"
    );
    let close = old.replace("line 5\n", "5\n").replace("line 11\n", "11\n");
    assert_eq!(
        unified_diff(&old, &close, "a", "b")
            .lines()
            .filter(|line| line.starts_with("@@"))
            .collect::<Vec<_>>(),
        vec!["@@ -2,13 +2,13 @@"]
    );
}

#[test]
fn a_missing_final_newline_is_shown() {
    assert_eq!(
        unified_diff("a\nb\n", "a\nb", "a", "b"),
        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"
    );
}

#[test]
fn insertion_into_an_empty_file_names_line_zero() {
    assert_eq!(
        unified_diff("", "x\n", "a", "b"),
        "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n"
    );
}
