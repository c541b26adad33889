//! Which upstream release wrote a rollout, read from its lines.

use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use codex_release::CodexRelease;
use codex_release::RolloutEvidence;
use codex_release::detect_release;

/// Line types only newer releases write.
const NEWER_LINE_TYPES: [&str; 1] = [crate::TOKEN_USAGE_RECORD_LINE_TYPE];

/// The release that wrote `lines` and why (see [`detect_release`]); `None` when nothing in
/// them tells.
pub fn release_of_lines<'a>(
    lines: impl IntoIterator<Item = &'a RolloutLine>,
) -> Option<(CodexRelease, String)> {
    detect_release(&release_evidence(lines))
}

/// What `lines` tell about the release that wrote them.
pub fn release_evidence<'a>(lines: impl IntoIterator<Item = &'a RolloutLine>) -> RolloutEvidence {
    let mut evidence = RolloutEvidence::default();
    for line in lines {
        observe_release(&mut evidence, &line.item);
        if evidence.cli_version.is_some() && evidence.newer_line_shapes {
            break;
        }
    }
    evidence
}

/// Adds what `item` tells about the release to `evidence`.
pub(crate) fn observe_release(evidence: &mut RolloutEvidence, item: &RolloutItem) {
    match item {
        RolloutItem::SessionMeta(meta) => {
            if evidence.cli_version.is_none() {
                evidence.cli_version = meta.cli_version.clone();
            }
        }
        RolloutItem::Other { line_type, .. } => observe_line_type(evidence, line_type),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_) => {}
    }
}

/// Adds what a line of type `line_type` without a typed payload tells about the release.
pub(crate) fn observe_line_type(evidence: &mut RolloutEvidence, line_type: &str) {
    evidence.newer_line_shapes |= NEWER_LINE_TYPES.contains(&line_type);
}
