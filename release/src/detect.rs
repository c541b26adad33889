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
        let why = match CodexRelease::predates_every_release(version) {
            true => {
                format!("session_meta.cli_version is {version}, older than every supported release")
            }
            false => format!("session_meta.cli_version is {version}"),
        };
        return Some((release, why));
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
    fn an_older_version_takes_the_oldest_release_and_says_so() {
        let evidence = RolloutEvidence {
            cli_version: Some("0.36.0".to_string()),
            newer_line_shapes: false,
        };
        assert_eq!(
            detect_release(&evidence),
            Some((
                CodexRelease::V0_149,
                "session_meta.cli_version is 0.36.0, older than every supported release"
                    .to_string()
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
