//! Comparing two rollouts' line sequences: line types in order (events by their payload type),
//! the `world_state` full/patch pattern with the sections each record touches (for records whose
//! lines correspond), and the number of `turn_context` lines.

use codex_protocol::rollout::RolloutItem;
use codex_rollout::LoadedRollout;

use super::align::common_subsequence;
use super::report::Difference;
use super::report::DifferenceDetail;
use super::report::Position;
use super::report::Side;
use super::report::WorldStateMode;

pub(super) fn compare_rollout_lines(a: &LoadedRollout, b: &LoadedRollout) -> Vec<Difference> {
    let difference = |position: Position, detail: DifferenceDetail| Difference {
        request: None,
        position,
        detail,
    };
    let line_types = |rollout: &LoadedRollout| -> Vec<String> {
        rollout
            .items()
            .map(|item| match item.event_msg_type() {
                Some(event) => format!("{}/{event}", item.line_type()),
                None => item.line_type().to_string(),
            })
            .collect()
    };
    let (types_a, types_b) = (line_types(a), line_types(b));
    let common = common_subsequence(&types_a, &types_b);
    let mut differences = Vec::new();
    // One-sided lines in file order, A's before B's within the same gap.
    let mut one_sided: Vec<((usize, Side), Difference)> = Vec::new();
    for (side, rollout, types) in [(Side::A, a, &types_a), (Side::B, b, &types_b)] {
        let common_side: Vec<usize> = common
            .iter()
            .map(|(i, j)| match side {
                Side::A => *i,
                Side::B => *j,
            })
            .collect();
        for (index, line_type) in types.iter().enumerate() {
            if common_side.contains(&index) {
                continue;
            }
            let line = rollout.lines[index].line_number;
            let position = match side {
                Side::A => Position::RolloutLine {
                    a: Some(line),
                    b: None,
                },
                Side::B => Position::RolloutLine {
                    a: None,
                    b: Some(line),
                },
            };
            // Lines before the same number of common lines sit in the same gap.
            let gap = common_side.iter().filter(|&&common| common < index).count();
            one_sided.push((
                (gap, side),
                difference(
                    position,
                    DifferenceDetail::RolloutLineOnlyIn {
                        side,
                        line_type: line_type.clone(),
                    },
                ),
            ));
        }
    }
    one_sided.sort_by_key(|((gap, side), _)| (*gap, matches!(side, Side::B)));
    differences.extend(one_sided.into_iter().map(|(_, difference)| difference));

    // World-state records correspond when their lines do; one-sided records are already
    // reported as one-sided lines.
    let world_state_lines = common.iter().filter_map(|&(i, j)| {
        if let (RolloutItem::WorldState(record_a), RolloutItem::WorldState(record_b)) =
            (&a.lines[i].line.item, &b.lines[j].line.item)
        {
            Some((
                (a.lines[i].line_number, record_a),
                (b.lines[j].line_number, record_b),
            ))
        } else {
            None
        }
    });
    for ((line_a, record_a), (line_b, record_b)) in world_state_lines {
        let position = Position::RolloutLine {
            a: Some(line_a),
            b: Some(line_b),
        };
        let mode = |full: bool| match full {
            true => WorldStateMode::Full,
            false => WorldStateMode::Patch,
        };
        if record_a.full != record_b.full {
            differences.push(difference(
                position.clone(),
                DifferenceDetail::WorldStateMode {
                    a: mode(record_a.full),
                    b: mode(record_b.full),
                },
            ));
        }
        let sections_a: Vec<String> = record_a.state.keys().cloned().collect();
        let sections_b: Vec<String> = record_b.state.keys().cloned().collect();
        if sections_a != sections_b {
            differences.push(difference(
                position,
                DifferenceDetail::WorldStateSections {
                    a: sections_a,
                    b: sections_b,
                },
            ));
        }
    }

    let turn_contexts = |rollout: &LoadedRollout| {
        rollout
            .items()
            .filter(|item| matches!(item, RolloutItem::TurnContext(_)))
            .count()
    };
    let (contexts_a, contexts_b) = (turn_contexts(a), turn_contexts(b));
    if contexts_a != contexts_b {
        differences.push(difference(
            Position::TurnContexts,
            DifferenceDetail::TurnContextCount {
                a: contexts_a,
                b: contexts_b,
            },
        ));
    }
    differences
}
