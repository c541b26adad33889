//! Aligning two sequences: a longest common subsequence of equal keys, then items that only
//! moved, then items in the same gap that changed.

use std::hash::Hash;

use similar::Algorithm;
use similar::DiffOp;
use similar::capture_diff_slices;

/// How the positions of two sequences correspond.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Alignment {
    /// Equal keys on the common subsequence.
    pub matched: Vec<(usize, usize)>,
    /// Equal keys off the common subsequence.
    pub moved: Vec<(usize, usize)>,
    /// Different keys between the same two matched neighbours, accepted as counterparts.
    pub changed: Vec<(usize, usize)>,
    pub only_a: Vec<usize>,
    pub only_b: Vec<usize>,
}

/// The pairs of a longest common subsequence of `a` and `b` (Myers' minimal edit script keeps
/// exactly a longest common subsequence).
pub(super) fn common_subsequence<T: Eq + Hash + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            pairs.extend((0..len).map(|offset| (old_index + offset, new_index + offset)));
        }
    }
    pairs
}

/// Aligns `a` and `b` by key; `counterparts(i, j)` says whether `a[i]` and `b[j]`, with
/// different keys in the same gap, are one item that changed rather than one removed and
/// another added.
pub(super) fn align<T: Eq + Hash + Ord>(
    a: &[T],
    b: &[T],
    counterparts: impl Fn(usize, usize) -> bool,
) -> Alignment {
    let matched = common_subsequence(a, b);
    let mut paired_a = vec![false; a.len()];
    let mut paired_b = vec![false; b.len()];
    for &(i, j) in &matched {
        paired_a[i] = true;
        paired_b[j] = true;
    }
    // gap[i]: how many matched positions come before i; positions with equal gaps lie between
    // the same two matched neighbours.
    let gaps = |paired: &[bool]| -> Vec<usize> {
        paired
            .iter()
            .scan(0, |count, &is_matched| {
                let gap = *count;
                *count += usize::from(is_matched);
                Some(gap)
            })
            .collect()
    };
    let (gap_a, gap_b) = (gaps(&paired_a), gaps(&paired_b));
    let mut moved = Vec::new();
    for i in 0..a.len() {
        if paired_a[i] {
            continue;
        }
        if let Some(j) = (0..b.len()).find(|&j| !paired_b[j] && a[i] == b[j]) {
            paired_a[i] = true;
            paired_b[j] = true;
            moved.push((i, j));
        }
    }
    let mut changed = Vec::new();
    for i in 0..a.len() {
        if paired_a[i] {
            continue;
        }
        if let Some(j) =
            (0..b.len()).find(|&j| !paired_b[j] && gap_a[i] == gap_b[j] && counterparts(i, j))
        {
            paired_a[i] = true;
            paired_b[j] = true;
            changed.push((i, j));
        }
    }
    Alignment {
        matched,
        moved,
        changed,
        only_a: (0..a.len()).filter(|&i| !paired_a[i]).collect(),
        only_b: (0..b.len()).filter(|&j| !paired_b[j]).collect(),
    }
}
