//! Which release wrote a rollout: its `session_meta.cli_version`, else the shapes of its lines.

use crate::release::CodexRelease;

/// What a rollout tells about the release that wrote it, gathered while it is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RolloutEvidence {
    /// `session_meta.cli_version` of the first session_meta line.
    pub cli_version: Option<String>,
    /// Whether a line only newer releases write was seen (`token_usage_record`).
    pub newer_line_shapes: bool,
}

/// The release that wrote a rollout, and why it was chosen (a sentence for `explain` and
/// `inspect`). `None` when nothing in the rollout tells.
pub fn detect_release(evidence: &RolloutEvidence) -> Option<(CodexRelease, String)> {
    if let Some(version) = evidence.cli_version.as_deref()
        && let Some(release) = CodexRelease::of_cli_version(version)
    {
        return Some((release, format!("session_meta.cli_version is {version}")));
    }
    evidence.newer_line_shapes.then(|| {
        (
            CodexRelease::V0_171,
            "its lines have the shapes 0.171 writes".to_string(),
        )
    })
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn the_cli_version_decides_first() {
        let evidence = RolloutEvidence {
            cli_version: Some("0.149.1".to_string()),
            newer_line_shapes: true,
        };
        assert_eq!(
            detect_release(&evidence),
            Some((
                CodexRelease::V0_149,
                "session_meta.cli_version is 0.149.1".to_string()
            ))
        );
    }

    #[test]
    fn line_shapes_decide_without_a_usable_version() {
        let evidence = RolloutEvidence {
            cli_version: Some("dev".to_string()),
            newer_line_shapes: true,
        };
        assert_eq!(
            detect_release(&evidence).map(|(r, _)| r),
            Some(CodexRelease::V0_171)
        );
        assert_eq!(detect_release(&RolloutEvidence::default()), None);
    }
}
