//! A line-based unified diff (longest common subsequence), enough to show why a generated file
//! is out of date.

/// Lines of context around each change, as `diff -u` uses.
const CONTEXT_LINES: usize = 3;

/// Above this many LCS table cells the changed middle is shown as one replacement block,
/// which is still a correct diff, only a less minimal one.
const MAX_TABLE_CELLS: usize = 16_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Keep,
    Remove,
    Add,
}

/// `diff -u`-style text turning `old` into `new` (empty when they are equal). Lines are
/// compared with their line breaks, so a missing final newline shows up as a change.
pub fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let script = edit_script(&old_lines, &new_lines);

    let mut output = format!("--- {old_name}\n+++ {new_name}\n");
    // Positions in the script of the edits that are not `Keep`, grouped into hunks whose gaps
    // are at most twice the context.
    let changed: Vec<usize> = script
        .iter()
        .enumerate()
        .filter(|(_, edit)| **edit != Edit::Keep)
        .map(|(index, _)| index)
        .collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &index in &changed {
        match groups.last_mut() {
            Some((_, end)) if index - *end <= 2 * CONTEXT_LINES + 1 => *end = index,
            Some(_) | None => groups.push((index, index)),
        }
    }
    // Line numbers (0-based) reached before each script position.
    let mut old_before = Vec::with_capacity(script.len() + 1);
    let mut new_before = Vec::with_capacity(script.len() + 1);
    let (mut old_line, mut new_line) = (0usize, 0usize);
    for edit in &script {
        old_before.push(old_line);
        new_before.push(new_line);
        match edit {
            Edit::Keep => {
                old_line += 1;
                new_line += 1;
            }
            Edit::Remove => old_line += 1,
            Edit::Add => new_line += 1,
        }
    }
    old_before.push(old_line);
    new_before.push(new_line);

    for (first, last) in groups {
        let start = first.saturating_sub(CONTEXT_LINES);
        let end = (last + 1 + CONTEXT_LINES).min(script.len());
        let old_count = old_before[end] - old_before[start];
        let new_count = new_before[end] - new_before[start];
        output.push_str(&format!(
            "@@ -{} +{} @@\n",
            hunk_range(old_before[start], old_count),
            hunk_range(new_before[start], new_count)
        ));
        for position in start..end {
            let (marker, line) = match script[position] {
                Edit::Keep => (' ', old_lines[old_before[position]]),
                Edit::Remove => ('-', old_lines[old_before[position]]),
                Edit::Add => ('+', new_lines[new_before[position]]),
            };
            output.push(marker);
            output.push_str(line);
            if !line.ends_with('\n') {
                output.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    output
}

/// `start,count` with 1-based `start`; an empty range names the line before it.
fn hunk_range(start: usize, count: usize) -> String {
    if count == 0 {
        format!("{start},0")
    } else {
        format!("{},{count}", start + 1)
    }
}

fn edit_script(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let prefix = old
        .iter()
        .zip(new)
        .take_while(|(old, new)| old == new)
        .count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(old, new)| old == new)
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let new_middle = &new[prefix..new.len() - suffix];

    let mut script = vec![Edit::Keep; prefix];
    let cells = (old_middle.len() + 1).saturating_mul(new_middle.len() + 1);
    if cells > MAX_TABLE_CELLS {
        script.extend(std::iter::repeat_n(Edit::Remove, old_middle.len()));
        script.extend(std::iter::repeat_n(Edit::Add, new_middle.len()));
    } else {
        // lengths[i][j]: LCS length of old_middle[i..] and new_middle[j..].
        let width = new_middle.len() + 1;
        let mut lengths = vec![0u32; cells];
        for i in (0..old_middle.len()).rev() {
            for j in (0..new_middle.len()).rev() {
                lengths[i * width + j] = if old_middle[i] == new_middle[j] {
                    lengths[(i + 1) * width + j + 1] + 1
                } else {
                    lengths[(i + 1) * width + j].max(lengths[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < old_middle.len() && j < new_middle.len() {
            if old_middle[i] == new_middle[j] {
                script.push(Edit::Keep);
                i += 1;
                j += 1;
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                script.push(Edit::Remove);
                i += 1;
            } else {
                script.push(Edit::Add);
                j += 1;
            }
        }
        script.extend(std::iter::repeat_n(Edit::Remove, old_middle.len() - i));
        script.extend(std::iter::repeat_n(Edit::Add, new_middle.len() - j));
    }
    script.extend(std::iter::repeat_n(Edit::Keep, suffix));
    script
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
